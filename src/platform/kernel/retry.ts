/**
 * When a failed attempt is tried again (docs/architecture.md, Shared idioms): searches, claim
 * submissions and e-mails double a base delay; webhook deliveries follow WEBHOOK_RETRY_SCHEDULE.
 */
export type RetryPolicy =
  /** base × 1, 2, 4, … after attempts 1, 2, 3, …; `maxAttempts` in all. */
  | { doublingFromMs: number; maxAttempts: number }
  /** `delaysMs[n - 1]` after attempt n; `delaysMs.length + 1` attempts in all. */
  | { delaysMs: readonly number[] };

/**
 * The wait after attempt `attempt` (1-based) failed, never shorter than the other side's
 * Retry-After (`retryAfterMs`); null when that attempt was the last.
 */
export function retryDelayMs(
  policy: RetryPolicy,
  attempt: number,
  retryAfterMs = 0,
): number | null {
  if ('delaysMs' in policy) {
    return attempt > policy.delaysMs.length
      ? null
      : Math.max(policy.delaysMs[attempt - 1], retryAfterMs);
  }
  if (attempt >= policy.maxAttempts) return null;
  return Math.max(policy.doublingFromMs * 2 ** Math.max(0, attempt - 1), retryAfterMs);
}
