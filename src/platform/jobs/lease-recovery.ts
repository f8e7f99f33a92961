import type { DataSource } from 'typeorm';
import { managerOf, transactionOf, type Tx } from '@/platform/db/database';
import type { DbQueueSpec } from './db-queue-spec';

/**
 * The sweeps that give a queue's rows back to the living (DbQueue delegates to these):
 * - rows whose run is overdue (a job lost with Redis, a lease that ran out);
 * - rows leased by a process that is no longer registered alive (ProcessRegistry: it stopped,
 *   its heartbeat lapsed, or its pid is gone from this host), at once: lease cleared, due now,
 *   the attempt given back.
 * Several processes may sweep at once: SKIP LOCKED hands each row to one of them. Both answer
 * the ids made due, for the caller to run or enqueue.
 */
export async function overdueRows(
  db: DataSource,
  spec: DbQueueSpec,
  graceSeconds: number,
  limit: number,
): Promise<string[]> {
  const { table, dueColumn, pending } = spec;
  // (A CTE, because TypeORM answers a bare UPDATE ... RETURNING as [rows, count].)
  const rows: { id: string }[] = await db.query(
    `WITH due AS (
       UPDATE ${table} SET ${dueColumn} = now(), lease_job = NULL
       WHERE id IN (
         SELECT id FROM ${table}
         WHERE ${pending} AND ${dueColumn} < now() - ($1 || ' milliseconds')::interval
         ORDER BY ${dueColumn} LIMIT $2 FOR UPDATE SKIP LOCKED)
       RETURNING id)
     SELECT id FROM due`,
    [String(Math.round(graceSeconds * 1000)), limit],
  );
  return rows.map((r) => String(r.id));
}

/**
 * Rows due within `withinMs` from now and not leased (nothing claimed: a run leases its row), with
 * the ms until each is due: for a process without Redis to start them on time.
 */
export async function rowsDueWithin(
  db: DataSource,
  spec: DbQueueSpec,
  withinMs: number,
  limit: number,
): Promise<{ id: string; delayMs: number }[]> {
  const { table, dueColumn, pending } = spec;
  const rows: { id: string; delay_ms: number }[] = await db.query(
    `SELECT id, greatest(0, extract(epoch FROM ${dueColumn} - now()) * 1000)::float8 AS delay_ms
     FROM ${table}
     WHERE ${pending} AND lease_job IS NULL
       AND ${dueColumn} <= now() + ($1 || ' milliseconds')::interval
     ORDER BY ${dueColumn} LIMIT $2`,
    [String(Math.round(withinMs)), limit],
  );
  return rows.map((r) => ({ id: String(r.id), delayMs: Math.round(Number(r.delay_ms)) }));
}

/**
 * Rows last leased by owners that are not alive: not in `service_processes` (deregistered, or
 * removed as dead), or in `deadOwners` (found dead just now, their rows about to be removed).
 * A row still leased is released (due now, the attempt given back); a row its owner had made due
 * later (a retry) keeps its time, since its Bull job may never have been added (a process killed
 * between the two); an overdue one is due now. Parked rows are left alone. Answers each row with
 * the ms until it is due.
 */
export async function rowsOfDeadOwners(
  db: DataSource,
  spec: DbQueueSpec,
  deadOwners: string[],
  limit: number,
): Promise<{ id: string; delayMs: number }[]> {
  const { table, dueColumn, attemptsColumn, pending } = spec;
  const rows: { id: string; delay_ms: number }[] = await db.query(
    `WITH released AS (
       UPDATE ${table}
       SET ${dueColumn} = CASE WHEN lease_job IS NOT NULL OR ${dueColumn} IS NULL
                                 OR ${dueColumn} <= now() THEN now() ELSE ${dueColumn} END,
           ${attemptsColumn} = CASE WHEN lease_job IS NOT NULL
                                    THEN greatest(${attemptsColumn} - 1, 0) ELSE ${attemptsColumn} END,
           lease_job = NULL, lease_owner = NULL
       WHERE id IN (
         SELECT t.id FROM ${table} t
         WHERE ${pending} AND t.lease_owner IS NOT NULL
           AND (t.${dueColumn} IS NULL OR t.${dueColumn} <> 'infinity')
           AND (t.lease_owner = ANY($1::uuid[])
                OR NOT EXISTS (SELECT 1 FROM service_processes p WHERE p.id = t.lease_owner))
         LIMIT $2 FOR UPDATE SKIP LOCKED)
       RETURNING id, greatest(0, extract(epoch FROM ${dueColumn} - now()) * 1000)::float8 AS delay_ms)
     SELECT id, delay_ms FROM released`,
    [deadOwners, limit],
  );
  return rows.map((r) => ({ id: String(r.id), delayMs: Math.round(Number(r.delay_ms)) }));
}

/**
 * `DbQueue.park`'s transaction: row `id`, still leased to `jobId`, becomes not due (`infinity`)
 * while `stillWaiting` says so (asked with the row locked), else due now; the attempt is given
 * back either way. 'lost' when the lease was not held.
 */
export async function parkRow(
  db: DataSource,
  spec: DbQueueSpec,
  id: string,
  jobId: string,
  columns: Record<string, unknown>,
  stillWaiting: (tx: Tx) => Promise<boolean>,
): Promise<'parked' | 'due' | 'lost'> {
  const { table, dueColumn, attemptsColumn, pending } = spec;
  const names = Object.keys(columns);
  const sets = names.map((name, i) => `, ${name} = $${i + 3}`).join('');
  return transactionOf(db, async (tx) => {
    const em = managerOf(db, tx);
    const held: unknown[] = await em.query(
      `SELECT id FROM ${table} WHERE id = $1 AND lease_job = $2 AND ${pending} FOR UPDATE`,
      [id, jobId],
    );
    if (held.length === 0) return 'lost' as const;
    const waits = await stillWaiting(tx);
    await em.query(
      `UPDATE ${table}
       SET ${dueColumn} = ${waits ? `'infinity'` : 'now()'}, lease_job = NULL,
           ${attemptsColumn} = greatest(${attemptsColumn} - 1, 0)${sets}
       WHERE id = $1 AND lease_job = $2`,
      [id, jobId, ...names.map((n) => columns[n])],
    );
    return waits ? ('parked' as const) : ('due' as const);
  });
}

/** Row `id`'s lease by `jobId` given back: due now, the attempt returned (`DbQueue.handBack`). */
export async function giveBackRow(
  db: DataSource,
  spec: DbQueueSpec,
  id: string,
  jobId: string,
): Promise<void> {
  const { table, dueColumn, attemptsColumn, pending } = spec;
  await db.query(
    `UPDATE ${table}
     SET ${dueColumn} = now(), lease_job = NULL, ${attemptsColumn} = greatest(${attemptsColumn} - 1, 0)
     WHERE id = $1 AND lease_job = $2 AND ${pending}`,
    [id, jobId],
  );
}
