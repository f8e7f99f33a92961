import { Process, Processor } from '@nestjs/bull';
import type { Job } from 'bull';
import { staticSettings } from '@/config/env';
import { EligibilityService } from './eligibility.service';
import { SEARCH_JOB, SEARCH_QUEUE, SearchJobData } from './eligibility.queue';

/** Thin: the service decides everything; a run is idempotent, so duplicates are harmless. */
@Processor(SEARCH_QUEUE)
export class EligibilityProcessor {
  constructor(private readonly eligibility: EligibilityService) {}

  @Process({ name: SEARCH_JOB, concurrency: staticSettings.searchConcurrency() })
  async handle(job: Job<SearchJobData>): Promise<void> {
    await this.eligibility.run(job.data.requestId);
  }
}
