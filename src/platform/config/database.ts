/**
 * docs/architecture.md, Behind a connection pooler: how the service reaches PostgreSQL through a connection pooler, parsed from the
 * environment by loadConfig (its fields are AppConfig's).
 */
export type DatabasePooler = 'none' | 'transaction';

export interface DatabaseSettings {
  /**
   * `DATABASE_POOLER`: `transaction` when DATABASE_URL is a pooler in transaction mode
   * (PgBouncer): no named prepared statements, no startup parameters; the statement timeout is
   * set per transaction instead (src/platform/db/pooler.ts).
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

/**
 * The processes `npm start` runs when WEB_CONCURRENCY is unset: one per core, less one when
 * PostgreSQL answers on this machine (DATABASE_URL names a loopback address, `localhost`, or a
 * Unix socket). Measured on two cores with PostgreSQL beside the service (bench/README.md,
 * scenario 7): a process per core read at 0.85× one process and accepted 833 POSTs/s against
 * 986 (0.60× and 730 against 955 a round earlier), since every search costs PostgreSQL CPU too;
 * the core left over is the database's. With PostgreSQL on other machines every core serves.
 */
export function defaultProcessCount(databaseUrl: string, cores: number): number {
  return databaseIsLocal(databaseUrl) ? Math.max(1, cores - 1) : Math.max(1, cores);
}

function databaseIsLocal(databaseUrl: string): boolean {
  let url: URL;
  try {
    url = new URL(databaseUrl);
  } catch {
    return false;
  }
  // libpq's `?host=/var/run/postgresql` (a socket directory) wins over the URL's host.
  const host = (url.searchParams.get('host') ?? url.hostname).replace(/^\[|\]$/g, '');
  return (
    host === '' ||
    host.startsWith('/') ||
    host === 'localhost' ||
    host === '::1' ||
    /^127\./.test(host)
  );
}
