import type { InsurerPlanResult } from '@/modules/insurers';
import type { RetryPolicy } from '@/platform/kernel/retry';
import type { EligibilityErrorCode } from '../store/eligibility-request.entity';

/** Retries of transient insurer failures: 4 tries in all, base × 1, 2, 4 apart (SEARCH_RETRY_BASE_MS). */
export const MAX_SEARCH_ATTEMPTS = 4;
export const searchRetries = (baseMs: number): RetryPolicy => ({
  doublingFromMs: baseMs,
  maxAttempts: MAX_SEARCH_ATTEMPTS,
});

/** The longest wait an insurer's Retry-After may impose between two attempts. */
export const MAX_RETRY_AFTER_MS = 120_000;

/** One plan a search completes with, and whether its persons' plans are stored in their rows. */
export interface FoundPlan {
  code: string;
  plan: InsurerPlanResult;
  keepPlans?: true;
}

/**
 * What one insurer answered in one run of a search. `found` with no plans is "not found";
 * `rejected` is the practice's setup (no NPI, provider not on file): no retry can help;
 * `unavailable` and not `retryable`: no connector, or the insurer switched off for the account.
 */
export type InsurerOutcome =
  /**
   * `keepPlans`: the persons' plans are stored in their rows too, not only in the answer's bodies:
   * a person gave them (docs/api.md, Insurers and assisted verification), and a details request answers them again from there.
   */
  | { code: string; kind: 'found'; plans: InsurerPlanResult[]; keepPlans?: true }
  | { code: string; kind: 'deferred'; retryAfterMs: number }
  | {
      code: string;
      kind: 'unavailable';
      error: string;
      retryable: boolean;
      /** The insurer asked not to be called again sooner (HTTP Retry-After). */
      retryAfterMs?: number | null;
      /** Words for the answer's `error_detail` when no retry can help (not connected, off). */
      detail?: string;
    }
  /** `detail`: words for the answer's `error_detail` (a verifier's reason, docs/api.md, Insurers and assisted verification). */
  | { code: string; kind: 'rejected'; error: string; detail?: string }
  | { code: string; kind: 'failed'; error: string }
  /** A person is checking this insurer (docs/api.md, Insurers and assisted verification): the request waits for their answer. */
  | { code: string; kind: 'waiting' };

/** What to do with a request once every insurer of it has an outcome for this attempt. */
export type Decision =
  /** Some insurer asked to be asked again later: not an attempt, nothing is counted. */
  | { next: 'defer'; delayMs: number }
  /**
   * Some insurer is unavailable for now: ask the unsettled insurers again (attempt + 1), after
   * the backoff, or after `retryAfterMs` when an insurer asked for a longer wait.
   */
  | { next: 'retry'; attempt: number; retryAfterMs?: number }
  /**
   * Every other insurer is settled, and a person is checking these (`codes`): the request waits,
   * not due, until one of their tasks is answered.
   */
  | { next: 'wait'; codes: string[] }
  | { next: 'complete'; found: FoundPlan[] }
  | { next: 'fail'; errorCode: EligibilityErrorCode; errorDetail?: string };

/**
 * The decision after attempt `attempt` (1-based) given one outcome per insurer, in the request's
 * insurer order. Pure: the runner acts on it. Deferral wins over everything (the insurer will
 * answer later); then transient unavailability is retried up to MAX_SEARCH_ATTEMPTS; then the
 * request completes with every plan found, or fails: `insurer_problem` when no insurer could be
 * reached at all or each refused the practice's setup (`rejected`, never retried),
 * `unexpected_error` otherwise.
 */
export function decideNext(outcomes: InsurerOutcome[], attempt: number): Decision {
  const deferred = outcomes.filter((o) => o.kind === 'deferred');
  if (deferred.length > 0) {
    return { next: 'defer', delayMs: Math.max(...deferred.map((o) => o.retryAfterMs)) };
  }
  // A connector-less insurer will not appear on retry; an outage might end.
  const transient = outcomes.filter((o) => o.kind === 'unavailable' && o.retryable);
  if (transient.length > 0 && attempt < MAX_SEARCH_ATTEMPTS) {
    const waits = transient.map((o) => (o.kind === 'unavailable' && o.retryAfterMs) || 0);
    const retryAfterMs = Math.min(Math.max(...waits), MAX_RETRY_AFTER_MS);
    return retryAfterMs > 0 ? { next: 'retry', attempt, retryAfterMs } : { next: 'retry', attempt };
  }
  const waiting = outcomes.filter((o) => o.kind === 'waiting').map((o) => o.code);
  if (waiting.length > 0) return { next: 'wait', codes: waiting };
  const found = outcomes.filter((o) => o.kind === 'found');
  if (found.length > 0) {
    return {
      next: 'complete',
      found: found.flatMap((o) =>
        o.plans.map((plan): FoundPlan =>
          o.keepPlans ? { code: o.code, plan, keepPlans: true } : { code: o.code, plan },
        ),
      ),
    };
  }
  const allUnavailable =
    outcomes.length > 0 && outcomes.every((o) => o.kind === 'unavailable' || o.kind === 'rejected');
  const details = outcomes.flatMap((o) =>
    (o.kind === 'rejected' || o.kind === 'unavailable') && o.detail ? [o.detail] : [],
  );
  const errorCode = allUnavailable ? 'insurer_problem' : 'unexpected_error';
  return details.length > 0
    ? { next: 'fail', errorCode, errorDetail: details.join(' ') }
    : { next: 'fail', errorCode };
}

/**
 * Outcomes that a later attempt keeps instead of asking the insurer again: an answer (found), or
 * a failure a retry cannot change. Every call to a real insurer is billed, so a Universal Search
 * retry asks only the insurers that were unavailable or deferred.
 */
export function isSettled(outcome: InsurerOutcome): boolean {
  return (
    outcome.kind === 'found' ||
    outcome.kind === 'failed' ||
    outcome.kind === 'rejected' ||
    (outcome.kind === 'unavailable' && !outcome.retryable)
  );
}

/** The settled outcomes by insurer code, as stored between attempts. */
export type SettledOutcomes = Record<string, InsurerOutcome>;

export function settledByCode(outcomes: InsurerOutcome[]): SettledOutcomes {
  const settled: SettledOutcomes = {};
  for (const o of outcomes) if (isSettled(o)) settled[o.code] = o;
  return settled;
}
