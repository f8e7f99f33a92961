import { OnQueueFailed, Process, Processor } from '@nestjs/bull';
import { Logger } from '@nestjs/common';
import type { Job } from 'bull';
import { staticSettings } from '@/config/env';
import { EligibilityService } from './eligibility.service';
import { SEARCH_JOB, SEARCH_QUEUE, SearchJobData } from './eligibility.queue';

/** Thin: the service decides everything; a run is idempotent, so duplicates are harmless. */
@Processor(SEARCH_QUEUE)
export class EligibilityProcessor {
  private readonly logger = new Logger(EligibilityProcessor.name);

  constructor(private readonly eligibility: EligibilityService) {}

  /** A run that threw (database down, a bug): the maintenance loop will enqueue it again. */
  @OnQueueFailed()
  onFailed(job: Job<SearchJobData>, error: Error): void {
    this.logger.error(
      { requestId: job.data.requestId, jobId: job.id, err: error.message },
      'search job failed',
    );
  }

  @Process({ name: SEARCH_JOB, concurrency: staticSettings.searchConcurrency() })
  async handle(job: Job<SearchJobData>): Promise<void> {
    await this.eligibility.run(job.data.requestId);
  }
}
