import type { MaterialsRule } from '@/lib/benefits';
import {
  decimalPlaces,
  fromMinor,
  isDecimalInput,
  normaliseDecimal,
  toMinor,
} from '@/platform/kernel/decimal';
import { formatMoney, MONEY } from '@/platform/kernel/money';

import type { Outcome } from './quote.types';

// The one rule that prices every line from its retail (its steps: quote.rules.ts).

/** A line the plan covers nothing of, and why. */
export function coversNothing(why: string, retail: bigint): Outcome {
  return {
    kind: 'line',
    pays: retail,
    reason: `${why}; the patient pays the retail ${dollars(retail)}`,
  };
}

interface ReadRule {
  c?: bigint;
  a?: bigint;
  /** Percent in ten-thousandths (20 % → 200000n). */
  d?: bigint;
  on: 'overage' | 'retail';
  price?: bigint;
  maxAge?: number;
}

const HUNDRED_PERCENT = 100n * 10_000n;
const CENT = 100n;

export function priceRule(
  rule: MaterialsRule,
  r: bigint,
  age: number | null,
  label: string,
): Outcome {
  const read = readRule(rule, label);
  if (typeof read === 'string') return { kind: 'unknown', reason: read };
  const { c, a, d, price, maxAge } = read;

  // 1. Covered in full up to an age.
  if (maxAge !== undefined) {
    if (age === null)
      return {
        kind: 'unknown',
        reason: `${label} is covered in full up to age ${maxAge}, and the patient's age is not known`,
      };
    if (age <= maxAge)
      return {
        kind: 'line',
        pays: 0n,
        reason: `covered in full up to age ${maxAge} (the patient is ${age})`,
      };
  }
  // 2. A fixed price.
  if (price !== undefined)
    return price > r
      ? line(
          r,
          `the list's price ${dollars(price)} is more than the retail ${dollars(r)}: the patient pays the retail`,
        )
      : line(finish(price * HUNDRED_PERCENT, r), `the list's price ${dollars(price)}`);
  // 3. Nothing to price with.
  if (c === undefined && a === undefined && d === undefined) {
    if (maxAge !== undefined)
      return line(
        r,
        `covered in full up to age ${maxAge} only (the patient is ${age}): the patient pays the retail`,
      );
    return {
      kind: 'unknown',
      reason: `the price list states no copayment, allowance, discount or price for ${label}`,
    };
  }
  // 4. A copayment alone.
  if (a === undefined && d === undefined) {
    const copay = c!;
    return copay > r
      ? line(
          r,
          `copayment ${dollars(copay)} is more than the retail ${dollars(r)}: the patient pays the retail`,
        )
      : line(
          finish(copay * HUNDRED_PERCENT, r),
          `copayment ${dollars(copay)}, then covered in full`,
        );
  }
  // 5. Copayment, allowance and discount.
  return read.on === 'retail' ? onRetail(read, r) : onOverage(read, r);
}

function onOverage({ c = 0n, a = 0n, d = 0n }: ReadRule, r: bigint): Outcome {
  const over = max(0n, r - c - a);
  const raw = c * HUNDRED_PERCENT + over * (HUNDRED_PERCENT - d);
  const stated = [
    c > 0n ? `copayment ${dollars(c)}` : null,
    a > 0n ? `allowance ${dollars(a)}` : null,
  ].filter((part): part is string => part !== null);
  const it = stated.length > 1 ? 'them' : 'it';
  let reason: string;
  if (stated.length === 0) reason = `${percent(d)} % off the retail ${dollars(r)}`;
  else if (over === 0n) reason = `${stated.join(' and ')}, nothing over ${it}`;
  else if (d > 0n)
    reason = `${stated.join(' and ')}, then ${percent(d)} % off the ${dollars(over)} over ${it}`;
  else reason = `${stated.join(' and ')}, then the ${dollars(over)} over ${it}`;
  return capped(raw, r, reason);
}

