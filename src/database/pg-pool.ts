import type { Pool } from 'pg';
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

/** Runs statements on the driver's pool directly, answering the rows as `db.query` does. */
export function pgQueryable(db: DataSource): Queryable {
  return {
    query: async <T>(text: string, params?: unknown[]) =>
      (await pgPool(db).query(text, params)).rows as T,
  };
}
