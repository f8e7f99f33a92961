import { Client } from 'pg';
import { DataSource, DataSourceOptions } from 'typeorm';
import { MigrationExecutor } from 'typeorm/migration/MigrationExecutor';
import { AppConfig } from '@/platform/config/env';
import { migrations } from './migrations';
import { connectionSettings } from './pooler';

type DatabaseConfig = Pick<AppConfig, 'databaseUrl' | 'databasePoolSize' | 'databasePooler'>;

/**
 * One builder for the app and the migration CLI (ormconfig.ts), so both see the same schema.
 * `entities`: the application's (src/entities.ts), given by whoever composes the application;
 * migrations alone need none.
 */
export function buildDataSourceOptions(
  config: DatabaseConfig,
  entities: NonNullable<DataSourceOptions['entities']> = [],
): DataSourceOptions {
  return {
    type: 'postgres',
    url: config.databaseUrl,
    entities,
    migrations,
    migrationsTableName: 'typeorm_migrations',
    synchronize: false,
    migrationsRun: false,
    // Off: TypeORM would print failed queries with their parameters, which hold patient data.
    logging: false,
    extra: {
      max: config.databasePoolSize,
      connectionTimeoutMillis: 5_000,
      // Fail fast instead of hanging when PostgreSQL is unreachable or a query is stuck: the
      // statement timeout, as a startup parameter or, behind a pooler, per transaction (pooler.ts).
      ...connectionSettings(config.databasePooler),
    },
  };
}

/**
 * Applies pending migrations under an advisory lock so several processes can start at once.
 * `pooled`: the connection goes through a transaction-mode pooler (no DATABASE_MIGRATION_URL),
 * where a session lock could be taken on one server connection and released on another (and then
 * held forever): the migrations then run in one transaction holding a transaction-level lock.
 */
async function runMigrations(dataSource: DataSource, pooled = false): Promise<number> {
  const runner = dataSource.createQueryRunner();
  await runner.connect();
  if (pooled) {
    try {
      await runner.startTransaction();
      await runner.query('SELECT pg_advisory_xact_lock(7431001)');
      const applied = await new MigrationExecutor(dataSource, runner).executePendingMigrations();
      await runner.commitTransaction();
      return applied.length;
    } catch (e) {
      if (runner.isTransactionActive) await runner.rollbackTransaction().catch(() => undefined);
      throw e;
    } finally {
      await runner.release();
    }
  }
  try {
    await runner.query('SELECT pg_advisory_lock(7431001)');
    const applied = await dataSource.runMigrations({ transaction: 'each' });
    return applied.length;
  } finally {
    await runner.query('SELECT pg_advisory_unlock(7431001)').catch(() => undefined);
    await runner.release();
  }
}

/**
 * Runs pending migrations with a short-lived connection of its own (start-up, CLI, tests), on
 * DATABASE_MIGRATION_URL when given (direct to PostgreSQL while the service goes through a pooler).
 */
export async function migrateDatabase(
  config: DatabaseConfig & Partial<Pick<AppConfig, 'databaseMigrationUrl'>>,
): Promise<number> {
  const url = config.databaseMigrationUrl ?? config.databaseUrl;
  // Through the pooler only when no direct URL was given.
  const pooler = url === config.databaseUrl ? config.databasePooler : 'none';
  await ensureDatabase(url);
  const dataSource = new DataSource({
    ...buildDataSourceOptions({ ...config, databaseUrl: url }),
    // No statement timeout: a migration may rewrite a large table.
    extra: { max: 2 },
  });
  await dataSource.initialize();
  try {
    return await runMigrations(dataSource, pooler === 'transaction');
  } finally {
    await dataSource.destroy();
  }
}

/**
 * Creates the database named in the URL when it does not exist yet, so a fresh machine needs no
 * manual `createdb`. Needs a role allowed to create databases; otherwise the error says why.
 */
export async function ensureDatabase(url: string): Promise<void> {
  const name = decodeURIComponent(new URL(url).pathname.slice(1));
  const probe = new Client({ connectionString: url, connectionTimeoutMillis: 5_000 });
  try {
    await probe.connect();
    return;
  } catch (e) {
    if ((e as { code?: string }).code !== '3D000') throw e; // 3D000: database does not exist
  } finally {
    await probe.end().catch(() => undefined);
  }
  const adminUrl = new URL(url);
  adminUrl.pathname = '/postgres';
  const admin = new Client({
    connectionString: adminUrl.toString(),
    connectionTimeoutMillis: 5_000,
  });
  await admin.connect();
  try {
    await admin
      .query(`CREATE DATABASE "${name.replace(/"/g, '""')}"`)
      .catch((e: Error & { code?: string }) => {
        if (e.code !== '42P04') throw e; // 42P04: created meanwhile by another process
      });
  } finally {
    await admin.end();
  }
}
