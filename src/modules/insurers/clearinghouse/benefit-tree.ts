import type {
  BenefitFlag,
  BenefitItem,
  BooleanListName,
  DoubleListName,
  FlagEntry,
  IntegerListName,
  Plan,
} from '@/modules/benefits/benefit.types';
import {
  benefitCodeForProcedure,
  benefitCodeForServiceType,
  isPlanLevelServiceType,
} from '@/modules/benefits/service-codes';
import type { BenefitLoop, DeliveryPattern, EligibilityBenefit } from '@/modules/x12/x271.types';
import { deliveryText, periodText, coverageText } from './benefit-words';

/** One value an EB line states, ready to go into a list of an item or of the plan. */
type Stated =
  | { list: DoubleListName; entry: FlagEntry<string> }
  | { list: IntegerListName; entry: FlagEntry<number> }
  | { list: BooleanListName; entry: FlagEntry<boolean> };

export interface TreeDates {
  begin: string | null;
  end: string | null;
  /** refresh_date of every item (a benefit item must carry one). */
  refresh: string;
}

const ACTIVE = new Set(['1', '2', '3', '4', '5']);
/** EB01 values whose amounts, percents and quantities the tree takes. */
const STATING = new Set([...ACTIVE, 'A', 'B', 'D', 'F']);
/** EB09 qualifiers that count uses of a benefit (visits, services, units approved, maximum). */
const COUNTS = new Set(['VS', 'P6', 'QA', 'CA', 'CE', 'M2']);

/**
 * The V2 plan of CONTRACT §10 from a person's 2110 loops: each EB line goes to the item of its
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
  for (const benefit of benefits) {
    const { planLevel, codes } = targets(benefit.eb);
    const stated = statedValues(benefit);
    const endDate = benefitEnd(benefit);
    for (const code of codes) {
      if (stated.length === 0 && !ACTIVE.has(benefit.eb.info)) continue;
      const item = ensureItem(plan.items, code, dates.refresh);
      for (const value of stated) addEntry(item, value);
      if (stated.length === 0 && benefit.messages.length > 0) {
        item.comment = joinComments(item.comment, benefit.messages.join('; '));
      }
      if (endDate) item.end_date = endDate;
    }
    if (planLevel) {
      // A plan carries money and authorisation lists, not quantities.
      for (const value of stated)
        if (value.list !== 'quantity' && value.list !== 'quantity_accepted') addEntry(plan, value);
    }
  }
  plan.insurer_state = hasOutOfNetwork(plan) ? 'oon' : 'inn';
  return plan;
}

/** Where an EB line goes: its procedure code first (the narrowest), else its service types. */
function targets(eb: EligibilityBenefit): { planLevel: boolean; codes: string[] } {
  if (eb.procedure) {
    const code = benefitCodeForProcedure(eb.procedure.code);
    return { planLevel: false, codes: code ? [code] : [] };
  }
  if (eb.serviceTypes.length === 0) return { planLevel: true, codes: [] };
  const codes = eb.serviceTypes
    .map(benefitCodeForServiceType)
    .filter((c): c is string => c !== null);
  return { planLevel: eb.serviceTypes.some(isPlanLevelServiceType), codes: [...new Set(codes)] };
}

function statedValues(benefit: BenefitLoop): Stated[] {
  const { eb } = benefit;
  if (!STATING.has(eb.info)) return [];
  const flags = networkFlags(eb.inPlanNetwork);
  const common = [periodText(eb.timePeriod), coverageText(eb.coverageLevel), ...benefit.messages];
  const entry = <T>(value: T, parts: (string | null)[]): FlagEntry<T> => {
    const comment = parts.filter((p): p is string => !!p).join('; ');
    return { ...(flags ? { flags } : {}), ...(comment ? { comment } : {}), value };
  };
  const out: Stated[] = [];
  if (eb.info === 'B' && eb.amount !== null)
    out.push({ list: 'copayment', entry: entry(eb.amount, common) });
  if (eb.info === 'A' && eb.percent !== null) {
    out.push({ list: 'coinsurance', entry: entry(percentOf(eb.percent), common) });
  }
  if ((eb.info === 'F' || eb.info === 'D') && eb.amount !== null) {
    out.push({ list: 'allowance', entry: entry(eb.amount, common) });
  }
  const counted = eb.quantity !== null ? wholeNumber(eb.quantity) : null;
  const [firstDelivery] = benefit.deliveries;
  if (counted !== null && eb.quantityQualifier === '99') {
    out.push({ list: 'quantity_accepted', entry: entry(counted, common) });
  } else if (counted !== null && COUNTS.has(eb.quantityQualifier)) {
    const frequency = firstDelivery ? deliveryText(firstDelivery, counted) : null;
    out.push({
      list: 'quantity',
      entry: entry(counted, frequency ? [frequency, ...common.slice(1)] : common),
    });
  } else if (eb.quantity === null) {
    for (const delivery of benefit.deliveries) out.push(...deliveryEntry(delivery, common, entry));
  }
  if (eb.authorizationRequired === 'Y' || eb.authorizationRequired === 'N') {
    out.push({
      list: 'is_authorization_required',
      entry: entry(eb.authorizationRequired === 'Y', benefit.messages),
    });
  }
  return out;
}

function deliveryEntry(
  delivery: DeliveryPattern,
  common: (string | null)[],
  entry: <T>(value: T, parts: (string | null)[]) => FlagEntry<T>,
): Stated[] {
  const count = delivery.quantity !== null ? wholeNumber(delivery.quantity) : null;
  if (count === null) return [];
  return [
    { list: 'quantity', entry: entry(count, [deliveryText(delivery, count), ...common.slice(1)]) },
  ];
}

/** EB12: `Y` in network, `N` out of network, `W` (both) or nothing: applies either way. */
function networkFlags(indicator: string): BenefitFlag[] | null {
  if (indicator === 'Y') return ['inn'];
  if (indicator === 'N') return ['oon'];
  return null;
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

function addEntry(target: BenefitItem | Plan, stated: Stated): void {
  const lists = target as Partial<Record<Stated['list'], FlagEntry<unknown>[]>>;
  const list = (lists[stated.list] ??= []);
  const key = JSON.stringify(stated.entry);
  if (!list.some((e) => JSON.stringify(e) === key)) list.push(stated.entry);
}

/** An out-of-network money value, or one that applies in both networks. */
function hasOutOfNetwork(plan: Plan): boolean {
  const lists: DoubleListName[] = ['copayment', 'coinsurance', 'allowance'];
  const visit = (target: BenefitItem | Plan): boolean =>
    lists.some((name) => (target[name] ?? []).some((e) => !e.flags?.includes('inn'))) ||
    ('items' in target && (target.items ?? []).some(visit));
  return visit(plan);
}

/** EB08 is a fraction (0.2); the tree's coinsurance is a percent (20), shifted exactly. */
export function percentOf(fraction: string): string {
  const negative = fraction.startsWith('-');
  const [int, frac = ''] = (negative ? fraction.slice(1) : fraction).split('.');
  const digits = `${int}${frac.padEnd(2, '0')}`;
  const whole = digits.slice(0, int.length + 2).replace(/^0+(?=\d)/, '');
  const rest = digits.slice(int.length + 2).replace(/0+$/, '');
  return `${negative ? '-' : ''}${whole}${rest ? `.${rest}` : ''}`;
}

function wholeNumber(value: string): number | null {
  const match = /^(\d+)(\.0*)?$/.exec(value);
  return match ? Number(match[1]) : null;
}

function joinComments(a: string | undefined, b: string): string {
  return a ? `${a}; ${b}` : b;
}
