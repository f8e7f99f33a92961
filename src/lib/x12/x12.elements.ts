import { isoDate } from '@/platform/kernel/time';
import { pad2, Segment } from './x12.segment';

/**
 * Typed readings of the segments 270s and 271s share (005010X279A1 element positions). Dates come
 * out as `YYYY-MM-DD`; amounts and percents as the decimal text sent (`"10"`, `".2"` → `"0.2"`).
 */

export interface PostalAddress {
  line1: string;
  line2: string | null;
  city: string;
  state: string;
  zip: string;
  country: string;
}

export interface DatePeriod {
  /** DTP01: `291` plan, `346` plan begin, `347` plan end, `356`/`357` eligibility begin/end, ... */
  qualifier: string;
  format: 'D8' | 'RD8';
  from: string;
  /** Equal to `from` for a single date (D8). */
  to: string;
}

export type Nm1 = ReturnType<typeof readNm1>;
export type Demographics = ReturnType<typeof readDmg>;
export type Reference = ReturnType<typeof readRef>;
export type RequestValidation = ReturnType<typeof readAaa>;
export type Trace = ReturnType<typeof readTrn>;

export function readNm1(s: Segment) {
  return {
    /** NM101: `PR` payer, `1P` provider, `IL` subscriber, `03` dependent, ... */
    entity: s.required(1),
    /** NM102: `1` person, `2` organisation. */
    entityType: s.el(2),
    /** NM103: last name or organisation name. */
    lastName: s.el(3),
    firstName: s.el(4),
    middleName: s.el(5),
    suffix: s.el(7),
    /** NM108: `PI` payer id, `XX` NPI, `MI` member id, ... */
    idQualifier: s.el(8),
    id: s.el(9),
  };
}

export function readN3(s: Segment): Pick<PostalAddress, 'line1' | 'line2'> {
  return { line1: s.el(1), line2: s.el(2) || null };
}

export function readN4(s: Segment): Pick<PostalAddress, 'city' | 'state' | 'zip' | 'country'> {
  return { city: s.el(1), state: s.el(2), zip: s.el(3), country: s.el(4) };
}

export function readDmg(s: Segment) {
  const format = s.el(1);
  const value = s.el(2);
  if (value && format !== 'D8') throw s.error(`DMG01 ${JSON.stringify(format)}: expected D8`);
  return {
    dob: value ? readDate(s, 2, value) : null,
    /** DMG03: `M`, `F`, `U` or ''. */
    sex: s.el(3),
  };
}

export function readRef(s: Segment) {
  return { qualifier: s.required(1), value: s.el(2), description: s.el(3) };
}

export function readDtp(s: Segment): DatePeriod {
  const qualifier = s.required(1);
  const format = s.required(2);
  const value = s.required(3);
  if (format === 'D8') {
    const date = readDate(s, 3, value);
    return { qualifier, format, from: date, to: date };
  }
  if (format === 'RD8') {
    const match = /^(\d{8})-(\d{8})$/.exec(value);
    if (!match) throw s.error(`DTP03 ${JSON.stringify(value)} is not a CCYYMMDD-CCYYMMDD range`);
    const from = readDate(s, 3, match[1]);
    const to = readDate(s, 3, match[2]);
    if (to < from) throw s.error(`DTP03 ${JSON.stringify(value)} ends before it begins`);
    return { qualifier, format, from, to };
  }
  throw s.error(`DTP02 ${JSON.stringify(format)}: expected D8 or RD8`);
}

export function readAaa(s: Segment, loop: string) {
  return {
    /** AAA01: `Y` the request was valid (but could not be answered), `N` it was not. */
    valid: s.el(1) === 'Y',
    /** AAA03: the reason code (`42`, `75`, ...). */
    reason: s.required(3),
    /** AAA04: `C`, `N`, `R`, `W`, `X`, `Y`. */
    followUp: s.el(4),
    /** The loop it came in: `2000A`, `2100A`, `2100B`, `2100C`, `2110C`, ... */
    loop,
  };
}

export function readTrn(s: Segment) {
  return {
    /** TRN01: `1` current transaction (the payer's own), `2` referenced (ours, echoed). */
    type: s.required(1),
    trace: s.required(2),
    originator: s.el(3),
    secondary: s.el(4),
  };
}

/** A CCYYMMDD element as `YYYY-MM-DD`, refusing dates that do not exist (20260230). */
export function readDate(s: Segment, n: number, value: string = s.el(n)): string {
  const match = /^(\d{4})(\d{2})(\d{2})$/.exec(value);
  const iso = match ? `${match[1]}-${match[2]}-${match[3]}` : '';
  const parsed = match ? new Date(`${iso}T00:00:00Z`) : null;
  if (!parsed || Number.isNaN(parsed.getTime()) || isoDate(parsed) !== iso) {
    throw s.error(`${s.id}${pad2(n)} ${JSON.stringify(value)} is not a CCYYMMDD date`);
  }
  return iso;
}

/** An X12 decimal (R type: `10`, `10.5`, `.5`, `-3`) as plain decimal text, or null when empty. */
export function readDecimal(s: Segment, n: number): string | null {
  const value = s.el(n);
  if (value === '') return null;
  if (!/^-?(\d+\.?\d*|\.\d+)$/.test(value)) {
    throw s.error(`${s.id}${pad2(n)} ${JSON.stringify(value)} is not a number`);
  }
  const negative = value.startsWith('-');
  let text = negative ? value.slice(1) : value;
  if (text.startsWith('.')) text = `0${text}`;
  if (text.endsWith('.')) text = text.slice(0, -1);
  text = text.replace(/^0+(?=\d)/, '');
  return negative ? `-${text}` : text;
}
