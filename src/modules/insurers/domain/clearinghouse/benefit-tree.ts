import {
  applyNextEligible,
  benefitCodeForProcedure,
  benefitCodeForServiceType,
  type BenefitItem,
  type CarveOut,
  type DoubleListName,
  isPlanLevelServiceType,
  type OtherPayer,
  type Plan,
} from '@/lib/benefits';
import type { BenefitLoop, EligibilityBenefit } from '@/lib/x12';
import { describeAaa } from './aaa-codes';
import {
  ACTIVE,
  place,
  type Remaining,
  settleRemaining,
  statedValues,
} from './benefit-tree.amounts';
import { frequencyOf, stateOn, statedDatesOf } from './benefit-tree.frequency';

export { percentOf, subtractDecimal } from './benefit-tree.amounts';

export interface TreeDates {
  begin: string | null;
  end: string | null;
  /** refresh_date of every item (a benefit item must carry one). */
  refresh: string;
  /** Whether the 271 states the plan's begin date (else `begin` is the inquiry's day). */
  beginStated: boolean;
  /** The day asked about: next eligible dates are never before it. */
  asOf: string;
}

/**
 * Procedure codes vision payers key benefits to that the shared service-code table (which the
 * estimates use too) does not map: docs/api.md, Real insurers for the 271 only.
 */
const PROCEDURES_271: Readonly<Record<string, string>> = {
  '92015': 'exam.routine',
  S0620: 'exam.routine',
  S0621: 'exam.routine',
  S0580: 'materials.spectacle_lenses.options',
  S0581: 'materials.spectacle_lenses.options',
};

function procedureBenefit(code: string): string | null {
  const upper = code.trim().toUpperCase();
  const lensOption = /^S05(0\d|1[0-6])$/.test(upper);
  return (
    PROCEDURES_271[upper] ??
    (lensOption ? 'materials.spectacle_lenses.options' : benefitCodeForProcedure(upper))
  );
}

/**
 * The V2 plan (docs/api.md, Real insurers) from a person's 2110 loops: each EB line goes to the item of its
 * procedure code (EB13) or of its service types (EB03), or to the plan itself for `AL`/`30`.
 * Only what a line states becomes a list entry; nothing is filled in.
 */
export function buildPlan(benefits: readonly BenefitLoop[], dates: TreeDates): Plan {
  const plan: Plan = {
    insurer_state: 'inn',
    items: [],
    refresh_date: null,
    begin_date: dates.begin,
    end_date: dates.end,
    flags: [],
  };
  const remaining: Remaining[] = [];
  for (const benefit of benefits) {
    const { planLevel, codes } = targets(benefit.eb);
    if (benefit.validations.length > 0) {
      // docs/api.md, Real insurers: an AAA in 2110 answers that inquiry line only; the rest stands.
      const about = lineSubject(benefit.eb);
      for (const v of benefit.validations) {
        plan.comment = joinComments(plan.comment, `${describeAaa(v.reason)}${about}`);
      }
      continue;
    }
    if (benefit.eb.info === 'U') {
      const carveOut = carveOutOf(benefit);
      if (carveOut) plan.carve_out = carveOut;
      continue;
    }
    if (benefit.eb.info === 'R') {
      (plan.other_payers ??= []).push(otherPayerOf(benefit));
      continue;
    }
    if (benefit.eb.info === 'I') {
      for (const code of codes) {
        const item = ensureItem(plan.items, code, dates.refresh);
        if (!item.flags?.includes('not_covered'))
          item.flags = [...(item.flags ?? []), 'not_covered'];
        if (benefit.messages.length > 0)
          item.comment = joinComments(item.comment, benefit.messages.join('; '));
      }
      continue;
    }
    const stated = statedValues(benefit);
    const endDate = benefitEnd(benefit);
    const frequency = frequencyOf(benefit, dates.beginStated);
    const serviceDates = statedDatesOf(benefit);
    for (const code of codes) {
      const says = stated.length > 0 || ACTIVE.has(benefit.eb.info) || serviceDates || frequency;
      if (!says) continue;
      const item = ensureItem(plan.items, code, dates.refresh);
      for (const value of stated) place(item, value, benefit, remaining);
      if (stated.length === 0 && benefit.messages.length > 0) {
        item.comment = joinComments(item.comment, benefit.messages.join('; '));
      }
      if (endDate) item.end_date = endDate;
      stateOn(item, frequency, serviceDates);
    }
    if (planLevel) {
      // A plan carries money and authorisation lists, not quantities.
      for (const value of stated)
        if (value.list !== 'quantity' && value.list !== 'quantity_accepted')
          place(plan, value, benefit, remaining);
    }
  }
  for (const r of remaining) settleRemaining(r);
  plan.insurer_state = hasOutOfNetwork(plan) ? 'oon' : 'inn';
  // docs/api.md, Next eligible dates: from the payer's word alone here; a finishing search adds
  // the practice's own history.
  return applyNextEligible(plan, [], dates.asOf);
}

