import 'reflect-metadata';
import { DataSource } from 'typeorm';
import { loadMigrationConfig } from './src/platform/config/migration';
import { buildDataSourceOptions } from './src/platform/db/data-source';
import { entities } from './src/entities';

// Used by the TypeORM CLI (npm run migration:*, the migration Job): the same options the
// application builds, on DATABASE_MIGRATION_URL (direct to PostgreSQL when the service goes
// through a pooler). It reads the database settings only, so the Job needs no other secret. The
// entities are there for `migration:generate`, which compares them with the schema.
export default new DataSource(buildDataSourceOptions(loadMigrationConfig(), entities));
