import { randomUUID } from 'node:crypto';
import type { DbJobData } from './db-queue';

/** What a job handler is given: Bull's job, or a run of the local lane, look alike. */
export interface QueueJob {
  id: string | number | undefined;
  data: DbJobData;
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

/**
 * Work due now, run in the process that stored it, without a round trip through Redis: a
 * worker process (ROLE all or worker) offers the rows it has just stored to its own lane. The
 * lane shares its queue's permits with the Bull worker of the same queue, so SEARCH_CONCURRENCY
 * still bounds the runs of a process.
 *
 * Nothing is lost with the process: the row was stored as due before it was offered, so if the
 * process dies the queue sweeper re-enqueues it (as for a job lost with Redis), and a lane that
 * shuts down hands what it has not started to Bull. A full lane refuses (the caller enqueues in
 * Bull instead, where every worker process can take it), so it stays short: it is a hand-off, not
 * a second queue. Each run has a job id of its own, so a run never takes over another's lease.
 */
export class LocalLane {
  private readonly waiting = new Set<string>();
  private readonly inFlight = new Set<Promise<void>>();
  private pumping = false;
  private closed = false;
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

  /** Takes row `id` to run here; false when the lane is full or closed (enqueue it elsewhere). */
  offer(id: string): boolean {
    if (this.closed || this.waiting.size >= this.capacity) return false;
    this.waiting.add(id);
    if (!this.pumping) void this.pump();
    return true;
  }

  /** Rows offered and not finished (waiting or running). */
  get pending(): number {
    return this.waiting.size + this.inFlight.size;
  }

  /** Stops taking rows; answers the ones not started, for the caller to enqueue elsewhere. */
  close(): string[] {
    this.closed = true;
    const left = [...this.waiting];
    this.waiting.clear();
    return left;
  }

  /** Resolves when the runs in flight have ended. */
  async idle(): Promise<void> {
    await Promise.allSettled([...this.inFlight]);
  }

  private async pump(): Promise<void> {
    this.pumping = true;
    try {
      while (!this.closed && this.waiting.size > 0) {
        await this.permits.acquire();
        const id = this.waiting.values().next().value;
        if (id === undefined || this.closed) {
          this.permits.release();
          break;
        }
        this.waiting.delete(id);
        this.start(id);
      }
    } finally {
      this.pumping = false;
    }
  }

  private start(id: string): void {
    const run = this.handle({ id: `${this.job}:${id}:l${this.tag}.${++this.runs}`, data: { id } })
      .catch((e: unknown) => this.onError(id, e as Error))
      .finally(() => {
        this.permits.release();
        this.inFlight.delete(run);
      });
    this.inFlight.add(run);
  }
}
