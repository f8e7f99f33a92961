import type { DataSource } from 'typeorm';
import { managerOf, type Tx } from '@/database/database';
import { queryPrepared } from '@/database/pg-pool';
import type { DbQueueSpec } from './db-queue-spec';

/**
 * The statements of a run's lease (DbQueue delegates to these, as to lease-recovery.ts): taking
 * it, extending it, ending it with the next due time, waking a parked row.
 */

/** `DbQueue.leaseReturning`'s statement: the row leased to `jobId` by `owner`, or no row. */
export async function leaseRow<T extends object>(
  db: DataSource,
  spec: DbQueueSpec,
  p: {
    id: string;
    jobId: string;
    owner: string | null;
    returning: string | null;
    extra: string | null;
  },
): Promise<(T & { attempt: number }) | null> {
  const { table, dueColumn, attemptsColumn, pending, leaseMs, leaseSets } = spec;
  const { rows } = await queryPrepared<T & { attempt: number }>(
    db,
    `WITH leased AS (
       UPDATE ${table}
       SET ${attemptsColumn} = ${attemptsColumn} + 1,
           ${dueColumn} = now() + ($3 || ' milliseconds')::interval,
           lease_job = $2, lease_owner = $4${leaseSets ? `, ${leaseSets}` : ''}
       WHERE id = $1 AND ${pending}
         AND (${dueColumn} IS NULL OR ${dueColumn} <= now() + interval '1 second' OR lease_job = $2)
       RETURNING ${attemptsColumn} AS attempt${p.returning ? `, ${p.returning}` : ''})
     SELECT leased.*${p.extra ? `, ${p.extra}` : ''} FROM leased`,
    [p.id, p.jobId, String(leaseMs), p.owner],
  );
  if (rows.length === 0) return null;
  return { ...rows[0], attempt: Number(rows[0].attempt) };
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
