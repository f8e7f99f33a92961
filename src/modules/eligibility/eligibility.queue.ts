export const SEARCH_QUEUE = 'eligibility-search';
export const SEARCH_JOB = 'search';

/** Jobs carry the request id only; the row is the source of truth. */
export interface SearchJobData {
  requestId: string;
}

/** Retries of transient insurer failures: 4 tries in all, base × 1, 2, 4 apart (SEARCH_RETRY_BASE_MS). */
export const MAX_SEARCH_ATTEMPTS = 4;
export const retryDelayMs = (attempt: number, baseMs: number) => baseMs * 2 ** (attempt - 1);
