/**
 * Date-only arithmetic on `YYYY-MM-DD` (docs/api.md, Next eligible dates): no clock, no time zone,
 * no `Date` objects crossing a day boundary. A benefit date is a calendar day, the same day
 * wherever the practice is.
 */

interface Ymd {
  year: number;
  month: number;
  day: number;
}

function parse(date: string): Ymd {
  const [year, month, day] = date.split('-').map(Number);
  return { year, month, day };
}

function format({ year, month, day }: Ymd): string {
  const pad = (n: number, width: number) => String(n).padStart(width, '0');
  return `${pad(year, 4)}-${pad(month, 2)}-${pad(day, 2)}`;
}

/** Days in a month of a year (proleptic Gregorian, as `Date.UTC` counts). */
function daysIn(year: number, month: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/**
 * `months` after `date` (before it when negative), the day clamped to the month's length:
 * 31 January + 1 month → 28 (or 29) February; 29 February 2024 + 12 months → 28 February 2025,
 * + 48 months → 29 February 2028 (counted from the date itself, never step by step).
 */
export function addMonths(date: string, months: number): string {
  const { year, month, day } = parse(date);
  const total = year * 12 + (month - 1) + months;
  const y = Math.floor(total / 12);
  const m = total - y * 12 + 1;
  return format({ year: y, month: m, day: Math.min(day, daysIn(y, m)) });
}

/** Negative, zero or positive as `a` is before, on or after `b` (years of any width). */
export function compareDates(a: string, b: string): number {
  const x = parse(a);
  const y = parse(b);
  return x.year - y.year || x.month - y.month || x.day - y.day;
}

/** The latest of the dates given (nulls skipped), or null when there is none. */
export function latest(...dates: (string | null | undefined)[]): string | null {
  let best: string | null = null;
  for (const d of dates) if (d && (best === null || compareDates(d, best) > 0)) best = d;
  return best;
}

/** 1 January of the year `years` after the year of `date`. */
export function januaryFirst(date: string, years = 0): string {
  return format({ year: parse(date).year + years, month: 1, day: 1 });
}

/**
 * The start of the plan year holding `date`, as an index from the plan's `begin` date: its
 * anniversaries are `begin` + 12·k months (clamped from `begin` itself, so a plan begun on
 * 29 February starts its years on 28 February, and on 29 February again in leap years).
 */
export function planYearIndex(begin: string, date: string): number {
  const k = parse(date).year - parse(begin).year;
  return compareDates(addMonths(begin, 12 * k), date) > 0 ? k - 1 : k;
}

/** The `k`-th anniversary of `begin` (k = 0: `begin` itself). */
export function anniversary(begin: string, k: number): string {
  return addMonths(begin, 12 * k);
}
