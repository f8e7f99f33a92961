import { sql, type Sql } from '@/platform/db/sql';
import type { DbQueueSpec } from './db-queue-spec';

/**
 * The SQL a queue's lease columns (its due column, its attempt count, `lease_job`, `lease_owner`)
 * appear in when another repository's statement stores or settles one of the queue's rows:
 * DbQueue owns these columns, so a repository never names them itself. Each piece is a fragment
 * (src/platform/db/sql.ts) over the caller's own expressions, which may carry values.
 *
 *   sql`INSERT INTO claims (account_id, ..., ${q.sql.insertColumns})
 *       VALUES (${accountId}, ..., ${q.sql.dueValues(sql`now()`)})`
 */
export class QueueSql {
  /** The queue's columns an INSERT names, in the order `dueValues`/`leasedValues` answer them. */
  readonly insertColumns: Sql;
  /** The column answering a stored or leased row's attempt number. */
  readonly attempt: Sql;
  /** The column answering the run a stored row is leased to. */
  readonly leaseJob = sql.raw('lease_job');

  constructor(private readonly spec: DbQueueSpec) {
    this.insertColumns = sql.raw(
      `${spec.dueColumn}, ${spec.attemptsColumn}, lease_job, lease_owner`,
    );
    this.attempt = sql.raw(spec.attemptsColumn);
  }

  /** Values for `insertColumns`: due at `due` (NULL: no work), no lease. */
  dueValues(due: Sql): Sql {
    return sql`${due}, 0, NULL, NULL`;
  }

  /**
   * Values for `insertColumns`: leased to run `job` (text; when it is NULL, due now and not
   * leased) for `leaseMs` ms (text) by process `owner` (uuid): the first attempt of a row stored
   * by the process that runs it.
   */
  leasedValues(p: { job: Sql; leaseMs: Sql; owner: Sql }): Sql {
    return sql`CASE WHEN ${p.job} IS NULL THEN now()
              ELSE now() + (${p.leaseMs} || ' milliseconds')::interval END,
            CASE WHEN ${p.job} IS NULL THEN 0 ELSE 1 END, ${p.job},
            CASE WHEN ${p.job} IS NULL THEN NULL ELSE ${p.owner}::uuid END`;
  }

  /**
   * SET assignments ending a run: the lease released, the next run due at `nextDue` (an SQL
   * expression; NULL: the row has no work left). Text, for the statements still numbering their
   * own parameters (DbQueue's, the webhook deliveries' settling).
   */
  releaseSets(nextDue = 'NULL'): string {
    return `lease_job = NULL, ${this.spec.dueColumn} = ${nextDue}`;
  }
}
