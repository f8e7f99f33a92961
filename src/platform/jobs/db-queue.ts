import { Logger } from '@nestjs/common';
import type { Queue } from 'bull';
import type { DataSource } from 'typeorm';
import { retryDelayMs } from '@/platform/kernel/retry';
import { type Database, dataSourceOf, managerOf, type Tx } from '@/platform/db/database';
import * as recovery from './lease-recovery';
import { LeaseGroups, renewRow, scheduleRow, wakeRow } from './lease-statements';
import type { DbJobData, DbQueueSpec } from './db-queue-spec';
import { BullWakeups } from './bull-wakeups';
import { LaneFeed } from './lane-feed';
import type { LocalLane } from './local-lane';
import { type JobTag, tags } from './job-id';
import { QueueSql } from './queue-sql';
import { compile, type Sql } from '@/platform/db/sql';

export type { DbJobData, DbQueueSpec } from './db-queue-spec';
export { type JobTag, jobId, tags } from './job-id';
export { ENQUEUE_TIMEOUT_MS } from './bull-wakeups';

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
  private owner: string | null = null;
  protected readonly db: DataSource;
  /** SQL pieces for other repositories' statements that store or settle this queue's rows. */
  readonly sql: QueueSql;
  private readonly leases: LeaseGroups;
  private readonly feed: LaneFeed;
  private readonly wakeups: BullWakeups;

  protected constructor(
    readonly spec: DbQueueSpec,
    database: Database,
    readonly queue: Queue<DbJobData>,
  ) {
    this.db = dataSourceOf(database);
    this.sql = new QueueSql(spec);
    this.leases = new LeaseGroups(this.db, spec, () => this.owner);
    this.log = new Logger(`DbQueue:${spec.name}`);
    this.feed = new LaneFeed(this.db, spec, () => this.redisDown, this.log);
    this.wakeups = new BullWakeups(queue, spec.job, this.log);
  }

  /** Set at start: the registered process (ProcessRegistry) every lease taken here names. */
  attachOwner(owner: string | null): void {
    this.owner = owner;
  }

  get ownerId(): string | null {
    return this.owner;
  }

  /** Redis known down (BullWakeups.redisDown): rows then stay due for a lane. */
  get redisDown(): boolean {
    return this.wakeups.redisDown;
  }

  /** The wait before the run after failed attempt `attempt` (the queue's `retries`); null: none. */
  retryDelay(attempt: number, retryAfterMs = 0): number | null {
    return retryDelayMs(this.spec.retries, attempt, retryAfterMs);
  }

  /** Set by QueueWorkers in a process that works on this queue (fed from the table: LaneFeed). */
  attachLane(lane: LocalLane | null): void {
    this.lane = lane;
    if (lane) this.feed.attach(lane);
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
   * A lane run for a row about to be stored leased to the answered id (attempts 1), then
   * `submitRun` or `cancelRun`; null without room in a lane: store the row due and `dispatch` it.
   */
  reserveRun(): string | null {
    return this.lane?.reserve() ?? null;
  }

  /**
   * Row `id`, stored (and committed) leased to `jobId` (a reserved run, or a run of this process
   * such as its first attempts: firstAttemptRun), runs in the lane with `row` (the row as the
   * lease answers it). Without a place there, the lease is given back and a Bull job enqueued.
   */
  async submitRun(jobId: string, id: string, row: unknown): Promise<void> {
    if (this.lane?.submit(jobId, id, row)) return;
    await this.handBack(id, jobId);
  }

  cancelRun(jobId: string): void {
    this.lane?.cancel(jobId);
  }

  /**
   * A lane run of a row stored leased to it (`QueueJob.leased`, taken at `leasedAt`): whether it
   * still holds the lease; one that waited half the lease extends it first (`renew`).
   */
  async holdsStored(id: string, jobId: string, leasedAt: number): Promise<boolean> {
    return Date.now() - leasedAt < this.spec.leaseMs / 2 || this.renew(id, jobId);
  }

  /**
   * A row leased to a local run that will not happen: the lease and its attempt are given back,
   * and a Bull job wakes a worker. Never throws: the sweeper takes the row once its lease is over.
   */
  async handBack(id: string, jobId: string | null): Promise<void> {
    if (jobId !== null) {
      try {
        await recovery.giveBackRow(this.db, this.spec, id, jobId);
      } catch (e) {
        this.log.warn({ id, err: (e as Error).message }, 'lease not given back; the sweeper will');
        return;
      }
    }
    await this.enqueue(id, 0, 'a0');
  }

  /** Extends run `jobId`'s lease on row `id`; false when it holds none (finished, or taken over). */
  renew = (id: string, jobId: string): Promise<boolean> => renewRow(this.db, this.spec, id, jobId);

  /**
   * Wakes a worker for row `id` in `delayMs`; without Redis (docs/configuration.md, Database and Redis), this process's lane
   * takes the row when it is due. Never throws (answers false without either: the row is stored
   * as due, and a worker's sweep takes it).
   */
  async enqueue(id: string, delayMs = 0, tag: JobTag = 'a0'): Promise<boolean> {
    if (!this.redisDown && (await this.wakeups.add([id], tag, delayMs))) return true;
    return this.lane?.offerAt(id, delayMs) ?? false;
  }

  /**
   * The first runs of rows `ids`, just stored as due now, in order: a few bulk adds, not one round
   * trip each; without Redis, as many as this process's lane takes (it takes the rest from the
   * table as it goes). Never throws: the rows are due already, the sweeper covers the rest.
   */
  async dispatchAll(ids: readonly string[]): Promise<void> {
    if (!this.redisDown && (await this.wakeups.add(ids, 'a0'))) return;
    for (const id of ids) if (!(this.lane?.offer(id) ?? false)) return;
  }

  /** `dispatchAll` once `tx` has committed, not awaited (the rows are due already). */
  dispatchAllInTx(tx: Tx, ids: readonly string[]): void {
    if (ids.length > 0) tx.afterCommit(() => void this.dispatchAll(ids));
  }

  /**
   * Makes the next run of row `id` due in `delayMs` (setting `columns`, and the attempt count to
   * `attempts` when given, in the same UPDATE) and enqueues its job. Nothing happens to a row that
   * has no work left.
   */
  async schedule(
    id: string,
    delayMs: number,
    tag: JobTag,
    columns: Record<string, unknown> = {},
    attempts?: number,
  ): Promise<void> {
    const all =
      attempts === undefined ? columns : { ...columns, [this.spec.attemptsColumn]: attempts };
    await scheduleRow(this.db, this.spec, id, delayMs, all);
    await this.enqueue(id, delayMs, tag);
  }

  /**
   * In the caller's transaction: row `id`'s next run due in `delayMs` (null: the row has no work
   * left), its lease released; once `tx` has committed, its job is enqueued with `tag`.
   */
  async setDue(id: string, delayMs: number | null, tx: Tx, tag: JobTag = 'a0'): Promise<void> {
    await this.release(id, delayMs, tx);
    if (delayMs !== null) tx.afterCommit(() => this.enqueue(id, delayMs, tag));
  }

  /** Row `id` has no work left: no due time, its lease released. */
  clearDue(id: string): Promise<void> {
    return this.release(id, null, null);
  }

  private async release(id: string, delayMs: number | null, tx: Tx | null): Promise<void> {
    const due = delayMs === null ? 'NULL' : `now() + ($2 || ' milliseconds')::interval`;
    await managerOf(this.db, tx).query(
      `UPDATE ${this.spec.table} SET ${this.sql.releaseSets(due)} WHERE id = $1`,
      delayMs === null ? [id] : [id, String(Math.round(delayMs))],
    );
  }

  /**
   * docs/api.md, Insurers and assisted verification: row `id`, leased to `jobId`, waits for something outside the queue (a person's
   * answer) until `wakeInTx` (see parkRow); answers what happened (`lost`: no lease held).
   */
  async park(
    id: string,
    jobId: string,
    columns: Record<string, unknown>,
    stillWaiting: (tx: Tx) => Promise<boolean>,
  ): Promise<'parked' | 'due' | 'lost'> {
    const result = await recovery.parkRow(this.db, this.spec, id, jobId, columns, stillWaiting);
    if (result === 'due') await this.enqueue(id, 0, tags.woken());
    return result;
  }

  /**
   * In the caller's transaction: a parked row (`park`) becomes due now, and is dispatched after
   * the commit (`dispatch`: this process's lane, else Bull). False when it was not parked (a run
   * holds it or it is already due: that run sees the answer).
   */
  async wakeInTx(tx: Tx, id: string): Promise<boolean> {
    const woken = await wakeRow(this.db, this.spec, tx, id);
    if (woken) tx.afterCommit(() => this.dispatch(id));
    return woken;
  }

  /**
   * Claims row `id` for the run of job `jobId`: answers the attempt number (the attempt count
   * after this lease), or null when the row has no due work (finished, not due yet, or leased by
   * another job that still holds it).
   */
  async lease(id: string, job: string): Promise<number | null> {
    return (await this.leaseReturning<object>(id, job, null))?.attempt ?? null;
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
    returning: Sql | null,
    extra: Sql | null = null,
  ): Promise<(T & { attempt: number }) | null> {
    return this.leases.lease<T>(id, jobId, columnsText(returning), columnsText(extra));
  }

  /**
   * Re-enqueues rows whose run is overdue by `graceSeconds` (job lost, worker dead). While Redis
   * is down, rows due a second ago are taken, and run in this process's lane, and rows due
   * within `aheadMs` (the next sweep) are offered to it when due.
   */
  async requeueOverdue(graceSeconds = 30, limit = 500, aheadMs = 0): Promise<number> {
    const down = this.redisDown && this.lane !== null;
    const ids = await recovery.overdueRows(this.db, this.spec, down ? 1 : graceSeconds, limit);
    await this.runOrEnqueue(ids, tags.requeued());
    if (ids.length > 0) this.log.warn({ count: ids.length }, 'overdue jobs re-enqueued');
    // Rows another process stored (an API process has no lane) start when due, not a sweep later.
    if (down && aheadMs > 0 && this.lane) await this.feed.ahead(this.lane, aheadMs, limit);
    return ids.length;
  }

  /** Releases at once the rows of dead processes (`deadOwners`, or unregistered): rowsOfDeadOwners. */
  async releaseDead(deadOwners: string[], limit = 500): Promise<number> {
    const rows = await recovery.rowsOfDeadOwners(this.db, this.spec, deadOwners, limit);
    const tag = tags.dueAt(Date.now());
    // Due now: they waited already, so this process's lane first (ahead of new work), else Bull.
    const now = rows.filter((r) => r.delayMs === 0).map((r) => r.id);
    await this.runOrEnqueue(now, tag, true);
    for (const r of rows) if (r.delayMs > 0) await this.enqueue(r.id, r.delayMs, tag);
    if (rows.length > 0) this.log.warn({ count: rows.length }, "dead processes' leases released");
    return rows.length;
  }

  /** Rows just made due: in this process's lane (`here`) when it has room, else `enqueue`. */
  private async runOrEnqueue(ids: string[], tag: JobTag, here = false): Promise<void> {
    for (const id of ids) if (!(here && this.lane?.offer(id))) await this.enqueue(id, 0, tag);
  }
}

/** The text of select-list expressions that carry no value (the lease numbers its own). */
function columnsText(columns: Sql | null): string | null {
  if (!columns) return null;
  const { text, values } = compile(columns);
  if (values.length > 0) throw new Error('A lease returns columns, not values.');
  return text;
}
