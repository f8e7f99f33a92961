import { randomUUID } from 'node:crypto';
import { currentTraceparent } from '@/platform/tracing/tracing';
import type { DbJobData } from './db-queue-spec';
import { laneRun } from './job-id';

/** What a job handler is given: Bull's job, or a run of the local lane, look alike. */
export interface QueueJob {
  id: string | number | undefined;
  data: DbJobData;
  /**
   * Local runs of rows stored already leased to them (`LocalLane.reserve`): the row as the
   * lease would have answered it, and when the lease was taken.
   */
  leased?: { row: unknown; at: number };
}

/** Runs at most `permits` tasks at once; waiters are served first come, first served. */
export class Permits {
  private free: number;
  private readonly waiters: (() => void)[] = [];

  constructor(readonly permits: number) {
    this.free = permits;
  }

  async use<T>(task: () => Promise<T>): Promise<T> {
    await this.acquire();
    try {
      return await task();
    } finally {
      this.release();
    }
  }

  acquire(): Promise<void> {
    if (this.free > 0) {
      this.free--;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  release(): void {
    const next = this.waiters.shift();
    if (next) next();
    else this.free++;
  }
}

/** A row waiting in the lane: with the lease it was stored with, or none (the run leases it). */
interface Waiting {
  jobId: string | null;
  leased?: { row: unknown; at: number };
  /** With tracing on: the trace of the code that handed the row over (its run continues it). */
  traceparent?: string;
}

/** A row the lane has not started, handed back on close. */
export interface LeftOver {
  id: string;
  /** The run the row was stored leased to (its lease must be given back), or null. */
  jobId: string | null;
}

/**
 * Work due now, run in the process that stored it, without a round trip through Redis: a
 * worker process (ROLE all or worker) hands the rows it has just stored to its own lane. The
 * lane shares its queue's permits with the Bull worker of the same queue, so the queue's
 * concurrency still bounds the runs of a process.
 *
 * Two ways in: `offer` a row stored as due (the run leases it), or `submit` a row stored leased
 * to a run of this process (a run reserved first with `reserve`, or one such as a finished
 * search's first webhook attempts), as stored: the run then starts without a lease round trip.
 *
 * Nothing is lost with the process: a row stored as due, or leased to a run that never came, is
 * taken by the queue sweeper once overdue (as for a job lost with Redis); a lane that shuts down
 * hands what it has not started back (the caller gives back their leases and enqueues them in
 * Bull). A full lane refuses (the caller enqueues in Bull instead, where every worker process can
 * take it), so it stays short: it is a hand-off, not a second queue. Each run has a job id of its
 * own, so a run never takes over another's lease.
 */
export class LocalLane {
  private readonly waiting = new Map<string, Waiting>();
  /** Rows to offer when they are due (`offerAt`). */
  private readonly alarms = new Map<string, NodeJS.Timeout>();
  /** Told the room left when a run ends with nothing waiting (DbQueue pulls due rows then). */
  onRoom: ((room: number) => void) | null = null;
  private readonly inFlight = new Set<Promise<void>>();
  private pumping = false;
  private closed = false;
  /** Runs reserved (`reserve`) and not yet submitted or cancelled. */
  private readonly reserved = new Set<string>();
  private runs = 0;
  /** Run ids are unique across processes too. */
  private readonly tag = randomUUID().slice(0, 8);

  constructor(
    private readonly job: string,
    private readonly permits: Permits,
    private readonly capacity: number,
    private readonly handle: (job: QueueJob) => Promise<void>,
    private readonly onError: (id: string, error: Error) => void,
  ) {}

  /** Takes row `id` (stored as due) to run here; false when the lane is full or closed. */
  offer(id: string): boolean {
    if (!this.hasRoom()) return false;
    this.add(id, { jobId: null });
    return true;
  }

  /**
   * Offers row `id` (stored as due in `delayMs`) when it is due; false when the lane is closed.
   * A row given a time again keeps only the latest; a full lane at that time leaves the row to
   * the sweeper, a row run meanwhile elsewhere is skipped by its lease.
   */
  offerAt(id: string, delayMs: number): boolean {
    if (this.closed) return false;
    if (delayMs <= 0) return this.offer(id);
    clearTimeout(this.alarms.get(id));
    const alarm = setTimeout(() => {
      this.alarms.delete(id);
      this.offer(id);
    }, delayMs);
    alarm.unref();
    this.alarms.set(id, alarm);
    return true;
  }

  /**
   * A place in the lane and the job id of its run, to store a row leased to it; null when the
   * lane is full or closed. Follow with `submit` or `cancel`.
   */
  reserve(): string | null {
    if (!this.hasRoom()) return null;
    const jobId = this.nextJobId();
    this.reserved.add(jobId);
    return jobId;
  }

  /**
   * Row `id`, stored leased to run `jobId` (`row`: as the lease answers it): a reserved run has
   * its place, another takes one if there is room. False when the lane closed meanwhile or has no
   * room (give the lease back and enqueue the row elsewhere).
   */
  submit(jobId: string, id: string, row: unknown): boolean {
    const placed = this.reserved.delete(jobId);
    if (this.closed || (!placed && !this.hasRoom())) return false;
    this.add(id, { jobId, leased: { row, at: Date.now() } });
    return true;
  }

  /** The reserved run `jobId` will not come (its row was not stored). */
  cancel(jobId: string): void {
    this.reserved.delete(jobId);
  }

  /** Rows handed to the lane and not finished (waiting or running), or waiting for their time. */
  get pending(): number {
    return this.waiting.size + this.inFlight.size + this.alarms.size;
  }

  /** Stops taking rows; answers the ones not started, for the caller to enqueue elsewhere. */
  close(): LeftOver[] {
    this.closed = true;
    for (const alarm of this.alarms.values()) clearTimeout(alarm);
    this.alarms.clear();
    const left = [...this.waiting].map(([id, w]) => ({ id, jobId: w.jobId }));
    this.waiting.clear();
    return left;
  }

  /** Resolves when the runs in flight have ended. */
  async idle(): Promise<void> {
    await Promise.allSettled([...this.inFlight]);
  }

  private hasRoom(): boolean {
    return !this.closed && this.waiting.size + this.reserved.size < this.capacity;
  }

  private nextJobId(): string {
    return laneRun(this.job, this.tag, ++this.runs);
  }

  private add(id: string, waiting: Waiting): void {
    // A row offered again while it waits keeps its place (and its first way in).
    if (!this.waiting.has(id)) {
      // Taken now: the run starts later, from whichever run's end freed its permit.
      const traceparent = currentTraceparent();
      if (traceparent) waiting.traceparent = traceparent;
      this.waiting.set(id, waiting);
    }
    if (!this.pumping) void this.pump();
  }

  private async pump(): Promise<void> {
    this.pumping = true;
    try {
      while (!this.closed && this.waiting.size > 0) {
        await this.permits.acquire();
        const next = this.waiting.entries().next().value;
        if (next === undefined || this.closed) {
          this.permits.release();
          break;
        }
        this.waiting.delete(next[0]);
        this.start(next[0], next[1]);
      }
    } finally {
      this.pumping = false;
    }
  }

  private start(id: string, waiting: Waiting): void {
    const data: DbJobData = waiting.traceparent ? { id, traceparent: waiting.traceparent } : { id };
    const job: QueueJob = { id: waiting.jobId ?? this.nextJobId(), data };
    if (waiting.leased) job.leased = waiting.leased;
    const run = this.handle(job)
      .catch((e: unknown) => this.onError(id, e as Error))
      .finally(() => {
        this.permits.release();
        this.inFlight.delete(run);
        if (this.waiting.size === 0 && this.hasRoom())
          this.onRoom?.(this.capacity - this.reserved.size);
      });
    this.inFlight.add(run);
  }
}
