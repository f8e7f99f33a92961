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
 * The verification task behind an insurer's answer (docs/api.md, Universal Search insurer by
 * insurer: an entry's `verification`): this request's own task, or an earlier one reused.
 */
export interface TaskRef {
  task_id: string;
  state: string;
  due_by: string;
  reused?: true;
  /** Reused answers: when the person answered. */
  checked_at?: string;
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
  | {
      code: string;
      kind: 'found';
      plans: InsurerPlanResult[];
      keepPlans?: true;
      /** Answered by a person: their task (this request's, or reused). */
      task?: TaskRef;
      at?: string;
    }
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
      at?: string;
    }
  /** `detail`: words for the answer's `error_detail` (a verifier's reason, docs/api.md, Insurers and assisted verification). */
  | { code: string; kind: 'rejected'; error: string; detail?: string; task?: TaskRef; at?: string }
  | { code: string; kind: 'failed'; error: string; at?: string }
  /** A person is checking this insurer (docs/api.md, Insurers and assisted verification): the request waits for their answer. */
  | { code: string; kind: 'waiting'; task?: TaskRef }
  /**
   * docs/api.md, Universal Search insurer by insurer: not asked, and never will be for this
   * request (an active plan was found elsewhere, or the request asked for no person); `detail`
   * says why.
   */
  | { code: string; kind: 'not_asked'; detail: string; at?: string }
  /**
   * An assisted insurer whose task opens only once every electronic insurer has settled without
   * an active plan (`assisted: when_needed`): nothing is done for it in this run.
   */
  | { code: string; kind: 'held' };

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

/** docs/api.md, Universal Search insurer by insurer: when a request is `complete`. */
export type WaitFor = 'all' | 'electronic' | 'first_active';
/** docs/api.md, Universal Search insurer by insurer: when a person is asked. */
export type AssistedChoice = 'when_needed' | 'always' | 'never';

/** A request's own choices (stored in its `options`; null there: these defaults). */
export interface SearchOptions {
  waitFor: WaitFor;
  assisted: AssistedChoice;
  /** The reuse window for this request, in hours (null: VERIFICATION_REUSE_HOURS). */
  maxAgeHours: number | null;
  /** Its tasks are due by this time at the latest (null: their SLA alone). */
  tasksDueBy: string | null;
}

/** The options as stored (`options` jsonb, snake_case as the API names them). */
export interface StoredOptions {
  wait_for?: WaitFor;
  assisted?: AssistedChoice;
  max_age_hours?: number;
  /**
   * Not a request field: a check the service runs for an appointment (docs/api.md,
   * Appointments) has its tasks due by this time at the latest (an hour before the visit).
   */
  tasks_due_by?: string;
}

export function optionsOf(stored: StoredOptions | null | undefined): SearchOptions {
  return {
    waitFor: stored?.wait_for ?? 'all',
    assisted: stored?.assisted ?? 'when_needed',
    maxAgeHours: stored?.max_age_hours ?? null,
    tasksDueBy: stored?.tasks_due_by ?? null,
  };
}

/** The first outcome with an active plan, in the request's order. */
export function activeFound(outcomes: InsurerOutcome[]): InsurerOutcome | undefined {
  return outcomes.find((o) => o.kind === 'found' && o.plans.some((p) => p.status === 'active'));
}

/**
 * The decision after attempt `attempt` (1-based) given one outcome per insurer, in the request's
 * insurer order. Pure: the runner acts on it. With `first_active`, an active plan ends it at
 * once. Deferral wins over everything else (the insurer will answer later); then transient
 * unavailability is retried up to MAX_SEARCH_ATTEMPTS; then, when a person is checking some
 * insurer, the request waits for them (`all`) or completes without them (`electronic`,
 * `first_active`: their answer joins later); then the request completes with every plan found,
 * or fails: `insurer_problem` when no insurer could be reached at all or each refused the
 * practice's setup (`rejected`, never retried) or was not asked, `unexpected_error` otherwise.
 */
export function decideNext(
  outcomes: InsurerOutcome[],
  attempt: number,
  waitFor: WaitFor = 'all',
): Decision {
  if (waitFor === 'first_active' && activeFound(outcomes))
    return { next: 'complete', found: foundPlans(outcomes) };
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
  if (waiting.length > 0 && waitFor === 'all') return { next: 'wait', codes: waiting };
  const found = foundPlans(outcomes);
  if (waiting.length > 0 || outcomes.some((o) => o.kind === 'found'))
    return { next: 'complete', found };
  const allUnavailable =
    outcomes.length > 0 &&
    outcomes.every(
      (o) => o.kind === 'unavailable' || o.kind === 'rejected' || o.kind === 'not_asked',
    );
  const details = outcomes.flatMap((o) =>
    (o.kind === 'rejected' || o.kind === 'unavailable' || o.kind === 'not_asked') && o.detail
      ? [o.detail]
      : [],
  );
  const errorCode = allUnavailable ? 'insurer_problem' : 'unexpected_error';
  return details.length > 0
    ? { next: 'fail', errorCode, errorDetail: details.join(' ') }
    : { next: 'fail', errorCode };
}

/** Every plan found, in the request's insurer order. */
function foundPlans(outcomes: InsurerOutcome[]): FoundPlan[] {
  return outcomes.flatMap((o) =>
    o.kind === 'found'
      ? o.plans.map((plan): FoundPlan =>
          o.keepPlans ? { code: o.code, plan, keepPlans: true } : { code: o.code, plan },
        )
      : [],
  );
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
    outcome.kind === 'not_asked' ||
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
