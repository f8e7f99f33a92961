import { formatDecimal4, fromMinor } from './decimal';

/**
 * How an amount is printed for people (docs/architecture.md, Shared idioms). Every variant is an
 * option of the one formatter; each keeps what its place has always shown.
 */
export interface MoneyFormat {
  /** "$" before the amount (default true). */
  symbol?: boolean;
  /** Thousands separated by commas (default false). */
  grouping?: boolean;
  /**
   * `cents` (default): two places, sub-cent digits dropped ("$45.12");
   * `trimmed`: two places, and more where they are not zero ("$1,234.567");
   * `four`: two places, or all four when there are sub-cent digits ("$45.1230").
   */
  places?: 'cents' | 'trimmed' | 'four';
}

/** The formats in use, by where they are shown. */
export const MONEY = {
  /** Pages (the `money` filter) and benefit tables: "$45.12". */
  page: {},
  /** CSV cells and the CMS-1500's boxes: "45.12". */
  bare: { symbol: false },
  /** Claim e-mails, claim and remittance pages: "$1,234.567". */
  statement: { grouping: true, places: 'trimmed' },
  /** Estimate notes: "$45.1230". */
  note: { places: 'four' },
} as const satisfies Record<string, MoneyFormat>;

/**
 * An amount, a decimal string (docs/api.md, Conventions: at most four decimals) or integer
 * ten-thousandths (decimal.ts `toMinor`), printed without floating point.
 */
export function formatMoney(amount: string | bigint, format: MoneyFormat = MONEY.page): string {
  const fixed = typeof amount === 'bigint' ? fromMinor(amount) : formatDecimal4(amount)!;
  const [int, frac] = fixed.split('.');
  const whole = format.grouping ? int.replace(/\B(?=(\d{3})+(?!\d))/g, ',') : int;
  return `${format.symbol === false ? '' : '$'}${whole}.${decimalsOf(frac, format.places)}`;
}

/** The four decimals `frac` as `places` shows them. */
function decimalsOf(frac: string, places: MoneyFormat['places'] = 'cents'): string {
  if (places === 'trimmed') return frac.replace(/0+$/, '').padEnd(2, '0');
  if (places === 'four' && !frac.endsWith('00')) return frac;
  return frac.slice(0, 2);
}
