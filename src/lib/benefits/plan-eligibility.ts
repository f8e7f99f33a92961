import type { BenefitItem, Plan } from './benefit.types';
import { compareDates } from './calendar';
import { lastServiceOf, nextEligible } from './next-eligible';
import type { FrequencyRule, NextEligible, ServiceRecord } from './next-eligible.types';
import { WORDS } from './next-eligible.words';

/**
 * A plan's benefit items with their `last_service` and `next_eligible` (docs/api.md, Next
 * eligible dates in results), from what the plan states and the services on record.
 *
 * What an item states: its `frequency`, and its `stated` dates (a last service: DTP 304 or a
 * verifier's answer; a date the payer states it is available from: DTP 348 or a verifier's
 * answer). The dates are computed from those and `history` alone, whatever was computed before,
 * so the 271 mapper can answer with the payer's dates and finishing a search again with the
 * practice's history added, the same answer as one computation with everything.
 *
 * An item with a frequency or a payer-stated date gets a `next_eligible` (its date also as
 * `next_eligible_date`) and, when a service that counts is on record, a `last_service` (its date
 * also as `last_service_date`). A benefit under such an item is part of it and is never available
 * before it: one with no rule of its own carries its nearest ruled ancestor's `next_eligible`, and
 * its own last service (stated, or on record under its code); one whose own date is earlier (or
 * unknown) takes the ancestor's date, and its explanation says why. Any other item keeps the last
 * service it states, if any; nothing is added to it: benefits the plan does not state stay absent.
 * Sets the items in place and answers the plan.
 */
export function applyNextEligible(
  plan: Plan,
  history: readonly ServiceRecord[],
  asOf: string,
): Plan {
  const rules: FrequencyRule[] = [];
  const ruled: BenefitItem[] = [];
  const records: ServiceRecord[] = [];
  const seen = new Set<string>();
  walk(plan.items, (item) => {
    const last = item.stated?.last_service;
    if (last)
      records.push({ benefit_code: item.benefit_code, date: last.date, source: last.source });
    setLastService(item, last ?? null);
    const payer = item.stated?.next_eligible_date ?? null;
    // One rule per benefit: a tree names a benefit once; a verifier's repeat is read once.
    if ((item.frequency || payer !== null) && !seen.has(item.benefit_code)) {
      seen.add(item.benefit_code);
      rules.push({
        benefit_code: item.benefit_code,
        frequency: item.frequency ?? null,
        payer_next_eligible_date: payer,
      });
      ruled.push(item);
    } else {
      delete item.next_eligible;
      delete item.next_eligible_date;
    }
  });
  if (rules.length === 0) return plan;
  const answers = nextEligible({
    as_of: asOf,
    rules,
    history: [...records, ...history],
    plan: { begin_date: plan.begin_date, end_date: plan.end_date },
  });
  answers.forEach((answer, i) => {
    const item = ruled[i];
    item.next_eligible = answer.next_eligible;
    if (answer.next_eligible.date !== null) item.next_eligible_date = answer.next_eligible.date;
    else delete item.next_eligible_date;
    setLastService(item, answer.last_service);
  });
  const all = [...records, ...history];
  const ruledSet = new Set(ruled);
  const inherit = (items: readonly BenefitItem[], above: BenefitItem | null): void => {
    for (const item of items) {
      if (above?.next_eligible) {
        if (!ruledSet.has(item)) {
          item.next_eligible = structuredClone(above.next_eligible);
          setLastService(item, lastServiceOf(item.benefit_code, all));
        } else if (item.next_eligible && laterThan(above.next_eligible, item.next_eligible)) {
          item.next_eligible = {
            date: above.next_eligible.date,
            basis: above.next_eligible.basis,
            explanation: [
              ...item.next_eligible.explanation,
              WORDS.partOf(above.benefit_code, above.next_eligible.date!),
            ],
          };
        }
        if (item.next_eligible?.date) item.next_eligible_date = item.next_eligible.date;
      }
      inherit(item.items ?? [], item.next_eligible ? item : above);
    }
  };
  inherit(plan.items, null);
  return plan;
}

/** The ancestor's date limits the benefit: it is known, and the benefit's is unknown or earlier. */
function laterThan(ancestor: NextEligible, own: NextEligible): boolean {
  if (ancestor.date === null) return false;
  return own.date === null || compareDates(ancestor.date, own.date) > 0;
}

/** Whether any item of the plan has a frequency (only then can a history change an answer). */
export function hasFrequency(plan: Plan): boolean {
  let found = false;
  walk(plan.items, (item) => {
    if (item.frequency) found = true;
  });
  return found;
}

function setLastService(item: BenefitItem, last: BenefitItem['last_service'] | null): void {
  if (last) {
    item.last_service = { date: last.date, source: last.source };
    item.last_service_date = last.date;
  } else {
    delete item.last_service;
    delete item.last_service_date;
  }
}

function walk(items: readonly BenefitItem[], visit: (item: BenefitItem) => void): void {
  for (const item of items) {
    visit(item);
    if (item.items) walk(item.items, visit);
  }
}
