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
 * The `pg` settings every connection of the service gets (the driver's pool, migrations).
 *
 * Direct to PostgreSQL (`DATABASE_POOLER=none`): `statement_timeout` is a startup parameter, so it
 * holds for every statement of the session.
 *
 * Behind PgBouncer in transaction mode (`DATABASE_POOLER=transaction`, docs/architecture.md, Behind a connection pooler) a client owns
 * a server connection for one transaction only: PgBouncer refuses startup parameters it does not
 * track (`unsupported startup parameter: statement_timeout`), and a named prepared statement
 * parsed on one server connection is missing (or `already exists`) on the next. So:
 * - no startup parameter but `application_name` (which PgBouncer tracks);
 * - `PoolerClient` drops the `name` of every query config (pg-pool.ts' `prepared`, the intake,
 *   audit and body reads, the queue's statements): each is parsed with the unnamed statement;
 * - the timeout is kept in two ways. Server-side, per transaction: `PoolerClient` sends every
 *   `BEGIN` / `START TRANSACTION` (TypeORM's `transaction()`, query runners) together with
 *   `SET LOCAL statement_timeout` in the same round trip, so PostgreSQL still cancels a stuck
 *   statement in a transaction and frees its locks and its server connection. Client-side, every
 *   query (single statements outside a transaction included, which SET LOCAL cannot reach without
 *   three more round trips each) has node-postgres' `query_timeout`: the caller fails after
 *   POOLER_QUERY_TIMEOUT_MS and the connection is dropped, so nothing hangs. A single
 *   statement is cancelled server-side only by a role or database default
 *   (`ALTER ROLE … SET statement_timeout`, docs/architecture.md), which the operator may add.
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
