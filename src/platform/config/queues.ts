import { type Env, envReaders } from './env-parts';

/**
 * Each queue's runs at once per worker process (its Bull worker and its lane together) and the
 * retries it declares (docs/architecture.md, The queue idiom; a queue's definition reads them).
 */
export interface QueueSettings {
  /** Searches, and webhook deliveries (they wait on the network, not the CPU). */
  searchConcurrency: number;
  /** Batch items (each still waits for an insurer slot). */
  batchConcurrency: number;
  claimsConcurrency: number;
  mailConcurrency: number;
  /** First retry of a failed e-mail; doubles each attempt, `mailMaxAttempts` in all. */
  mailRetryBaseMs: number;
  mailMaxAttempts: number;
}

export function loadQueueSettings(env: Env, problems: string[]): QueueSettings {
  const { int } = envReaders(env, problems);
  return {
    searchConcurrency: int('SEARCH_CONCURRENCY', 50, 1, 1000),
    batchConcurrency: int('BATCH_CONCURRENCY', 5, 1, 1000),
    claimsConcurrency: int('CLAIMS_CONCURRENCY', 5, 1, 1000),
    mailConcurrency: int('MAIL_CONCURRENCY', 5, 1, 1000),
    // 12 attempts, 5 s apart doubling: about 2.8 hours before a message is marked failed.
    mailRetryBaseMs: int('MAIL_RETRY_BASE_MS', 5_000, 10, 3_600_000),
    mailMaxAttempts: int('MAIL_MAX_ATTEMPTS', 12, 1, 50),
  };
}