/** " (service type AN)", " (procedure HC:V2020)", or '' when the line names neither. */
function lineSubject(eb: EligibilityBenefit): string {
  if (eb.procedure) return ` (procedure ${eb.procedure.qualifier}:${eb.procedure.code})`;
  if (eb.serviceTypes.length > 0) return ` (service type ${eb.serviceTypes.join(', ')})`;
  return '';
}

/** EB01 `U` (contact another entity): the administrator its 2120 loop names (docs/api.md, Real insurers). */
function carveOutOf(benefit: BenefitLoop): CarveOut | null {
  const entity = benefit.related.find((r) => r.name.lastName !== '') ?? null;
  const name = entity?.name.lastName || benefit.eb.planDescription || benefit.messages[0] || '';
  if (name === '') return null;
  return {
    name,
    payer_id:
      entity && entity.name.id !== '' && entity.name.idQualifier !== 'MI' ? entity.name.id : null,
    phone: entity?.phone ?? null,
  };
}

/** EB01 `R` (other or additional payer): its 2120 name and payer id, the member's id there. */
function otherPayerOf(benefit: BenefitLoop): OtherPayer {
  const payer =
    benefit.related.find((r) => r.name.idQualifier !== 'MI' && r.name.lastName !== '') ?? null;
  const insured = benefit.related.find((r) => r.name.idQualifier === 'MI') ?? null;
  const policy = benefit.references.find((r) => ['IG', '18', '1L', 'NQ'].includes(r.qualifier));
  return {
    name: payer?.name.lastName || benefit.eb.planDescription || insured?.name.lastName || '',
    payer_id: payer && payer.name.id !== '' ? payer.name.id : null,
    member_id: insured?.name.id || policy?.value || null,
  };
}

/** Where an EB line goes: its procedure code first (the narrowest), else its service types. */
function targets(eb: EligibilityBenefit): { planLevel: boolean; codes: string[] } {
  if (eb.procedure) {
    const code = procedureBenefit(eb.procedure.code);
    // docs/api.md, Real insurers: an EB13 that maps nowhere falls back to its EB03.
    if (code) return { planLevel: false, codes: [code] };
  }
  if (eb.serviceTypes.length === 0) return { planLevel: true, codes: [] };
  const codes = eb.serviceTypes
    .map(benefitCodeForServiceType)
    .filter((c): c is string => c !== null);
  return { planLevel: eb.serviceTypes.some(isPlanLevelServiceType), codes: [...new Set(codes)] };
}

/** 2110 DTP 349 (benefit end) or the end of a 292 (benefit) range. */
function benefitEnd(benefit: BenefitLoop): string | null {
  const end = benefit.dates.find((d) => d.qualifier === '349');
  if (end) return end.to;
  const range = benefit.dates.find((d) => d.qualifier === '292' && d.format === 'RD8');
  return range ? range.to : null;
}

/** The item for `exam.routine`, creating `exam` and `exam.routine` on the way when missing. */
function ensureItem(root: BenefitItem[], code: string, refresh: string): BenefitItem {
  const parts = code.split('.');
  let items = root;
  let item: BenefitItem | undefined;
  for (let i = 1; i <= parts.length; i++) {
    const path = parts.slice(0, i).join('.');
    item = items.find((x) => x.benefit_code === path);
    if (!item) {
      item = { benefit_code: path, refresh_date: refresh, items: [] };
      items.push(item);
    }
    items = item.items ?? (item.items = []);
  }
  return item as BenefitItem;
}

/** An out-of-network money value, or one that applies in both networks. */
function hasOutOfNetwork(plan: Plan): boolean {
  const lists: DoubleListName[] = ['copayment', 'coinsurance', 'allowance'];
  const visit = (target: BenefitItem | Plan): boolean =>
    lists.some((name) => (target[name] ?? []).some((e) => !e.flags?.includes('inn'))) ||
    ('items' in target && (target.items ?? []).some(visit));
  return visit(plan);
}

function joinComments(a: string | undefined, b: string): string {
  return a ? `${a}; ${b}` : b;
}
