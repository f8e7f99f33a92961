import { Injectable } from '@nestjs/common';
import type { QueueJob } from '@/platform/jobs/local-lane';
import { JobHandler, QueueWorker } from '@/platform/jobs/queue-worker';
import { BATCH_QUEUE } from './batch-search.queue';
import { SearchRunner } from '../run/domain/search-runner';

/** Thin, like EligibilityProcessor: the runner decides everything. */
@Injectable()
@QueueWorker(BATCH_QUEUE)
export class BatchItemProcessor implements JobHandler {
  constructor(private readonly runner: SearchRunner) {}

  async handle(job: QueueJob): Promise<void> {
    await this.runner.run(job.data.id, String(job.id), 'batch');
  }
}
