import type { DataSource, EntityManager } from 'typeorm';
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
 * Rows leased by owners that are not alive: not in `service_processes` (deregistered, or removed
 * as dead), or in `deadOwners` (found dead just now, their rows about to be removed).
 */
export async function rowsOfDeadOwners(
  db: DataSource,
  spec: DbQueueSpec,
  deadOwners: string[],
  limit: number,
): Promise<string[]> {
  const { table, dueColumn, attemptsColumn, pending } = spec;
  const rows: { id: string }[] = await db.query(
    `WITH released AS (
       UPDATE ${table}
       SET ${dueColumn} = now(), lease_job = NULL, lease_owner = NULL,
           ${attemptsColumn} = greatest(${attemptsColumn} - 1, 0)
       WHERE id IN (
         SELECT t.id FROM ${table} t
         WHERE ${pending} AND t.lease_job IS NOT NULL AND t.lease_owner IS NOT NULL
           AND (t.lease_owner = ANY($1::uuid[])
                OR NOT EXISTS (SELECT 1 FROM service_processes p WHERE p.id = t.lease_owner))
         LIMIT $2 FOR UPDATE SKIP LOCKED)
       RETURNING id)
     SELECT id FROM released`,
    [deadOwners, limit],
  );
  return rows.map((r) => String(r.id));
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
  stillWaiting: (manager: EntityManager) => Promise<boolean>,
): Promise<'parked' | 'due' | 'lost'> {
  const { table, dueColumn, attemptsColumn, pending } = spec;
  const names = Object.keys(columns);
  const sets = names.map((name, i) => `, ${name} = $${i + 3}`).join('');
  return db.transaction(async (em) => {
    const held: unknown[] = await em.query(
      `SELECT id FROM ${table} WHERE id = $1 AND lease_job = $2 AND ${pending} FOR UPDATE`,
      [id, jobId],
    );
    if (held.length === 0) return 'lost' as const;
    const waits = await stillWaiting(em);
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
