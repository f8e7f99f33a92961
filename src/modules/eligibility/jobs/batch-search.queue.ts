import { Injectable } from '@nestjs/common';
import { dbQueueOf } from '@/platform/jobs/db-queue-of';
import { searchRetries } from '../domain/search-outcome';

export const BATCH_QUEUE = 'eligibility-batch';

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
  concurrency: config.batchConcurrency,
  retries: searchRetries(config.searchRetryBaseMs),
})) {}
