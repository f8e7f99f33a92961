import { FREQUENCY_LIMITS, type BenefitItem, type Frequency } from '@/lib/benefits';
import type { BenefitLoop, DeliveryPattern } from '@/lib/x12';
import { wholeNumber } from './benefit-tree.amounts';

/**
 * What a 2110 loop says of how often and when (docs/api.md, Next eligible dates: what a 271
 * says): the HSD frequency, DTP 304 (the last visit) and DTP 348 (the date the benefit is
 * available from). The dates themselves are computed from these by applyNextEligible.
 */

/** HSD01 quantity qualifiers that count services (HSD02 is then how many per period). */
const COUNTED = new Set(['VS', 'FL', 'P6', 'QA', 'CA', 'CE', 'M2']);
/** EB09 qualifiers whose EB10 counts services, when the HSD gives no HSD02. */
const EB_COUNTED = new Set(['VS', 'P6', 'QA', 'CA', 'CE', 'M2']);

/**
 * HSD05 time periods the model can hold, with HSD06 (how many of them, 1 when absent):
 * - `34` months and `21` years: rolling from the last service (N months, 12·N months);
 * - `22` service year: a year counted from the service, rolling 12·N months (the benefit year
 *   anchored on the plan is `25`, the calendar year `23`);
 * - `23` calendar year: resets on 1 January (N calendar years);
 * - `25` contract: the plan year, resetting on the anniversary of the plan's begin date, and
 *   only when the 271 states that date (DTP 346): a begin date the service filled in with the
 *   inquiry's day would place every anniversary wrongly.
 * Anything else names no period of whole months (`7` days, `35` weeks), or no period at all
 * (`24` year to date, `29` remaining: counts used or left; `26` episode, `27` visit, `32`
 * lifetime), and gives no frequency: the quantity's comment still says it in words.
 */
function periodOf(
  qualifier: string,
  periods: number,
  planBeginStated: boolean,
): Frequency['period'] | null {
  switch (qualifier) {
    case '34':
      return { kind: 'rolling', months: periods };
    case '21':
    case '22':
      return { kind: 'rolling', months: 12 * periods };
    case '23':
      return { kind: 'calendar_year', months: 12 * periods };
    case '25':
      return planBeginStated ? { kind: 'plan_year', months: 12 * periods } : null;
    default:
      return null;
  }
}

/** How many services one HSD allows per period: HSD02, else the line's EB10 count, else one. */
function countOf(hsd: DeliveryPattern, benefit: BenefitLoop): number | null {
  if (hsd.quantity !== null)
    return COUNTED.has(hsd.quantityQualifier) ? wholeNumber(hsd.quantity) : null;
  const { eb } = benefit;
  if (eb.quantity !== null && EB_COUNTED.has(eb.quantityQualifier)) return wholeNumber(eb.quantity);
  return 1;
}

/** The first HSD of the loop that is a frequency the model holds, or null. */
export function frequencyOf(benefit: BenefitLoop, planBeginStated: boolean): Frequency | null {
  for (const hsd of benefit.deliveries) {
    const periods = hsd.periodCount === null ? 1 : wholeNumber(hsd.periodCount);
    const count = countOf(hsd, benefit);
    if (periods === null || periods < 1 || count === null || count < 1) continue;
    if (count > FREQUENCY_LIMITS.count) continue;
    const period = periodOf(hsd.periodQualifier, periods, planBeginStated);
    if (!period || (period.months ?? 0) > FREQUENCY_LIMITS.months) continue;
    return { count, period, shared_with: [] };
  }
  return null;
}

/** DTP 304 (the latest of them) and DTP 348 of a benefit line, or null when it has neither. */
export function statedDatesOf(
  benefit: BenefitLoop,
): { lastService: string | null; nextEligible: string | null } | null {
  let lastService: string | null = null;
  for (const d of benefit.dates)
    if (d.qualifier === '304' && (lastService === null || d.to > lastService)) lastService = d.to;
  const nextEligible = benefit.dates.find((d) => d.qualifier === '348')?.from ?? null;
  return lastService || nextEligible ? { lastService, nextEligible } : null;
}

/**
 * Puts what a line states on one of its items: the first frequency stated for the item stays
 * (an in-network and an out-of-network line usually repeat it), the latest last visit, the first
 * date the payer states.
 */
export function stateOn(
  item: BenefitItem,
  frequency: Frequency | null,
  dates: ReturnType<typeof statedDatesOf>,
): void {
  if (frequency && !item.frequency)
    item.frequency = { ...frequency, period: { ...frequency.period } };
  if (!dates) return;
  const stated = (item.stated ??= {});
  const last = stated.last_service?.date;
  if (dates.lastService && (!last || dates.lastService > last))
    stated.last_service = { date: dates.lastService, source: 'payer' };
  if (dates.nextEligible && !stated.next_eligible_date)
    stated.next_eligible_date = dates.nextEligible;
}
