import { Client, type ClientConfig } from 'pg';
import type { DatabasePooler } from '@/platform/config/database';

/** Longest a statement runs before PostgreSQL cancels it (fail fast instead of hanging). */
export const STATEMENT_TIMEOUT_MS = 30_000;
/**
 * Behind a pooler, how long a caller waits for any one query's answer before it fails (and its
 * connection is dropped): the server-side timeout plus a margin for the pooler's queue.
 */
const POOLER_QUERY_TIMEOUT_MS = STATEMENT_TIMEOUT_MS + 5_000;

/**
 * The `pg` settings of every connection (the driver's pool, migrations). Direct to PostgreSQL,
 * `statement_timeout` is a startup parameter. Behind PgBouncer in transaction mode
 * (docs/architecture.md, Behind a connection pooler) startup parameters other than
 * `application_name` are refused and named prepared statements do not survive a transaction, so
 * `PoolerClient` drops every query's `name`, sends `SET LOCAL statement_timeout` with each
 * `BEGIN` in the same round trip, and every query has node-postgres' `query_timeout`
 * (POOLER_QUERY_TIMEOUT_MS) so nothing hangs.
 */
export function connectionSettings(
  pooler: DatabasePooler,
  applicationName = 'vision-eligibility',
): Record<string, unknown> {
  if (pooler === 'transaction') {
    return {
      application_name: applicationName,
      query_timeout: POOLER_QUERY_TIMEOUT_MS,
      Client: PoolerClient,
    };
  }
  return { statement_timeout: STATEMENT_TIMEOUT_MS, application_name: applicationName };
}

const BEGIN = /^\s*(BEGIN|START\s+TRANSACTION)\b[^;]*;?\s*$/i;

/**
 * What a transaction-mode pooler can run instead of `query`: the statement without its name;
 * a transaction start followed by its statement timeout.
 */
export function forPooler(query: unknown): unknown {
  if (typeof query === 'string') {
    return BEGIN.test(query)
      ? `${query.replace(/;?\s*$/, '')}; SET LOCAL statement_timeout = ${STATEMENT_TIMEOUT_MS}`
      : query;
  }
  // Plain query configs only (`{ name, text, values }`); Submittables (cursors) pass unchanged.
  if (
    query !== null &&
    typeof query === 'object' &&
    Object.getPrototypeOf(query) === Object.prototype
  ) {
    const config = query as { name?: string; text?: string };
    if (config.name !== undefined) {
      const { name: _name, ...unnamed } = config;
      return unnamed;
    }
    if (typeof config.text === 'string' && BEGIN.test(config.text)) {
      return { ...config, text: forPooler(config.text) };
    }
  }
  return query;
}

/** node-postgres' Client for a transaction-mode pooler (`forPooler` on every query). */
export class PoolerClient extends Client {
  constructor(config?: string | ClientConfig) {
    super(config);
    const query = Client.prototype.query;
    const self = this as unknown as { query: (...args: unknown[]) => unknown };
    self.query = (...args: unknown[]): unknown => {
      args[0] = forPooler(args[0]);
      return Reflect.apply(query, this, args);
    };
  }
}
