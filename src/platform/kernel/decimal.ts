/**
 * Money as decimal strings (docs/api.md, Conventions): parsed into integer ten-thousandths (BigInt), never a
 * JS float, and printed with exactly four decimals.
 */

const DECIMAL = /^-?\d{1,20}(\.\d{1,20})?$/;
const SCALE = 4;

/** A decimal literal ("12.2", "-3", 12.22). Exponents, NaN and Infinity are refused. */
export function isDecimalInput(value: unknown): boolean {
  if (typeof value === 'number') return Number.isFinite(value) && DECIMAL.test(String(value));
  return typeof value === 'string' && DECIMAL.test(value.trim());
}

/** "012.50" → "12.50"; 12.5 → "12.5". The number form uses JS's shortest round-trip text. */
export function normaliseDecimal(value: string | number): string {
  const text = typeof value === 'number' ? String(value) : value.trim();
  const negative = text.startsWith('-');
  const [int, frac] = (negative ? text.slice(1) : text).split('.');
  const intPart = int.replace(/^0+(?=\d)/, '');
  const out = frac === undefined ? intPart : `${intPart}.${frac}`;
  return negative && /[1-9]/.test(out) ? `-${out}` : out;
}

export function decimalPlaces(value: string): number {
  const dot = value.indexOf('.');
  return dot === -1 ? 0 : value.length - dot - 1;
}

export function integerDigits(value: string): number {
  return value.replace('-', '').split('.')[0].length;
}

/** Decimal string → integer count of 1/10,000 (exact). Requires at most four decimals. */
export function toMinor(value: string): bigint {
  const negative = value.startsWith('-');
  const [int, frac = ''] = (negative ? value.slice(1) : value).split('.');
  if (frac.length > SCALE) throw new RangeError(`More than ${SCALE} decimal places: ${value}`);
  const minor = BigInt(int) * 10n ** BigInt(SCALE) + BigInt(frac.padEnd(SCALE, '0') || '0');
  return negative ? -minor : minor;
}

export function fromMinor(minor: bigint): string {
  const negative = minor < 0n;
  const abs = negative ? -minor : minor;
  const base = 10n ** BigInt(SCALE);
  const int = abs / base;
  const frac = (abs % base).toString().padStart(SCALE, '0');
  return `${negative ? '-' : ''}${int}.${frac}`;
}

const FOUR_PLACES = /^(-?)(\d+)(?:\.(\d{0,4}))?$/;

/** Any decimal string (for example PostgreSQL numeric output) with exactly four decimals. */
export function formatDecimal4(value: string | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  const text = normaliseDecimal(value);
  // The usual case, by text alone (rendering a plan formats hundreds): what the exact path
  // below prints for it, without BigInt.
  const m = FOUR_PLACES.exec(text);
  if (m) {
    const frac = (m[3] ?? '').padEnd(SCALE, '0');
    const zero = !/[1-9]/.test(m[2]) && !/[1-9]/.test(frac);
    return `${m[1] && !zero ? '-' : ''}${m[2]}.${frac}`;
  }
  return fromMinor(toMinor(text));
}

export function sumDecimals(values: string[]): string {
  return fromMinor(values.reduce((acc, v) => acc + toMinor(v), 0n));
}

/**
 * A decimal string times a whole number, exact (a claim line's charge: unit cost × quantity).
 * Refuses a factor that is not a safe integer rather than rounding it.
 */
export function multiplyDecimal(value: string, factor: number): string {
  if (!Number.isSafeInteger(factor)) throw new RangeError(`Not an integer factor: ${factor}`);
  return fromMinor(toMinor(value) * BigInt(factor));
}
