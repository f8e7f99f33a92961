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
