import { retryAfterSeconds } from './errors.js';

export interface RetryOptions {
  /** Retries of an answer 429 or 503 (default 3; 0 turns retrying off). */
  maxRetries?: number;
  /** The first wait when the answer has no `Retry-After`, doubled each time (ms, default 500). */
  initialDelayMs?: number;
  /** The longest wait (ms, default 30000): a longer `Retry-After` is answered as it is. */
  maxDelayMs?: number;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * A fetch that sends a request again when the answer is 429 (rate limit) or 503 (a dependency
 * briefly unavailable), after `Retry-After` seconds when the answer says, else with exponential
 * backoff. The last answer is returned as it is.
 */
export function retryingFetch(
  base: (request: Request) => Promise<Response>,
  options: RetryOptions = {},
): (request: Request) => Promise<Response> {
  const maxRetries = options.maxRetries ?? 3;
  const initial = options.initialDelayMs ?? 500;
  const max = options.maxDelayMs ?? 30_000;
  return async (request) => {
    for (let attempt = 0; ; attempt += 1) {
      // A body can be read once: every attempt but the last sends a copy.
      const response = await base(attempt < maxRetries ? request.clone() : request);
      if ((response.status !== 429 && response.status !== 503) || attempt >= maxRetries)
        return response;
      const told = retryAfterSeconds(response.headers.get('retry-after'));
      const wait = told !== null ? told * 1000 : Math.min(max, initial * 2 ** attempt);
      if (wait > max) return response;
      await response.body?.cancel();
      await sleep(wait);
    }
  };
}
