import { Injectable } from '@nestjs/common';
import { dbQueueOf } from '@/platform/jobs/db-queue-of';
import { submitRetries } from '../domain/claim-lifecycle';

export const CLAIMS_QUEUE = 'claims';

/**
 * Claims: the claim row is the queue row, due at `job_due_at` while it waits to be submitted
 * (`ready`, or `submission_failed` with a retry due) or to have its status checked (`submitted`,
 * `accepted`). A claim with nothing left to do has no due time.
 */
@Injectable()
export class ClaimsQueue extends dbQueueOf(CLAIMS_QUEUE, (config) => ({
  job: 'claim',
  table: 'claims',
  dueColumn: 'job_due_at',
  attemptsColumn: 'attempts',
  pending: `job_due_at IS NOT NULL AND status IN ('ready', 'submission_failed', 'submitted', 'accepted')`,
  // One clearinghouse call (bounded by INSURER_TIMEOUT_MS, at most 5 minutes) and margin.
  leaseMs: 360_000,
  concurrency: config.claimsConcurrency,
  // Submissions are retried (CLAIM_SUBMIT_*); status checks follow their own interval.
  retries: submitRetries(config.claims),
})) {}
