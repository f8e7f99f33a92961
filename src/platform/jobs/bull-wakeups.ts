import type { Logger } from '@nestjs/common';
import type { Queue } from 'bull';
import { withTimeout } from '@/platform/kernel/timeout';
import { currentTraceparent } from '@/platform/tracing/tracing';
import type { DbJobData } from './db-queue-spec';
import { type JobTag, jobId } from './job-id';

/** How long an enqueue may wait for Bull before the row is left to the sweep (it stays due). */
export const ENQUEUE_TIMEOUT_MS = 3_000;
/** After an enqueue failed, further enqueues are skipped (rows stay due) for this long. */
const ENQUEUE_RETRY_MS = 3_000;
/** Jobs per bulk add (`addAll`). */
const ADD_CHUNK = 1_000;

/**
 * A DbQueue's Bull side, the only code that adds Bull jobs: a job carries its row's id (and
 * the enqueuing code's trace) and only wakes a worker; its id comes from `jobId`. Knows when
 * Redis is down, so no request waits for it.
 */
export class BullWakeups {
  private downUntil = 0;
  private connectedOnce = false;
  private refusedOnce = false;

  constructor(
    private readonly queue: Queue<DbJobData>,
    private readonly job: string,
    private readonly log: Logger,
  ) {
    queue.isReady().then(
      () => (this.connectedOnce = true),
      () => undefined,
    );
    queue.on('error', () => (this.refusedOnce = true));
  }

  /**
   * Redis known down: Bull's connection is not ready (after it was, or once it failed: a retry's
   * "connecting" is no answer), or an add failed a moment ago; rows then stay due for a lane.
   */
  get redisDown(): boolean {
    if (Date.now() < this.downUntil) return true;
    const status = this.queue.client?.status;
    if (this.connectedOnce || this.refusedOnce) return status !== 'ready';
    return status === 'reconnecting' || status === 'close' || status === 'end';
  }

  /**
   * Adds the jobs `tag` of rows `ids`, delayed `delayMs`, in bulk adds of 1,000; false at the
   * first Bull did not take in time (the rows stay due: the sweeper enqueues them).
   */
  async add(ids: readonly string[], tag: JobTag, delayMs = 0): Promise<boolean> {
    const traceparent = currentTraceparent();
    const delay = Math.max(0, Math.round(delayMs));
    for (let i = 0; i < ids.length; i += ADD_CHUNK) {
      const jobs = ids.slice(i, i + ADD_CHUNK).map((id) => ({
        name: this.job,
        data: traceparent ? { id, traceparent } : { id },
        opts: {
          jobId: jobId(this.job, id, tag),
          delay,
          attempts: 1,
          removeOnComplete: true,
          removeOnFail: 1000,
        },
      }));
      const [one] = jobs;
      try {
        const added: Promise<unknown> =
          jobs.length === 1
            ? this.queue.add(one.name, one.data, one.opts)
            : this.queue.addBulk(jobs);
        await withTimeout(added, ENQUEUE_TIMEOUT_MS);
      } catch (e) {
        this.downUntil = Date.now() + ENQUEUE_RETRY_MS;
        const what = { id: one.data.id, count: jobs.length, err: (e as Error).message };
        this.log.warn(what, 'job not enqueued; the sweeper will retry');
        return false;
      }
    }
    return true;
  }
}
