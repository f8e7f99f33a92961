import type { JobTag } from '@/platform/jobs/db-queue';
import { Injectable, Logger } from '@nestjs/common';
import { SearchTasks } from '@/modules/verification';
import { SearchFinisher } from '../finish/domain/search-finisher';
import { SearchRunsRepository } from '../store/search-runs.repository';
import { BatchSearchQueue } from './batch-search.queue';
import { SearchQueue } from './search.queue';
import type { SearchOrigin } from '../run/domain/insurer-slots';
import type { SettledOutcomes } from '../domain/search-outcome';

/**
 * When a search runs. PostgreSQL is the record of what is due (`job_due_at`); the Bull job only
 * wakes a worker at that time, so a job lost with Redis is re-enqueued from the table (the
 * queue sweeper), and the watchdog ends a search that never finishes.
 */
@Injectable()
export class EligibilityScheduler {
  private readonly logger = new Logger(EligibilityScheduler.name);

  constructor(
    private readonly queue: SearchQueue,
    private readonly finisher: SearchFinisher,
    private readonly batchQueue: BatchSearchQueue,
    private readonly runs: SearchRunsRepository,
    private readonly tasks: SearchTasks,
  ) {}

  /**
   * Runs the search again in `delayMs`, keeping the settled insurer outcomes and the attempt
   * count; `body`: its processing answer meanwhile (both versions).
   */
  async reschedule(
    requestId: string,
    delayMs: number,
    tag: JobTag,
    attempts: number,
    settled: SettledOutcomes,
    origin: SearchOrigin,
    body: string,
  ): Promise<void> {
    await (origin === 'batch' ? this.batchQueue : this.queue).schedule(
      requestId,
      delayMs,
      tag,
      { insurer_outcomes: JSON.stringify(settled), body_v1: body, body_v2: body },
      attempts,
    );
  }

  /**
   * docs/api.md, Insurers and assisted verification: a person is checking `codes`; the request waits, not due, keeping its settled
   * outcomes, until one of their tasks is answered (VerificationTasks wakes it). A task answered
   * while this run was deciding makes the request due at once instead.
   */
  async park(
    requestId: string,
    jobId: string,
    settled: SettledOutcomes,
    codes: string[],
    origin: SearchOrigin,
    body: string,
  ): Promise<void> {
    await (origin === 'batch' ? this.batchQueue : this.queue).park(
      requestId,
      jobId,
      { insurer_outcomes: JSON.stringify(settled), body_v1: body, body_v2: body },
      async (tx) => !(await this.tasks.anyAnswered(requestId, codes, tx)),
    );
  }

  /**
   * Ends requests still `processing` past the limit as `unexpected_error`: none waits for ever.
   * A batch item is timed from its first run (it may wait in line longer than the limit). A
   * request waiting for a person (an open verification task, docs/api.md, Insurers and assisted verification) is not stuck: its
   * task has its own deadline (`due_by`) and overdue event.
   */
  async expireStuck(limitSeconds: number, limit = 500): Promise<number> {
    const ids = await this.runs.stuck(limitSeconds, limit);
    let expired = 0;
    for (const id of ids) {
      if (await this.finisher.fail(id, 'unexpected_error', null)) expired++;
    }
    if (expired > 0)
      this.logger.warn({ count: expired }, 'stuck searches ended as unexpected_error');
    return expired;
  }
}
