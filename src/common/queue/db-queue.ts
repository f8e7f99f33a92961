import { Logger } from '@nestjs/common';
import type { Queue } from 'bull';
import type { DataSource, EntityManager } from 'typeorm';
import { withTimeout } from '@/common/timeout';
import { queryPrepared } from '@/database/pg-pool';
import type { LocalLane } from './local-lane';

/** Every database-scheduled job carries the id of its row, nothing else: the row is the record. */
export interface DbJobData {
  id: string;
}

/** Where a queue's work lives: one row per unit of work, with its due time and attempt count. */
export interface DbQueueSpec {
  /** Bull queue name. */
  name: string;
  /** Bull job name (also the prefix of job ids). */
  job: string;
  table: string;
  /** timestamptz column: when the next run is due (or, while a run holds the lease, its end). */
  dueColumn: string;
  /** integer column counted up by each lease. */
  attemptsColumn: string;
  /** SQL condition of the rows that still have work to do, e.g. `status = 'pending'`. */
  pending: string;
  /** How long one run may take before the sweeper assumes its worker died. */
  leaseMs: number;
  /** More assignments the lease makes, e.g. `started_at = COALESCE(started_at, now())`. */
  leaseSets?: string;
}

const ENQUEUE_TIMEOUT_MS = 3_000;

/**
 * The one queue idiom for work scheduled in PostgreSQL (searches, webhook deliveries, e-mails):
 * - `enqueue`/`schedule`: the row says when work is due; a Bull job only wakes a worker then.
 * - `lease`: a run claims its row first, so a duplicate job skips work in flight, and the lease
 *   (due time moved past the run) tells the sweeper when a worker died mid-run. The same Bull job
 *   may take its lease over (Bull hands a stalled job to another worker only after its lock
 *   expired).
 * - `requeueOverdue`: the sweeper re-enqueues rows whose job was lost (Redis restart) or whose
 *   worker died; SKIP LOCKED hands each row to one of several workers.
 * - `dispatch`: work due now, stored by this process, runs here when this process works on the
 *   queue (its LocalLane, no Redis), and is enqueued in Bull otherwise.
 * Jobs are thin and idempotent; a lost Redis loses nothing.
 */
export abstract class DbQueue {
  private readonly log: Logger;
  private lane: LocalLane | null = null;

  protected constructor(
    readonly spec: DbQueueSpec,
    protected readonly db: DataSource,
    readonly queue: Queue<DbJobData>,
  ) {
    this.log = new Logger(`DbQueue:${spec.name}`);
  }

  /** Set by QueueWorkers in a process that works on this queue. */
  attachLane(lane: LocalLane | null): void {
    this.lane = lane;
  }

  /** Rows handed to this process's lane and not finished yet (0 without a lane). */
  get localPending(): number {
    return this.lane?.pending ?? 0;
  }

  /**
   * Row `id`, just stored as due now, runs as soon as possible: in this process's lane when it
   * has one with room (no Redis round trip), else by a Bull job. Never throws (see `enqueue`).
   */
  async dispatch(id: string): Promise<boolean> {
    if (this.lane?.offer(id)) return true;
    return this.enqueue(id, 0, 'a0');
  }

  /**
   * A run in this process's lane for a row about to be stored: store the row leased to the
   * answered job id (attempts 1, `lease_job` = the id, due when `spec.leaseMs` is over), then
   * `submitRun` (or `cancelRun` when it was not stored). Null without a lane or room in it: store
   * the row as due and `dispatch` it.
   */
  reserveRun(): string | null {
    return this.lane?.reserve() ?? null;
  }

  /**
   * Row `id`, stored leased to `jobId`, runs in the lane with `row` (the row as the lease
   * answers it). If the lane closed meanwhile, the lease is given back and a Bull job enqueued.
   */
  async submitRun(jobId: string, id: string, row: unknown): Promise<void> {
    if (this.lane?.submit(jobId, id, row)) return;
    await this.handBack(id, jobId);
  }

