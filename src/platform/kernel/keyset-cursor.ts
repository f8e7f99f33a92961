import { formatInstant } from './time';
import { ValidationFailed } from './errors';

/**
 * Opaque keyset cursors (keyset-paginator.ts): base64url of the last row's timestamp and id. The
 * timestamp is exact UTC text with up to six decimals: PostgreSQL keeps microseconds, and a
 * millisecond Date would skip rows created in the same millisecond as a page's last row.
 */
interface KeysetPosition {
  /** UTC ISO 8601 text with 0–6 decimals and `Z`, or a Date (millisecond precision only). */
  createdAt: string | Date;
  id: string;
}

/** A decoded cursor: `createdAt` is always the exact text, ready to cast to `timestamptz`. */
interface ExactKeysetPosition {
  createdAt: string;
  id: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,6})?Z$/;

/**
 * A real instant in the exact text form: refuses 2026-02-30 and the like (which Date rolls over)
 * and year 0000 (which PostgreSQL refuses, so it would reach the database as a 500).
 */
function isExactTimestamp(text: string): boolean {
  if (!ISO.test(text) || text.startsWith('0000')) return false;
  const date = new Date(text);
  return (
    !Number.isNaN(date.getTime()) && formatInstant(date, 'utc').slice(0, 19) === text.slice(0, 19)
  );
}

export function encodeCursor(position: KeysetPosition): string {
  const ts =
    position.createdAt instanceof Date
      ? formatInstant(position.createdAt, 'utc')
      : position.createdAt;
  if (!isExactTimestamp(ts) || !UUID.test(position.id)) {
    throw new RangeError('A keyset position needs a UTC timestamp and a lowercase uuid.');
  }
  return Buffer.from(`${ts}|${position.id}`, 'utf8').toString('base64url');
}

/** The position a cursor names; a field error on `field` when it is not one of ours. */
export function decodeCursor(cursor: string, field = 'cursor'): ExactKeysetPosition {
  const invalid = () => ValidationFailed.field(field, 'Invalid cursor.');
  if (!/^[A-Za-z0-9_-]{1,200}$/.test(cursor)) throw invalid();
  const [ts, id, ...rest] = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  if (rest.length > 0 || !ts || !id || !isExactTimestamp(ts) || !UUID.test(id)) throw invalid();
  return { createdAt: ts, id };
}

/** Escapes `%`, `_` and `\` for a LIKE pattern used with `ESCAPE '\'`. */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}
