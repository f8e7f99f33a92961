import type { DatabasePooler } from './database';
import { loadDatabaseSettings } from './database';
import { ConfigError, DEFAULT_DATABASE_URL } from './env';
import { type Env, envReaders } from './env-parts';

interface MigrationConfig {
  /** Where migrations run: DATABASE_MIGRATION_URL, else DATABASE_URL. */
  databaseUrl: string;
  databasePoolSize: number;
  databasePooler: DatabasePooler;
}

/**
 * The settings the migration CLI (ormconfig.ts, the Kubernetes migration Job) needs, and nothing
 * more: unlike loadConfig it asks for no application secret, so the Job is given the migration
 * credentials alone and the API and worker pods never see them (deploy/README.md).
 */
export function loadMigrationConfig(env: Env = process.env): MigrationConfig {
  const problems: string[] = [];
  const { int, url } = envReaders(env, problems);
  const appUrl = url('DATABASE_URL', DEFAULT_DATABASE_URL, ['postgres:', 'postgresql:']);
  const databasePoolSize = int('DATABASE_POOL_SIZE', 20, 1, 500);
  const { databasePooler, databaseMigrationUrl } = loadDatabaseSettings(env, appUrl, problems);
  if (problems.length > 0) throw new ConfigError(problems);
  // A DATABASE_MIGRATION_URL of its own is PostgreSQL itself, past the pooler.
  const direct = databaseMigrationUrl !== appUrl;
  return {
    databaseUrl: databaseMigrationUrl,
    databasePoolSize,
    databasePooler: direct ? 'none' : databasePooler,
  };
}
