import type { DeliveryPattern } from '@/lib/x12';

/** EB06 time periods, as a comment on the value they qualify. */
export const PERIODS: Readonly<Record<string, string>> = {
  '6': 'per hour',
  '7': 'per day',
  '13': 'per 24 hours',
  '21': 'per year',
  '22': 'per service year',
  '23': 'per calendar year',
  '24': 'year to date',
  '25': 'per contract',
  '26': 'per episode',
  '27': 'per visit',
  '28': 'outlier',
  '29': 'remaining',
  '30': 'exceeded',
  '31': 'not exceeded',
  '32': 'per lifetime',
  '33': 'lifetime remaining',
  '34': 'per month',
  '35': 'per week',
  '36': 'per admission',
};

/** EB02 coverage levels other than the individual's own. */
export const COVERAGE: Readonly<Record<string, string>> = {
  FAM: 'family',
  CHD: 'children only',
  DEP: 'dependents only',
  ECH: 'employee and children',
  EMP: 'employee only',
  ESP: 'employee and spouse',
  SPC: 'spouse and children',
  SPO: 'spouse only',
  TWO: 'two party',
  E1D: 'employee and one dependent',
  E2D: 'employee and two dependents',
  E3D: 'employee and three dependents',
  E5D: 'employee and one or more dependents',
  E6D: 'employee and two or more dependents',
  E7D: 'employee and three or more dependents',
  E8D: 'employee and four or more dependents',
  E9D: 'employee and five or more dependents',
};

/** HSD05 periods that count (months, years, ...): singular and plural. */
const UNITS: Readonly<Record<string, [string, string]>> = {
  '6': ['hour', 'hours'],
  '7': ['day', 'days'],
  '21': ['year', 'years'],
  '34': ['month', 'months'],
  '35': ['week', 'weeks'],
};

/** HSD05 periods that are named, not counted: the EB06 words of these codes. */
const NAMED_PERIODS: Readonly<Record<string, string>> = Object.fromEntries(
  ['22', '23', '24', '25', '26', '27', '29', '32', '33', '36'].map((code) => [code, PERIODS[code]]),
);

/** "1 every 12 months", "1 per month", "2 per calendar year", or null when HSD gives no period. */
export function deliveryText(delivery: DeliveryPattern, quantity: number): string | null {
  const unit = UNITS[delivery.periodQualifier];
  const count = delivery.periodCount !== null ? Number(delivery.periodCount) : null;
  if (unit) {
    return count !== null && count > 1
      ? `${quantity} every ${delivery.periodCount} ${unit[1]}`
      : `${quantity} per ${unit[0]}`;
  }
  const named = NAMED_PERIODS[delivery.periodQualifier];
  return named ? `${quantity} ${named}` : null;
}
