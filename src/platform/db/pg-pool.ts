import { createHash } from 'node:crypto';
import type { Pool, QueryConfig, QueryResult, QueryResultRow } from 'pg';
import type { DataSource } from 'typeorm';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver';

/**
 * The driver's own `pg` pool (the same connections, the same `DATABASE_POOL_SIZE`), for the few
 * queries on the hot path where TypeORM's per-call query runner, its events and its result
 * mapping cost more than the query itself. Everything else goes through TypeORM.
 */
export function pgPool(db: DataSource): Pool {
  const pool = (db.driver as PostgresDriver).master as Pool | undefined;
  if (!pool) throw new Error('The data source is not initialized.');
  return pool;
}

/** Something that runs SQL and answers the rows: an EntityManager (in a transaction) or `pg`. */
export interface Queryable {
  query<T = unknown>(text: string, params?: unknown[]): Promise<T>;
}

const names = new Map<string, string>();
/** Statement texts named at most (a text built per call would otherwise grow the map). */
const MAX_NAMED = 200;

/**
 * The statement `text` as a named prepared statement, parsed once per connection; the name is
 * derived from the text. Behind a transaction-mode pooler, pooler.ts drops every name.
 */
export function prepared(text: string, values?: unknown[]): QueryConfig {
  let name = names.get(text);
  if (name === undefined && names.size < MAX_NAMED) {
    name = `s${createHash('sha1').update(text).digest('hex').slice(0, 24)}`;
    names.set(text, name);
  }
  return { name, text, values };
}

/** Runs `text` on the driver's pool as a prepared statement (`prepared`). */
export function queryPrepared<R extends QueryResultRow>(
  db: DataSource,
  text: string,
  values?: unknown[],
): Promise<QueryResult<R>> {
  return pgPool(db).query<R>(prepared(text, values));
}

/**
 * Runs statements on the driver's pool directly, as prepared statements, answering the rows as
 * `db.query` does.
 */
export function pgQueryable(db: DataSource): Queryable {
  return {
    query: async <T>(text: string, params?: unknown[]) =>
      (await queryPrepared(db, text, params)).rows as T,
  };
}
