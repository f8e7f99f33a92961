import type { Env } from './env-parts';

/** docs/architecture.md, Behind a connection pooler. */
export type DatabasePooler = 'none' | 'transaction';

/**
 * README.md, Quick start: the embedded PostgreSQL (npm binaries, data under var/postgres).
 * `asked`: DATABASE_URL=embedded. `fallback`: DATABASE_URL unset outside production, so the
 * embedded server runs when nothing answers on 127.0.0.1:5432 (src/local-services.ts decides
 * at start). `no`: a configured DATABASE_URL, which never falls back (nor does production).
 */
export type EmbeddedDatabase = 'asked' | 'fallback' | 'no';
const EMBEDDED_DATABASE_URL = 'embedded';

export interface DatabaseSettings {
  /**
   * `DATABASE_POOLER`: `transaction` when DATABASE_URL is a pooler in transaction mode
   * (PgBouncer): no named prepared statements, no startup parameters; the statement timeout is
   * set per transaction instead (src/platform/db/pooler.ts).
   */
  databasePooler: DatabasePooler;
  /** `DATABASE_MIGRATION_URL`: a direct connection for migrations (default DATABASE_URL). */
  databaseMigrationUrl: string;
  /**
   * Whether `npm start`, the CLI and `npm test` run on the embedded PostgreSQL. Until the
   * choice is made, databaseUrl is the default URL; once made, DATABASE_URL names the server.
   */
  embeddedDatabase: EmbeddedDatabase;
}

export function loadDatabaseSettings(
  env: Env,
  databaseUrl: string,
  problems: string[],
  isProduction = false,
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
    embeddedDatabase: embeddedDatabaseChoice(env, isProduction),
  };
}

/**
 * DATABASE_URL as loadConfig reads it: a postgres URL, or `embedded`, which stands for the
 * default URL until the embedded server runs and DATABASE_URL names it (src/local-services.ts).
 * SECURITY.md: production refuses `embedded`, whose service runs as the database superuser.
 */
export function databaseUrlSetting(
  env: Env,
  isProduction: boolean,
  url: (name: string, fallback: string, protocols: string[]) => string,
  fallback: string,
  problems: string[],
): string {
  if (embeddedDatabaseChoice(env, isProduction) === 'asked') {
    if (isProduction) {
      problems.push(
        'DATABASE_URL: "embedded" is refused when NODE_ENV=production (the service would run as the database superuser); name a PostgreSQL server',
      );
    }
    return fallback;
  }
  return url('DATABASE_URL', fallback, ['postgres:', 'postgresql:']);
}

export function embeddedDatabaseChoice(env: Env, isProduction: boolean): EmbeddedDatabase {
  const raw = env.DATABASE_URL?.trim() ?? '';
  if (raw === EMBEDDED_DATABASE_URL) return 'asked';
  return raw === '' && !isProduction ? 'fallback' : 'no';
}

/**
 * Names the database the choice led to in this process's environment, where everything after
 * it reads it: the Nest configuration, and the cluster's processes, which inherit it.
 */
export function useDatabaseUrl(url: string): void {
  process.env.DATABASE_URL = url;
}

/**
 * The processes `npm start` runs when WEB_CONCURRENCY is unset: one per core, less one when
 * PostgreSQL is on this machine, since every search costs it CPU too (bench/README.md, scenario 7:
 * a process per core was slower than one).
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
