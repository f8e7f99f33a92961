import { multiplyDecimal, sumDecimals } from '@/platform/kernel/decimal';

/** The money fields of a service line: `cost` is the price of ONE unit (docs/api.md, Claims). */
export interface ChargeableLine {
  cost: string;
  quantity: number;
}

/** A line's charge: unit cost × quantity, exact, four decimals. */
export function lineCharge(line: ChargeableLine): string {
  return multiplyDecimal(line.cost, line.quantity);
}

/**
 * A claim's `total_cost`: the sum of its line charges. `paid_amount` is never checked against it
 * (a patient may have paid for more than the claimed lines, or less).
 */
export function claimTotalCost(lines: ChargeableLine[]): string {
  return sumDecimals(lines.map(lineCharge));
}