function onRetail({ c = 0n, a = 0n, d = 0n }: ReadRule, r: bigint): Outcome {
  const discounted = r * (HUNDRED_PERCENT - d);
  const over = max(0n, discounted - a * HUNDRED_PERCENT);
  const raw = c * HUNDRED_PERCENT + over;
  const parts = [
    d > 0n
      ? `${percent(d)} % off the retail ${dollars(r)} leaves ${dollars(toTenThousandths(discounted))}`
      : `retail ${dollars(r)}`,
  ];
  if (a > 0n)
    parts.push(
      over === 0n
        ? `within the allowance ${dollars(a)}`
        : `less the allowance ${dollars(a)}: ${dollars(toTenThousandths(over))}`,
    );
  if (c > 0n) parts.push(`plus the copayment ${dollars(c)}`);
  return capped(raw, r, parts.join(', '));
}

/** `raw` in ten-thousandths of a percent of the ten-thousandth (× HUNDRED_PERCENT), at most `r`. */
function capped(raw: bigint, r: bigint, reason: string): Outcome {
  if (raw >= r * HUNDRED_PERCENT)
    return line(r, raw > r * HUNDRED_PERCENT ? `${reason}; no more than the retail` : reason);
  return line(finish(raw, r), reason);
}

/** Rounds `raw` (scaled by HUNDRED_PERCENT) half up to the cent, never above the retail. */
function finish(raw: bigint, r: bigint): bigint {
  if (raw >= r * HUNDRED_PERCENT) return r;
  const unit = CENT * HUNDRED_PERCENT;
  return min(((raw + unit / 2n) / unit) * CENT, r);
}

function toTenThousandths(raw: bigint): bigint {
  return (raw + HUNDRED_PERCENT / 2n) / HUNDRED_PERCENT;
}

function line(pays: bigint, reason: string): Outcome {
  return { kind: 'line', pays, reason };
}

/** The rule's stated values, or why the list's entry cannot be read. */
function readRule(rule: MaterialsRule, label: string): ReadRule | string {
  const out: ReadRule = { on: 'overage' };
  const amounts = [
    ['copayment', 'c'],
    ['allowance', 'a'],
    ['price', 'price'],
  ] as const;
  for (const [key, field] of amounts) {
    const value = readAmount(rule[key]);
    if (value === 'invalid')
      return `the price list's ${key} for ${label} is not an amount (${shown(rule[key])})`;
    if (value !== undefined) out[field] = value;
  }
  const d = readAmount(rule.discount_percent);
  if (d === 'invalid' || (d !== undefined && d > HUNDRED_PERCENT))
    return `the price list's discount_percent for ${label} is not a percent (${shown(rule.discount_percent)})`;
  if (d !== undefined) out.d = d;
  const on = rule.discount_on as unknown;
  if (on === 'retail' || on === 'overage') out.on = on;
  else if (on !== undefined && on !== null)
    return `the price list's discount_on for ${label} is neither overage nor retail (${shown(on)})`;
  const maxAge = rule.max_age as unknown;
  if (typeof maxAge === 'number' && Number.isInteger(maxAge) && maxAge >= 0) out.maxAge = maxAge;
  else if (maxAge !== undefined && maxAge !== null)
    return `the price list's max_age for ${label} is not an age (${shown(maxAge)})`;
  return out;
}

/** A value of the list as the reason quotes it. */
function shown(value: unknown): string {
  return typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));
}

/** A non-negative decimal of at most four places, in ten-thousandths; undefined when absent. */
export function readAmount(value: unknown): bigint | undefined | 'invalid' {
  if (value === undefined || value === null) return undefined;
  if ((typeof value !== 'string' && typeof value !== 'number') || !isDecimalInput(value))
    return 'invalid';
  const text = normaliseDecimal(value);
  if (text.startsWith('-') || decimalPlaces(text) > 4) return 'invalid';
  return toMinor(text);
}

/** "$45.00", or "$45.1234" when the amount has more than cents. */
export const dollars = (minor: bigint) => formatMoney(minor, MONEY.note);

/** 200000n (ten-thousandths) → "20"; 125000n → "12.5". */
function percent(minor: bigint): string {
  return fromMinor(minor).replace(/\.?0+$/, '');
}

const min = (a: bigint, b: bigint) => (a < b ? a : b);
const max = (a: bigint, b: bigint) => (a > b ? a : b);
