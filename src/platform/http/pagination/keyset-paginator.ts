import type { DataSource } from 'typeorm';
import type { Tx } from '@/platform/db/database';
import { query, sql, type Sql } from '@/platform/db/sql';
import { decodeCursor, encodeCursor } from '@/platform/kernel/keyset-cursor';

/**
 * The one keyset paginator: newest first on `(created_at DESC, id DESC)`, or oldest first with
 * `ascending`. Give it the list's SELECT without ORDER BY or LIMIT; it adds the cursor condition,
 * order and limit, so each page is one index range scan (deep pages cost what the first does).
 * The cursor carries PostgreSQL's microsecond UTC text, never a JS Date (milliseconds would lose
 * rows created in the same millisecond). A malformed cursor is a 400 on `cursor`.
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
