/**
 * CONTRACT §19: how the service reaches PostgreSQL through a connection pooler, parsed from the
 * environment by loadConfig (its fields are AppConfig's).
 */
export type DatabasePooler = 'none' | 'transaction';

export interface DatabaseSettings {
  /**
   * `DATABASE_POOLER`: `transaction` when DATABASE_URL is a pooler in transaction mode
   * (PgBouncer): no named prepared statements, no startup parameters; the statement timeout is
   * set per transaction instead (src/database/pooler.ts).
   */
  databasePooler: DatabasePooler;
  /** `DATABASE_MIGRATION_URL`: a direct connection for migrations (default DATABASE_URL). */
  databaseMigrationUrl: string;
}

type Env = Record<string, string | undefined>;

export function loadDatabaseSettings(
  env: Env,
  databaseUrl: string,
  problems: string[],
): DatabaseSettings {
  const pooler = env.DATABASE_POOLER?.trim() || 'none';
  if (pooler !== 'none' && pooler !== 'transaction') {
    problems.push(`DATABASE_POOLER: must be none or transaction (got "${pooler}")`);
  }
  const migrationUrl = env.DATABASE_MIGRATION_URL?.trim() || databaseUrl;
  let protocol = '';
  try {
    protocol = new URL(migrationUrl).protocol;
  } catch {
    problems.push(`DATABASE_MIGRATION_URL: must be a URL (got "${migrationUrl}")`);
  }
  if (protocol && protocol !== 'postgres:' && protocol !== 'postgresql:') {
    problems.push(`DATABASE_MIGRATION_URL: must use postgres: or postgresql: (got "${protocol}")`);
  }
  return {
    databasePooler: pooler === 'transaction' ? 'transaction' : 'none',
    databaseMigrationUrl: migrationUrl,
  };
}
