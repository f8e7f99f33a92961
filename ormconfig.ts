import 'reflect-metadata';
import { DataSource } from 'typeorm';
import { loadConfig } from './src/config/env';
import { buildDataSourceOptions } from './src/database/data-source';

// Used by the TypeORM CLI (npm run migration:*): the same options the application builds, on
// DATABASE_MIGRATION_URL (direct to PostgreSQL when the service goes through a pooler).
const config = loadConfig();
const direct = config.databaseMigrationUrl !== config.databaseUrl;
export default new DataSource(
  buildDataSourceOptions({
    ...config,
    databaseUrl: config.databaseMigrationUrl,
    databasePooler: direct ? 'none' : config.databasePooler,
  }),
);