  cancelRun(): void {
    this.lane?.cancel();
  }

  /**
   * A row leased to a local run that will not happen: the lease and its attempt are given back,
   * and a Bull job wakes a worker. Never throws: the sweeper takes the row once its lease is over.
   */
  async handBack(id: string, jobId: string | null): Promise<void> {
    if (jobId !== null) {
      const { table, dueColumn, attemptsColumn, pending } = this.spec;
      try {
        await this.db.query(
          `UPDATE ${table}
           SET ${dueColumn} = now(), lease_job = NULL, ${attemptsColumn} = greatest(${attemptsColumn} - 1, 0)
           WHERE id = $1 AND lease_job = $2 AND ${pending}`,
          [id, jobId],
        );
      } catch (e) {
        this.log.warn({ id, err: (e as Error).message }, 'lease not given back; the sweeper will');
        return;
      }
    }
    await this.enqueue(id, 0, 'a0');
  }

  /**
   * Extends the lease run `jobId` holds on row `id`; false when it holds none (the row finished,
   * or the sweeper gave it to another run).
   */
  async renew(id: string, jobId: string): Promise<boolean> {
    const { table, dueColumn, pending, leaseMs } = this.spec;
    const { rows } = await queryPrepared(
      this.db,
      `UPDATE ${table} SET ${dueColumn} = now() + ($3 || ' milliseconds')::interval
       WHERE id = $1 AND lease_job = $2 AND ${pending} RETURNING id`,
      [id, jobId, String(leaseMs)],
    );
    return rows.length > 0;
  }

  /**
   * Wakes a worker for row `id` in `delayMs`. Never throws (answers false): the row is already
   * stored as due, so the sweeper re-enqueues it when Redis is back.
   */
  async enqueue(id: string, delayMs = 0, tag = 'a0'): Promise<boolean> {
    try {
      await withTimeout(
        this.queue.add(
          this.spec.job,
          { id },
          {
            jobId: `${this.spec.job}:${id}:${tag}`,
            delay: Math.max(0, Math.round(delayMs)),
            attempts: 1,
            removeOnComplete: true,
            removeOnFail: 1000,
          },
        ),
        ENQUEUE_TIMEOUT_MS,
      );
      return true;
    } catch (e) {
      this.log.warn({ id, err: (e as Error).message }, 'job not enqueued; the sweeper will retry');
      return false;
    }
  }

  /**
   * Makes the next run of row `id` due in `delayMs` (setting `columns` too, in the same UPDATE)
   * and enqueues its job. Nothing happens to a row that has no work left.
   */
  async schedule(
    id: string,
    delayMs: number,
    tag: string,
    columns: Record<string, unknown> = {},
  ): Promise<void> {
    const names = Object.keys(columns);
    const sets = names.map((name, i) => `, ${name} = $${i + 3}`).join('');
    await this.db.query(
      `UPDATE ${this.spec.table}
       SET ${this.spec.dueColumn} = now() + ($2 || ' milliseconds')::interval, lease_job = NULL${sets}
       WHERE id = $1 AND ${this.spec.pending}`,
      [id, String(Math.round(delayMs)), ...names.map((n) => columns[n])],
    );
    await this.enqueue(id, delayMs, tag);
  }

