import type { DataSource } from 'typeorm';
import { managerOf, type Tx } from '@/platform/db/database';
import { queryPrepared } from '@/platform/db/pg-pool';
import { GroupCommit } from '@/platform/kernel/group-commit';
import type { DbQueueSpec } from './db-queue-spec';

/**
 * The statements of a run's lease (DbQueue delegates to these, as to lease-recovery.ts): taking
 * it, extending it, ending it with the next due time, waking a parked row.
 */

type Leased<T> = (T & { attempt: number }) | null;

/**
 * `DbQueue.leaseReturning`'s statements, group-committed: the leases asked for while one statement
 * is in flight go together in the next (one statement and one commit for a burst of runs coming
 * due, e.g. thousands of delayed searches), a lone one at once. One group per select list.
 */
export class LeaseGroups {
  private readonly groups = new Map<
    string,
    GroupCommit<{ id: string; jobId: string }, Leased<object>>
  >();

  constructor(
    private readonly db: DataSource,
    private readonly spec: DbQueueSpec,
    private readonly owner: () => string | null,
  ) {}

  /** The row leased to `jobId`, with its attempt number and the `returning`/`extra` columns, or null. */
  lease<T extends object>(
    id: string,
    jobId: string,
    returning: string | null,
    extra: string | null,
  ): Promise<Leased<T>> {
    const key = `${returning ?? ''}\u0000${extra ?? ''}`;
    let group = this.groups.get(key);
    if (!group) {
      group = new GroupCommit<{ id: string; jobId: string }, Leased<object>>(
        (items) => leaseRows(this.db, this.spec, { items, owner: this.owner(), returning, extra }),
        { maxBatch: 64, maxInFlight: 4 },
      );
      this.groups.set(key, group);
    }
    return group.add({ id, jobId }).then((row) => (row ?? null) as Leased<T>);
  }
}

/**
 * The lease of many rows, each to its job (`items`), by `owner`: one answer per item, in order,
 * null where the row has no due work (finished, not due yet, or leased by another job that still
 * holds it). The ids and jobs come as one JSON recordset typed by the queue's own table
 * (`json_populate_recordset`), so each id has its column's type. Asked twice for one row in one
 * statement, it leases it to one of the two jobs only.
 */
export async function leaseRows<T extends object>(
  db: DataSource,
  spec: DbQueueSpec,
  p: {
    items: { id: string; jobId: string }[];
    owner: string | null;
    returning: string | null;
    extra: string | null;
  },
): Promise<Leased<T>[]> {
  const { table, dueColumn, attemptsColumn, pending, leaseMs, leaseSets } = spec;
  const { rows } = await queryPrepared<T & { attempt: number; run_id: string; run_job: string }>(
    db,
    `WITH runs AS (
       SELECT id AS run_id, lease_job AS run_job
       FROM json_populate_recordset(NULL::${table}, $1::json)),
     leased AS (
       UPDATE ${table}
       SET ${attemptsColumn} = ${attemptsColumn} + 1,
           ${dueColumn} = now() + ($2 || ' milliseconds')::interval,
           lease_job = runs.run_job, lease_owner = $3${leaseSets ? `, ${leaseSets}` : ''}
       FROM runs
       WHERE id = runs.run_id AND ${pending}
         AND (${dueColumn} IS NULL OR ${dueColumn} <= now() + interval '1 second'
              OR lease_job = runs.run_job)
       RETURNING runs.run_id, runs.run_job, ${attemptsColumn} AS attempt${p.returning ? `, ${p.returning}` : ''})
     SELECT leased.*${p.extra ? `, ${p.extra}` : ''} FROM leased`,
    [
      JSON.stringify(p.items.map((i) => ({ id: i.id, lease_job: i.jobId }))),
      String(leaseMs),
      p.owner,
    ],
  );
  const byRun = new Map<string, T & { attempt: number }>();
  for (const { run_id, run_job, ...row } of rows)
    byRun.set(`${run_id} ${run_job}`, { ...(row as unknown as T), attempt: Number(row.attempt) });
  return p.items.map((i) => byRun.get(`${i.id} ${i.jobId}`) ?? null);
}

/** `DbQueue.renew`'s statement: true when `jobId` still held the lease. */
export async function renewRow(
  db: DataSource,
  spec: DbQueueSpec,
  id: string,
  jobId: string,
): Promise<boolean> {
  const { table, dueColumn, pending, leaseMs } = spec;
  const { rows } = await queryPrepared(
    db,
    `UPDATE ${table} SET ${dueColumn} = now() + ($3 || ' milliseconds')::interval
     WHERE id = $1 AND lease_job = $2 AND ${pending} RETURNING id`,
    [id, jobId, String(leaseMs)],
  );
  return rows.length > 0;
}

/** `DbQueue.schedule`'s statement: due in `delayMs`, lease released, `columns` set. */
export async function scheduleRow(
  db: DataSource,
  spec: DbQueueSpec,
  id: string,
  delayMs: number,
  columns: Record<string, unknown>,
): Promise<void> {
  const names = Object.keys(columns);
  const sets = names.map((name, i) => `, ${name} = $${i + 3}`).join('');
  await db.query(
    `UPDATE ${spec.table}
     SET ${spec.dueColumn} = now() + ($2 || ' milliseconds')::interval, lease_job = NULL${sets}
     WHERE id = $1 AND ${spec.pending}`,
    [id, String(Math.round(delayMs)), ...names.map((n) => columns[n])],
  );
}

/** `DbQueue.wakeInTx`'s statement: true when the row was parked. */
export async function wakeRow(
  db: DataSource,
  spec: DbQueueSpec,
  tx: Tx,
  id: string,
): Promise<boolean> {
  const { table, dueColumn, pending } = spec;
  const rows: unknown[] = await managerOf(db, tx).query(
    `WITH woken AS (
       UPDATE ${table} SET ${dueColumn} = now(), lease_job = NULL
       WHERE id = $1 AND ${pending} AND ${dueColumn} = 'infinity' RETURNING id)
     SELECT id FROM woken`,
    [id],
  );
  return rows.length > 0;
}
