import { ValidationFailed } from './errors';

/**
 * Opaque cursors for keyset pagination over `(created_at DESC, id DESC)`: base64url of the last
 * row's timestamp (millisecond precision, as stored in `timestamptz(3)` columns) and id. The next
 * page continues strictly after that row, so no row is seen twice or skipped while others are
 * added, and the query walks an index instead of counting an OFFSET.
 */
export interface KeysetPosition {
  createdAt: Date;
  id: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

export function encodeCursor(position: KeysetPosition): string {
  return Buffer.from(`${position.createdAt.toISOString()}|${position.id}`, 'utf8').toString(
    'base64url',
  );
}

/** The position a cursor names; a field error on `field` when it is not one of ours. */
export function decodeCursor(cursor: string, field = 'cursor'): KeysetPosition {
  const invalid = () => ValidationFailed.field(field, 'Invalid cursor.');
  if (!/^[A-Za-z0-9_-]{1,200}$/.test(cursor)) throw invalid();
  const [ts, id, ...rest] = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  if (rest.length > 0 || !ts || !id || !ISO.test(ts) || !UUID.test(id)) throw invalid();
  const createdAt = new Date(ts);
  if (Number.isNaN(createdAt.getTime()) || createdAt.toISOString() !== ts) throw invalid();
  return { createdAt, id };
}

/** Escapes `%`, `_` and `\` for a LIKE pattern used with `ESCAPE '\'`. */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}