  /**
   * CONTRACT §18: row `id`, leased to `jobId`, waits for something outside the queue (a person's
   * answer): it is not due (`infinity`) until `wakeInTx`. `stillWaiting` is asked with the row
   * locked, so an answer stored meanwhile is never missed: then the row is due now instead. The
   * attempt is given back either way. Answers what happened (`lost`: the lease was not held).
   */
  async park(
    id: string,
    jobId: string,
    columns: Record<string, unknown>,
    stillWaiting: (manager: EntityManager) => Promise<boolean>,
  ): Promise<'parked' | 'due' | 'lost'> {
    const { table, dueColumn, attemptsColumn, pending } = this.spec;
    const names = Object.keys(columns);
    const sets = names.map((name, i) => `, ${name} = $${i + 3}`).join('');
    const result = await this.db.transaction(async (em) => {
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
    if (result === 'due') await this.enqueue(id, 0, `w${Date.now()}`);
    return result;
  }

  /**
   * In the caller's transaction: a parked row (`park`) becomes due now. False when it was not
   * parked (a run holds it or it is already due: that run sees the answer). After the commit,
   * `dispatch` it.
   */
  async wakeInTx(manager: EntityManager, id: string): Promise<boolean> {
    const { table, dueColumn, pending } = this.spec;
    const rows: unknown[] = await manager.query(
      `WITH woken AS (
         UPDATE ${table} SET ${dueColumn} = now(), lease_job = NULL
         WHERE id = $1 AND ${pending} AND ${dueColumn} = 'infinity' RETURNING id)
       SELECT id FROM woken`,
      [id],
    );
    return rows.length > 0;
  }

  /**
   * Claims row `id` for the run of job `jobId`: answers the attempt number (the attempt count
   * after this lease), or null when the row has no due work (finished, not due yet, or leased by
   * another job that still holds it).
   */
  async lease(id: string, jobId: string): Promise<number | null> {
    return (await this.leaseReturning<object>(id, jobId, null))?.attempt ?? null;
  }

  /**
   * `lease`, answering the leased row's `returning` columns (SQL, e.g. `uid, account_id AS
   * "accountId"`) with its attempt number in the same round trip, and `extra` select-list
   * expressions over the CTE `leased` (which has those columns), e.g. a subquery of a row it
   * points at.
   */
  async leaseReturning<T extends object>(
    id: string,
    jobId: string,
    returning: string | null,
    extra: string | null = null,
  ): Promise<(T & { attempt: number }) | null> {
    const { table, dueColumn, attemptsColumn, pending, leaseMs, leaseSets } = this.spec;
    const { rows } = await queryPrepared<T & { attempt: number }>(
      this.db,
      `WITH leased AS (
         UPDATE ${table}
         SET ${attemptsColumn} = ${attemptsColumn} + 1,
             ${dueColumn} = now() + ($3 || ' milliseconds')::interval,
             lease_job = $2${leaseSets ? `, ${leaseSets}` : ''}
         WHERE id = $1 AND ${pending}
           AND (${dueColumn} IS NULL OR ${dueColumn} <= now() + interval '1 second' OR lease_job = $2)
         RETURNING ${attemptsColumn} AS attempt${returning ? `, ${returning}` : ''})
       SELECT leased.*${extra ? `, ${extra}` : ''} FROM leased`,
      [id, jobId, String(leaseMs)],
    );
    if (rows.length === 0) return null;
    return { ...rows[0], attempt: Number(rows[0].attempt) };
  }

  /**
   * Re-enqueues rows whose run is overdue by `graceSeconds` (job lost, worker dead). Several
   * workers may run this at once: SKIP LOCKED hands each overdue row to one of them.
   */
  async requeueOverdue(graceSeconds = 30, limit = 500): Promise<number> {
    const { table, dueColumn, pending } = this.spec;
    // (A CTE, because TypeORM answers a bare UPDATE ... RETURNING as [rows, count].)
    const rows: { id: string }[] = await this.db.query(
      `WITH due AS (
         UPDATE ${table} SET ${dueColumn} = now(), lease_job = NULL
         WHERE id IN (
           SELECT id FROM ${table}
           WHERE ${pending} AND ${dueColumn} < now() - ($1 || ' seconds')::interval
           ORDER BY ${dueColumn} LIMIT $2 FOR UPDATE SKIP LOCKED)
         RETURNING id)
       SELECT id FROM due`,
      [String(graceSeconds), limit],
    );
    const tag = `q${Date.now()}`;
    for (const { id } of rows) await this.enqueue(String(id), 0, tag);
    if (rows.length > 0) this.log.warn({ count: rows.length }, 'overdue jobs re-enqueued');
    return rows.length;
  }
}
