import { managerOf } from '@/database/database';
import type { JobTag } from '@/common/queue/db-queue';
import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { EligibilityResults } from './eligibility-results';
import { BatchSearchQueue } from './batch.queue';
import { SearchQueue } from './eligibility.queue';
import type { SearchLane } from './insurer-slots';
import type { SettledOutcomes } from './search-outcome';

/**
 * When a search runs. PostgreSQL is the record of what is due (`job_due_at`); the Bull job only
 * wakes a worker at that time, so a job lost with Redis is re-enqueued from the table (the
 * queue sweeper), and the watchdog ends a search that never finishes.
 */
@Injectable()
export class EligibilityScheduler {
  private readonly logger = new Logger(EligibilityScheduler.name);

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly queue: SearchQueue,
    private readonly results: EligibilityResults,
    private readonly batchQueue: BatchSearchQueue,
  ) {}

  /** The first run of a stored request, at once (in this process when it runs searches). */
  async enqueue(requestId: string): Promise<void> {
    await this.queue.dispatch(requestId);
  }

  /** Runs the search again in `delayMs`, keeping the settled insurer outcomes and the attempt count. */
  async reschedule(
    requestId: string,
    delayMs: number,
    tag: JobTag,
    attempts: number,
    settled: SettledOutcomes,
    lane: SearchLane = 'single',
  ): Promise<void> {
    await (lane === 'batch' ? this.batchQueue : this.queue).schedule(
      requestId,
      delayMs,
      tag,
      { insurer_outcomes: JSON.stringify(settled) },
      attempts,
    );
  }

  /**
   * CONTRACT §18: a person is checking `codes`; the request waits, not due, keeping its settled
   * outcomes, until one of their tasks is answered (VerificationTasks wakes it). A task answered
   * while this run was deciding makes the request due at once instead.
   */
  async park(
    requestId: string,
    jobId: string,
    settled: SettledOutcomes,
    codes: string[],
    lane: SearchLane = 'single',
  ): Promise<void> {
    await (lane === 'batch' ? this.batchQueue : this.queue).park(
      requestId,
      jobId,
      { insurer_outcomes: JSON.stringify(settled) },
      async (tx) => {
        const answered: unknown[] = await managerOf(this.db, tx).query(
          `SELECT 1 FROM verification_tasks WHERE request_id = $1 AND insurer_code = ANY($2)
             AND state IN ('completed', 'failed') LIMIT 1`,
          [requestId, codes],
        );
        return answered.length === 0;
      },
    );
  }

  /**
   * Ends requests still `processing` past the limit as `unexpected_error`: none waits for ever.
   * A batch item is timed from its first run (it may wait in line longer than the limit). A
   * request waiting for a person (an open verification task, CONTRACT §18) is not stuck: its
   * task has its own deadline (`due_by`) and overdue event.
   */
  async expireStuck(limitSeconds: number, limit = 500): Promise<number> {
    const rows: { id: string }[] = await this.db.query(
      `SELECT id FROM eligibility_requests
       WHERE status = 'processing'
         AND (CASE WHEN batch_id IS NULL THEN created_at ELSE started_at END)
             < now() - ($1 || ' seconds')::interval
         AND NOT EXISTS (SELECT 1 FROM verification_tasks t WHERE t.request_id = eligibility_requests.id
           AND t.state IN ('queued', 'in_progress', 'needs_info'))
       ORDER BY created_at LIMIT $2`,
      [String(limitSeconds), limit],
    );
    let expired = 0;
    for (const { id } of rows) {
      if (await this.results.fail(String(id), 'unexpected_error')) expired++;
    }
    if (expired > 0)
      this.logger.warn({ count: expired }, 'stuck searches ended as unexpected_error');
    return expired;
  }
}
