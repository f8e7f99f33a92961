import type { RetryPolicy } from '@/platform/kernel/retry';

/**
 * Every database-scheduled job carries the id of its row: the row is the record. With tracing on
 * (docs/architecture.md, Tracing), also the W3C `traceparent` of the code that enqueued it, so
 * the job's span continues that trace.
 */
export interface DbJobData {
  id: string;
  traceparent?: string;
}

/**
 * A queue's declaration: where its work lives (one row per unit of work, with its due time and
 * attempt count), how many runs go at once and how a failed one is retried.
 */
export interface DbQueueSpec {
  /** Bull queue name. */
  name: string;
  /** Bull job name (also the prefix of job ids). */
  job: string;
  table: string;
  /** timestamptz column: when the next run is due (or, while a run holds the lease, its end). */
  dueColumn: string;
  /** integer column counted up by each lease. */
  attemptsColumn: string;
  /** SQL condition of the rows that still have work to do, e.g. `status = 'pending'`. */
  pending: string;
  /** How long one run may take before the sweeper assumes its worker died. */
  leaseMs: number;
  /** More assignments the lease makes, e.g. `started_at = COALESCE(started_at, now())`. */
  leaseSets?: string;
  /** Runs at once per worker process: its Bull worker and its LocalLane share these permits. */
  concurrency: number;
  /** When a failed run is tried again (`DbQueue.retryDelay`). */
  retries: RetryPolicy;
}
