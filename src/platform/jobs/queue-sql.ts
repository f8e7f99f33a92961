import type { DbQueueSpec } from './db-queue-spec';

/**
 * The SQL a queue's lease columns (its due column, its attempt count, `lease_job`, `lease_owner`)
 * appear in when another repository's statement stores or settles one of the queue's rows:
 * DbQueue owns these columns, so a repository never names them itself. Each piece is an SQL
 * fragment over the caller's own parameters (`$n` expressions the caller passes in).
 *
 *   INSERT INTO claims (account_id, ..., ${q.sql.insertColumns})
 *   VALUES ($1, ..., ${q.sql.dueValues('now()')})
 */
export class QueueSql {
  constructor(private readonly spec: DbQueueSpec) {}

  /** The queue's columns an INSERT names, in the order `dueValues`/`leasedValues` answer them. */
  get insertColumns(): string {
    return `${this.spec.dueColumn}, ${this.spec.attemptsColumn}, lease_job, lease_owner`;
  }

  /** Values for `insertColumns`: due at `due` (an SQL expression; NULL: no work), no lease. */
  dueValues(due: string): string {
    return `${due}, 0, NULL, NULL`;
  }

  /**
   * Values for `insertColumns`: leased to run `job` (an SQL expression; when it is NULL, due now
   * and not leased) for `leaseMs` ms (an SQL text expression) by process `owner` (uuid): the
   * first attempt of a row stored by the process that runs it.
   */
  leasedValues(p: { job: string; leaseMs: string; owner: string }): string {
    return `CASE WHEN ${p.job} IS NULL THEN now()
              ELSE now() + (${p.leaseMs} || ' milliseconds')::interval END,
            CASE WHEN ${p.job} IS NULL THEN 0 ELSE 1 END, ${p.job},
            CASE WHEN ${p.job} IS NULL THEN NULL ELSE ${p.owner}::uuid END`;
  }

  /** The column answering a stored or leased row's attempt number. */
  get attempt(): string {
    return this.spec.attemptsColumn;
  }

  /** The column answering the run a stored row is leased to. */
  get leaseJob(): string {
    return 'lease_job';
  }

  /**
   * SET assignments ending a run: the lease released, the next run due at `nextDue` (an SQL
   * expression; NULL: the row has no work left).
   */
  releaseSets(nextDue = 'NULL'): string {
    return `lease_job = NULL, ${this.spec.dueColumn} = ${nextDue}`;
  }
}
