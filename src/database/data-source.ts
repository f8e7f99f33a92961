import { DataSource, DataSourceOptions } from 'typeorm';
import { AppConfig } from '@/config/env';
import { entities } from './entities';
import { migrations } from './migrations';

/** One builder for the app and the migration CLI (ormconfig.ts), so both see the same schema. */
export function buildDataSourceOptions(config: Pick<AppConfig, 'databaseUrl' | 'databasePoolSize'>): DataSourceOptions {
  return {
    type: 'postgres',
    url: config.databaseUrl,
    entities,
    migrations,
    migrationsTableName: 'typeorm_migrations',
    synchronize: false,
    migrationsRun: false,
    logging: ['error'],
    extra: {
      max: config.databasePoolSize,
      connectionTimeoutMillis: 5_000,
      // Fail fast instead of hanging when PostgreSQL is unreachable or a query is stuck.
      statement_timeout: 30_000,
      application_name: 'vision-eligibility',
    },
  };
}

/** Applies pending migrations under an advisory lock so several processes can start at once. */
export async function runMigrations(dataSource: DataSource): Promise<number> {
  const runner = dataSource.createQueryRunner();
  await runner.connect();
  try {
    await runner.query('SELECT pg_advisory_lock(7431001)');
    const applied = await dataSource.runMigrations({ transaction: 'each' });
    return applied.length;
  } finally {
    await runner.query('SELECT pg_advisory_unlock(7431001)').catch(() => undefined);
    await runner.release();
  }
}

/** Runs pending migrations with a short-lived connection of its own (start-up, CLI, tests). */
export async function migrateDatabase(config: Pick<AppConfig, 'databaseUrl' | 'databasePoolSize'>): Promise<number> {
  const dataSource = new DataSource({ ...buildDataSourceOptions(config), extra: { max: 2 } });
  await dataSource.initialize();
  try {
    return await runMigrations(dataSource);
  } finally {
    await dataSource.destroy();
  }
}
