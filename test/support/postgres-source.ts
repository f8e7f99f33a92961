import { DataSource } from 'typeorm';
import { loadConfig } from '@/platform/config/env';
import { buildDataSourceOptions } from '@/platform/db/data-source';

/**
 * A data source on the server's `postgres` database, with the migration role, no entities and
 * `poolSize` connections, built as the app builds its own (`env` adds to process.env): for specs
 * of the database layer that need no table. The caller initializes and destroys it.
 */
export function postgresDataSource(poolSize: number, env: NodeJS.ProcessEnv = {}): DataSource {
  const config = loadConfig({ ...process.env, ...env });
  const url = new URL(config.databaseMigrationUrl);
  url.pathname = '/postgres';
  return new DataSource({
    ...buildDataSourceOptions({
      ...config,
      databaseUrl: url.toString(),
      databasePoolSize: poolSize,
    }),
    entities: [],
    migrations: [],
  });
}
