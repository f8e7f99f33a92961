import type { DataSource } from 'typeorm';
import type { Tx } from '@/platform/db/database';
import { query, sql, type Sql } from '@/platform/db/sql';
import { decodeCursor, encodeCursor } from '@/platform/kernel/keyset-cursor';

/**
 * The one keyset paginator of the service: newest first, on `(created_at DESC, id DESC)`; or, for
 * a list in time order (the appointments worklist, by `starts_at`), oldest first with `ascending`.
 *
 * Give it the list's SELECT (its own conditions: account, filters; no ORDER BY or LIMIT); it
 * adds the cursor condition, the order and the limit, and answers `{ result, next_cursor }`.
 * PostgreSQL flattens the SELECT into the page's statement, so each page is one index range scan
 * starting right after the cursor's row and deep pages cost what the first one does; an index
 * ending in `(created_at DESC, id DESC)` after the equality columns makes that so.
 *
 *   const select = sql`SELECT ${entityColumns(db, Delivery, 'd')} FROM webhook_deliveries d
 *                      WHERE d.webhook_id = ${webhookId}`;
 *   const page = await keysetPage<Delivery>(db, select, { limit, cursor });
 *
 * `keysetSql` is the page's statement alone, for a caller that wants it before it runs (EXPLAIN).
 *
 * Exactness: the next cursor carries the last row's `created_at` as PostgreSQL's own UTC text
 * with microseconds (`to_char(... 'US')`), never a JS Date (milliseconds). With a Date, a column
 * of microsecond precision would lose the rows created in the same millisecond as a page's last
 * row. Rows with equal timestamps are ordered by id, so none is skipped or repeated.
 * A malformed cursor is a 400 field error on `cursor` (or `cursorField`).
 */

export interface KeysetPageRequest {
  /** Rows per page (the caller validates its bounds). */
  limit: number;
  /** `next_cursor` of the previous page; absent or empty for the first page. */
  cursor?: string | null;
  /** The field a bad cursor is reported on (default `cursor`). */
  cursorField?: string;
}

export interface KeysetPage<T> {
  result: T[];
  /** Pass as `cursor` for the next page; null on the last page. */
  next_cursor: string | null;
}

interface KeysetColumns {
  /** The SELECT's column of the creation time (default `createdAt`). */
  createdAt?: string;
  /** The SELECT's column of the uuid key (default `id`). */
  id?: string;
  /**
   * Oldest first, on `(<createdAt> ASC, id ASC)` (default false: newest first). The index then
   * ends in `(<createdAt>, id)` after the equality columns.
   */
  ascending?: boolean;
}

const TS_ALIAS = 'keyset_created_at' as const;
const ID_ALIAS = 'keyset_id' as const;
// UTC text with six decimals, independent of the session's TimeZone and DateStyle.
const EXACT_UTC = `'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'`;

/** The statement of one page of `select`: one row more than `limit`, with the cursor's columns. */
export function keysetSql(
  select: Sql,
  request: KeysetPageRequest,
  columns: KeysetColumns = {},
): Sql {
  const createdAt = sql.raw(`k."${columns.createdAt ?? 'createdAt'}"`);
  const id = sql.raw(`k."${columns.id ?? 'id'}"`);
  const order = sql.raw(columns.ascending ? 'ASC' : 'DESC');
  let after = sql.empty;
  if (request.cursor) {
    const position = decodeCursor(request.cursor, request.cursorField);
    // A row comparison, so PostgreSQL turns it into one index range condition.
    after = sql`WHERE (${createdAt}, ${id}) ${sql.raw(columns.ascending ? '>' : '<')}
      (${position.createdAt}::timestamptz, ${position.id}::uuid)`;
  }
  return sql`SELECT k.*, to_char(${createdAt} AT TIME ZONE 'UTC', ${sql.raw(EXACT_UTC)}) AS ${sql.raw(TS_ALIAS)},
      ${id}::text AS ${sql.raw(ID_ALIAS)}
    FROM (${select}) k ${after}
    ORDER BY ${createdAt} ${order}, ${id} ${order} LIMIT ${request.limit + 1}`;
}

/** One page of `select` (in `tx` when given), and the cursor of the next. */
export async function keysetPage<R>(
  db: DataSource,
  select: Sql,
  request: KeysetPageRequest,
  columns?: KeysetColumns,
  tx?: Tx,
): Promise<KeysetPage<R>> {
  const rows = await query<R & Record<typeof TS_ALIAS | typeof ID_ALIAS, string>>(
    db,
    keysetSql(select, request, columns),
    tx,
  );
  const more = rows.length > request.limit;
  const last = more ? rows[request.limit - 1] : undefined;
  return {
    result: rows
      .slice(0, request.limit)
      .map(({ [TS_ALIAS]: _ts, [ID_ALIAS]: _id, ...row }) => row as R),
    next_cursor: last ? encodeCursor({ createdAt: last[TS_ALIAS], id: last[ID_ALIAS] }) : null,
  };
}
