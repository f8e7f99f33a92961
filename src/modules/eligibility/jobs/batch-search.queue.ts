import { Injectable, Logger } from '@nestjs/common';
import { ENQUEUE_TIMEOUT_MS } from '@/platform/jobs/db-queue';
import { dbQueueOf } from '@/platform/jobs/db-queue-of';
import { withTimeout } from '@/platform/kernel/timeout';

export const BATCH_QUEUE = 'eligibility-batch';

const ADD_CHUNK = 1_000;

/**
 * Batch items' search jobs (and appointments' checks, at the same priority: docs/api.md,
 * Appointments): rows of eligibility_requests with a batch or an origin, in a Bull queue of their
 * own with its own workers (BATCH_CONCURRENCY per process), so a batch's thousands of waiting
 * jobs never stand in front of a single check (docs/api.md, Batches). SearchQueue holds the other rows.
 */
@Injectable()
export class BatchSearchQueue extends dbQueueOf(BATCH_QUEUE, (config) => ({
  job: 'batch-search',
  table: 'eligibility_requests',
  dueColumn: 'job_due_at',
  attemptsColumn: 'attempts',
  pending: `status = 'processing' AND (batch_id IS NOT NULL OR origin IS NOT NULL)`,
  // A run may first wait for an insurer slot (a few seconds), then for its insurers.
  leaseMs: config.insurerTimeoutMs + 40_000,
  // The watchdog times an item from its first run (it may wait in line for long).
  leaseSets: 'started_at = COALESCE(started_at, now())',
})) {
  private readonly logger = new Logger(BatchSearchQueue.name);

  /**
   * The first run of a batch's items, in order: a few bulk adds, not one round trip each; without
   * Redis, as many as this process's lane takes (it takes the rest from the table as it goes).
   */
  async enqueueAll(ids: readonly string[]): Promise<void> {
    if (this.redisDown) {
      for (const id of ids) if (!(await this.dispatch(id))) return;
      return;
    }
    for (let i = 0; i < ids.length; i += ADD_CHUNK) {
      const chunk = ids.slice(i, i + ADD_CHUNK).map((id) => ({
        name: this.spec.job,
        data: { id },
        opts: {
          jobId: `${this.spec.job}:${id}:a0`,
          attempts: 1,
          removeOnComplete: true,
          removeOnFail: 1000,
        },
      }));
      try {
        await withTimeout(this.queue.addBulk(chunk), ENQUEUE_TIMEOUT_MS);
      } catch (e) {
        // The rows are due already: the sweeper enqueues them once Redis answers again.
        this.logger.warn(
          { count: chunk.length, err: (e as Error).message },
          'batch jobs not enqueued',
        );
        return;
      }
    }
  }
}
