import { Injectable } from '@nestjs/common';
import { dbQueueOf } from '@/platform/jobs/db-queue-of';
import { searchRetries } from '../domain/search-outcome';

export const SEARCH_QUEUE = 'eligibility-search';

/**
 * Search jobs: one row of eligibility_requests each, due at `job_due_at` while `processing`.
 * Batch items have a queue of their own (BatchSearchQueue), so singles never wait behind them.
 */
@Injectable()
export class SearchQueue extends dbQueueOf(SEARCH_QUEUE, (config) => ({
  job: 'search',
  table: 'eligibility_requests',
  dueColumn: 'job_due_at',
  attemptsColumn: 'attempts',
  pending: `status = 'processing' AND batch_id IS NULL AND origin IS NULL`,
  // A run waits for its insurers at most INSURER_TIMEOUT_MS (they are asked in parallel).
  leaseMs: config.insurerTimeoutMs + 30_000,
  concurrency: config.searchConcurrency,
  retries: searchRetries(config.searchRetryBaseMs),
})) {}
