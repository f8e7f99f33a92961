import { applyDecorators } from '@nestjs/common';
import { MSG } from '../../kernel/messages';
import { todayIso } from '../../kernel/time';
import { api, FieldOpts, presenceDecorators, rule, typeRule } from './base';
import { presentThen, REFUSE, withFastCheck } from './fast-path';

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A real calendar date in YYYY-MM-DD form (2023-02-30 is refused). */
export function isIsoDate(value: unknown): value is string {
  if (typeof value !== 'string') return false;
  const m = DATE.exec(value);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(y, mo - 1, d));
  return (
    date.getUTCFullYear() === y &&
    date.getUTCMonth() === mo - 1 &&
    date.getUTCDate() === d &&
    y >= 1
  );
}

/**
 * What a value in the YYYY-MM-DD form that names no day (1985-02-30) gets after the format
 * message: it is the right form, the day does not exist.
 */
export function impossibleDateMessages(value: unknown): readonly string[] {
  const text = typeof value === 'string' ? value : '';
  const m = DATE.exec(text);
  if (!m || isIsoDate(value)) return [];
  const [y, mo] = [Number(m[1]), Number(m[2])];
  if (mo < 1 || mo > 12) return [`${text} is not a date: there is no month ${m[2]}.`];
  if (y < 1) return [`${text} is not a date: years start at 0001.`];
  return [MSG.impossibleDate(text, new Date(Date.UTC(y, mo, 0)).getUTCDate())];
}

export interface DateOpts extends FieldOpts {
  notFuture?: boolean;
  min?: string;
}

export function DateField(opts: DateOpts = {}): PropertyDecorator {
  const decorators: PropertyDecorator[] = [
    ...presenceDecorators(opts),
    typeRule(isIsoDate, MSG.date, impossibleDateMessages),
  ];
  if (opts.notFuture) {
    decorators.push(
      rule('notFuture', (v) => isIsoDate(v) && v <= todayIso(), 'Date may not be in the future.'),
    );
  }
  if (opts.min) {
    const min = opts.min;
    decorators.push(
      rule('minDate', (v) => isIsoDate(v) && v >= min, `Date may not be before ${min}.`),
    );
  }
  decorators.push(api(opts, { type: String, format: 'date' }));
  // The fast path's check (fast-path.ts): the same rules.
  const fast = presentThen(opts, (value) =>
    isIsoDate(value) &&
    (!opts.notFuture || value <= todayIso()) &&
    (opts.min === undefined || value >= opts.min)
      ? value
      : REFUSE,
  );
  return applyDecorators(...withFastCheck(decorators, fast));
}

/**
 * RFC 3339 date-time: `2026-11-24T15:04:00-06:00`, seconds required, fraction optional (up to 9
 * digits), the offset required (`Z` or `±HH:MM`); `T` and `Z` in either case.
 */
const TIMESTAMP =
  /^(\d{4}-\d{2}-\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(?:([Zz])|([+-])(\d{2}):(\d{2}))$/;

export const TIMESTAMP_MESSAGE =
  'Enter a date and time with its offset (RFC 3339), e.g. 2026-11-24T15:04:00-06:00.';

/**
 * The instant an RFC 3339 date-time with its offset names, in milliseconds since the epoch
 * (digits past the millisecond dropped), or null when `value` is not one: a real calendar date,
 * hours 00–23, minutes and seconds 00–59, an offset of at most 23:59.
 */
export function timestampMs(value: unknown): number | null {
  if (typeof value !== 'string') return null;
  const m = TIMESTAMP.exec(value);
  if (!m || !isIsoDate(m[1])) return null;
  const [hour, minute, second] = [Number(m[2]), Number(m[3]), Number(m[4])];
  if (hour > 23 || minute > 59 || second > 59) return null;
  let offsetMinutes = 0;
  if (!m[6]) {
    const [oh, om] = [Number(m[8]), Number(m[9])];
    if (oh > 23 || om > 59) return null;
    offsetMinutes = (m[7] === '-' ? -1 : 1) * (oh * 60 + om);
  }
  const ms = (m[5] ?? '').padEnd(3, '0').slice(0, 3);
  // The ECMAScript date-time string format, which every engine reads the same way (years 0001–9999).
  const utc = Date.parse(`${m[1]}T${m[2]}:${m[3]}:${m[4]}.${ms}Z`);
  return Number.isNaN(utc) ? null : utc - offsetMinutes * 60_000;
}

/** The offset an RFC 3339 date-time is written with, in minutes east of UTC; null: not one. */
export function timestampOffsetMinutes(value: unknown): number | null {
  if (timestampMs(value) === null) return null;
  const m = TIMESTAMP.exec(value as string)!;
  return m[6] ? 0 : (m[7] === '-' ? -1 : 1) * (Number(m[8]) * 60 + Number(m[9]));
}

/** An RFC 3339 date-time with its offset (see timestampMs). */
export const isTimestamp = (value: unknown): value is string => timestampMs(value) !== null;

/**
 * A date-time with its offset (docs/api.md, Conventions: timestamps), RFC 3339. A date and time
 * without an offset names no instant (which time zone?) and is refused, as is anything else.
 * The value is kept as sent; PostgreSQL reads it as `timestamptz`.
 */
export function TimestampField(opts: FieldOpts = {}): PropertyDecorator {
  const decorators: PropertyDecorator[] = [
    ...presenceDecorators(opts),
    typeRule(isTimestamp, TIMESTAMP_MESSAGE),
    api(opts, { type: String, format: 'date-time' }),
  ];
  // The fast path's check (fast-path.ts): the same rule.
  const fast = presentThen(opts, (value) => (isTimestamp(value) ? value : REFUSE));
  return applyDecorators(...withFastCheck(decorators, fast));
}
