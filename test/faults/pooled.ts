import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type PgCluster, ROOT } from './infra';

/** A scenario's database reached through PgBouncer in transaction mode (docs/architecture.md, Behind a connection pooler). */
export interface PooledDatabase {
  /** The scenario's name (its database is `faults_<name>`). */
  name: string;
  /** The service's settings: DATABASE_URL through PgBouncer, migrations direct. */
  env: Record<string, string>;
  /** PgBouncer's port, for the report. */
  port: number;
}

const SCRIPT = join(ROOT, 'scripts', 'pgbouncer.sh');

/**
 * Runs `scenario` with Debian's PgBouncer (scripts/pgbouncer.sh: transaction pooling, stock
 * settings plus `ignore_startup_parameters = extra_float_digits`) in front of the suite's
 * PostgreSQL cluster, and stops it after. The service gets DATABASE_POOLER=transaction and
 * migrates on DATABASE_MIGRATION_URL (direct), as a deployment behind PgBouncer would.
 */
export async function withPgBouncer<T>(
  pg: PgCluster,
  name: string,
  scenario: (db: PooledDatabase) => Promise<T>,
): Promise<T> {
  // Its own folder under /tmp: PgBouncer runs as `postgres` when the suite runs as root.
  const dir = mkdtempSync(join(tmpdir(), 'vision-faults-pgbouncer-'));
  const env = {
    ...process.env,
    PGBOUNCER_DIR: dir,
    PGBOUNCER_SERVER: `host=127.0.0.1 port=${pg.port}`,
  };
  const out = execFileSync('bash', [SCRIPT, 'start'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  const port = Number(out.toString().trim().split('\n').pop());
  try {
    return await scenario({
      name,
      port,
      env: {
        DATABASE_URL: `postgres://postgres@127.0.0.1:${port}/faults_${name}`,
        DATABASE_MIGRATION_URL: pg.url(`faults_${name}`),
        DATABASE_POOLER: 'transaction',
      },
    });
  } finally {
    try {
      execFileSync('bash', [SCRIPT, 'stop'], { env, stdio: 'ignore' });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
}
