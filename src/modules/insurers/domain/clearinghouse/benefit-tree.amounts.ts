import type {
  BenefitFlag,
  BenefitItem,
  BooleanListName,
  DoubleListName,
  FlagEntry,
  IntegerListName,
  Plan,
} from '@/lib/benefits';
import type { BenefitLoop } from '@/lib/x12';
import { COVERAGE, deliveryText, PERIODS } from './benefit-words';

/**
 * The values an EB line states (amounts, percents, quantities, authorisation) and the EB06
 * used/remaining amount rules of the benefit tree (docs/api.md, Real insurers).
 */

/** One value an EB line states, ready to go into a list of an item or of the plan. */
type Stated =
  | { list: DoubleListName; entry: FlagEntry<string> }
  | { list: IntegerListName; entry: FlagEntry<number> }
  | { list: BooleanListName; entry: FlagEntry<boolean> };

export const ACTIVE = new Set(['1', '2', '3', '4', '5']);
/** EB01 values whose amounts, percents and quantities the tree takes. */
const STATING = new Set([...ACTIVE, 'A', 'B', 'C', 'D', 'F']);
/** EB06 time periods of amounts already used (year to date) and of what is left (docs/api.md, Real insurers). */
const USED = '24';
const REMAINING = new Set(['29', '33']);
/** EB01 values whose EB07 amount is a list of its own (F and D: the allowance). */
const AMOUNTS: Readonly<Record<string, 'copayment' | 'deductible' | 'allowance'>> = {
  B: 'copayment',
  C: 'deductible',
  F: 'allowance',
  D: 'allowance',
};

/** A remaining amount or count, to turn into "used" once the maximum is known. */
export interface Remaining {
  target: BenefitItem | Plan;
  list: 'allowance' | 'quantity';
  flags: BenefitFlag[] | null;
  value: string;
  /** The entry to add when the 271 states no maximum. */
  fallback: Stated;
}
/** EB09 qualifiers that count uses of a benefit (visits, services, units approved, maximum). */
const COUNTS = new Set(['VS', 'P6', 'QA', 'CA', 'CE', 'M2']);

/**
 * Adds a value, except a remaining amount or count (EB06 `29`/`33`), which waits until every
 * line is read: with a stated maximum it becomes the used part (maximum − remaining).
 */
export function place(
  target: BenefitItem | Plan,
  stated: Stated,
  benefit: BenefitLoop,
  remaining: Remaining[],
): void {
  const isRemaining = REMAINING.has(benefit.eb.timePeriod);
  if (isRemaining && (stated.list === 'allowance' || stated.list === 'quantity')) {
    remaining.push({
      target,
      list: stated.list,
      flags: stated.entry.flags ?? null,
      value: String(stated.entry.value),
      fallback: stated,
    });
    return;
  }
  addEntry(target, stated);
}

export function settleRemaining(r: Remaining): void {
  const lists = r.target as unknown as Partial<Record<string, FlagEntry<unknown>[]>>;
  const sameFlags = (e: FlagEntry<unknown>) =>
    JSON.stringify(e.flags ?? null) === JSON.stringify(r.flags);
  const maximum = (lists[r.list] ?? []).find(sameFlags);
  if (!maximum) {
    addEntry(r.target, r.fallback);
    return;
  }
  const entry = r.fallback.entry;
  const base = { ...(entry.flags ? { flags: entry.flags } : {}) };
  if (r.list === 'allowance') {
    const used = subtractDecimal(String(maximum.value), r.value);
    if (used !== null)
      addEntry(r.target, { list: 'allowance_accepted', entry: { ...base, value: used } });
  } else {
    const used = Number(maximum.value) - Number(r.value);
    if (Number.isInteger(used) && used >= 0)
      addEntry(r.target, { list: 'quantity_accepted', entry: { ...base, value: used } });
  }
}

