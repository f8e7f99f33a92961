export const SEARCH_QUEUE = 'eligibility-search';
export const SEARCH_JOB = 'search';

/** Jobs carry the request id only; the row is the source of truth. */
export interface SearchJobData {
  requestId: string;
}

/** Retries of transient insurer failures: 4 tries in all, 2 s, 4 s, 8 s apart. */
export const MAX_SEARCH_ATTEMPTS = 4;
export const retryDelayMs = (attempt: number) => 1_000 * 2 ** attempt;
