import type { InsurerPlanResult, SubscriberQuery } from '../insurer-connector';

/** One eligibility question for a real insurer, asked over X12 through the clearinghouse. */
export interface EligibilityCheck {
  insurerCode: string;
  /** NM109 and NM103 of 2100A. */
  payerId: string;
  payerName: string;
  /** The location's provider identity (docs/api.md, Real insurers). */
  provider: { npi: string; organizationName: string; taxId: string | null };
  patient: SubscriberQuery;
  /**
   * docs/api.md, Real insurers: the subscriber when the patient is their dependent: the 270 names the
   * subscriber in 2000C and the patient in 2000D.
   */
  subscriber?: SubscriberQuery;
  /** EQ01; the insurer's configured service types when not given. */
  serviceTypes?: readonly string[];
  /** Epoch milliseconds by which the call must have ended. */
  deadline: number;
  signal?: AbortSignal;
}

/**
 * How the call ended (docs/api.md, Real insurers): found plans, not found (`complete`, no results), rejected
 * (the practice's setup; no retry), unavailable (retry later), unexpected (`unexpected_error`).
 */
export type EligibilityOutcome =
  | { kind: 'found'; plans: InsurerPlanResult[] }
  | { kind: 'not_found'; reason: string }
  | { kind: 'rejected'; reason: string }
  | { kind: 'unavailable'; reason: string; retryAfterMs: number | null }
  | { kind: 'unexpected'; reason: string };

/**
 * The record of one call for the insurer exchange log. It holds patient data (the 270 and 271):
 * store it with the check, never log it or send it in webhooks.
 */
export interface InsurerExchange {
  insurerCode: string;
  startedAt: string;
  durationMs: number;
  /** The endpoint, without credentials. */
  url: string;
  /** The 270 interchange sent. */
  request: string;
  /** The 271 interchange received, or the body of a non-X12 answer; null when none came. */
  response: string | null;
  httpStatus: number | null;
  /** AAA03 codes of the 271, in order, without repeats. */
  aaaCodes: string[];
  outcome: EligibilityOutcome['kind'];
  /** Why the call did not find plans, in words; null when it did. */
  error: string | null;
  /** TRN02 of the 270 (the 271 must echo it). */
  traceNumber: string;
  /** What the 271 carried that was read past (docs/api.md, Real insurers), in words. */
  notes: string[];
}

export interface EligibilityCheckResult {
  outcome: EligibilityOutcome;
  exchange: InsurerExchange;
}