/** a − b of two decimal strings, exactly (cents arithmetic on scaled integers); null if negative. */
export function subtractDecimal(a: string, b: string): string | null {
  const scale = (x: string) => {
    const [int, frac = ''] = x.split('.');
    return { int, frac };
  };
  const [pa, pb] = [scale(a), scale(b)];
  const places = Math.max(pa.frac.length, pb.frac.length);
  const big = (p: { int: string; frac: string }) => BigInt(`${p.int}${p.frac.padEnd(places, '0')}`);
  if (!/^\d+(\.\d+)?$/.test(a) || !/^\d+(\.\d+)?$/.test(b)) return null;
  const diff = big(pa) - big(pb);
  if (diff < 0n) return null;
  const digits = diff.toString().padStart(places + 1, '0');
  const int = digits.slice(0, digits.length - places);
  const frac = places > 0 ? digits.slice(digits.length - places).replace(/0+$/, '') : '';
  return frac ? `${int}.${frac}` : int;
}

export function statedValues(benefit: BenefitLoop): Stated[] {
  const { eb } = benefit;
  if (!STATING.has(eb.info)) return [];
  const flags = networkFlags(eb.inPlanNetwork);
  const common = [
    PERIODS[eb.timePeriod] ?? null,
    COVERAGE[eb.coverageLevel] ?? null,
    ...benefit.messages,
  ];
  const entry = <T>(value: T, parts: (string | null)[]): FlagEntry<T> => {
    const comment = parts.filter((p): p is string => !!p).join('; ');
    return { ...(flags ? { flags } : {}), ...(comment ? { comment } : {}), value };
  };
  const out: Stated[] = [];
  // EB06 24 with F or D: the amount used so far this year (docs/api.md, Real insurers).
  const amountList =
    eb.timePeriod === USED && AMOUNTS[eb.info] === 'allowance'
      ? 'allowance_accepted'
      : AMOUNTS[eb.info];
  if (amountList && eb.amount !== null)
    out.push({ list: amountList, entry: entry(eb.amount, common) });
  if (eb.info === 'A' && eb.percent !== null)
    out.push({ list: 'coinsurance', entry: entry(percentOf(eb.percent), common) });
  const counted = wholeNumber(eb.quantity);
  const [firstDelivery] = benefit.deliveries;
  if (
    counted !== null &&
    (eb.quantityQualifier === '99' || (eb.timePeriod === USED && COUNTS.has(eb.quantityQualifier)))
  ) {
    out.push({ list: 'quantity_accepted', entry: entry(counted, common) });
  } else if (counted !== null && COUNTS.has(eb.quantityQualifier)) {
    const frequency = firstDelivery ? deliveryText(firstDelivery, counted) : null;
    out.push({
      list: 'quantity',
      entry: entry(counted, frequency ? [frequency, ...common.slice(1)] : common),
    });
  } else if (eb.quantity === null) {
    for (const delivery of benefit.deliveries) {
      const count = wholeNumber(delivery.quantity);
      if (count === null) continue;
      const words = [deliveryText(delivery, count), ...common.slice(1)];
      out.push({ list: 'quantity', entry: entry(count, words) });
    }
  }
  if (eb.authorizationRequired === 'Y' || eb.authorizationRequired === 'N') {
    out.push({
      list: 'is_authorization_required',
      entry: entry(eb.authorizationRequired === 'Y', benefit.messages),
    });
  }
  return out;
}

/** EB12: `Y` in network, `N` out of network, `W` (both) or nothing: applies either way. */
function networkFlags(indicator: string): BenefitFlag[] | null {
  if (indicator === 'Y') return ['inn'];
  if (indicator === 'N') return ['oon'];
  return null;
}

function addEntry(target: BenefitItem | Plan, stated: Stated): void {
  const lists = target as Partial<Record<Stated['list'], FlagEntry<unknown>[]>>;
  const list = (lists[stated.list] ??= []);
  const key = JSON.stringify(stated.entry);
  if (!list.some((e) => JSON.stringify(e) === key)) list.push(stated.entry);
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

/** `3` or `3.0` as a number; null for anything else (`2.5`, none). */
export function wholeNumber(value: string | null): number | null {
  if (value === null) return null;
  const match = /^(\d+)(\.0*)?$/.exec(value);
  return match ? Number(match[1]) : null;
}
