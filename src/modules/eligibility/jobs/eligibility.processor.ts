import { Injectable } from '@nestjs/common';
import type { QueueJob } from '@/platform/jobs/local-lane';
import { JobHandler, QueueWorker } from '@/platform/jobs/queue-worker';
import { SEARCH_QUEUE } from './search.queue';
import { SearchRunner } from '../run/domain/search-runner';

/** Thin: the runner decides everything; a run is idempotent, so duplicates are harmless. */
@Injectable()
@QueueWorker(SEARCH_QUEUE)
export class EligibilityProcessor implements JobHandler {
  constructor(private readonly runner: SearchRunner) {}

  async handle(job: QueueJob): Promise<void> {
    await this.runner.run(job.data.id, String(job.id), 'single', job.leased);
  }
}
