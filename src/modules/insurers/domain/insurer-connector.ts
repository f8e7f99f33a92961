import type { Plan } from '@/lib/benefits';
import type { StreetAddress } from '@/lib/person';

/**
 * What a connector to one insurer does. A new insurer is one class implementing this interface,
 * decorated with @InsurerConnectorFor('<code>', ...) and listed in InsurersModule's providers;
 * the registry discovers it, nothing else changes. Several codes may share one class (the X12
 * connector serves every insurer with a payer id): `context.insurerCode` says which is asked.
 */
export interface InsurerConnector {
  /**
   * True when the connector answers in this process (the sandbox): there is no payer whose
   * capacity the per-insurer concurrency limit (INSURER_CONCURRENCY) protects, so its calls take
   * no slot.
   */
  readonly local?: boolean;
  /**
   * True when the connector signs in to the insurer with the account's stored username and
   * password (`context.credentials`, set on the Passwords page). The Passwords page asks only
   * for these; none of the shipped connectors needs them (the sandbox needs no sign-in, the X12
   * connector signs in to the clearinghouse with the service's own credentials).
   */
  readonly usesAccountCredentials?: boolean;
  /** Finds the member and the plans covering them. */
  search(query: MemberQuery, context: ConnectorContext): Promise<SearchOutcome>;
  /** The deepest plan detail the insurer gives for one person of an earlier search. */
  fetchPlanDetails(query: PlanDetailsQuery, context: ConnectorContext): Promise<DetailsOutcome>;
}

export interface MemberQuery {
  firstName: string;
  lastName: string;
  dob: string;
  zipcode: string;
  ssnLastFour: string | null;
  memberId: string | null;
  /** docs/api.md, Real insurers: the subscriber when the patient is their dependent; absent otherwise. */
  subscriber?: SubscriberQuery;
}

export type SubscriberQuery = Pick<MemberQuery, 'firstName' | 'lastName' | 'dob' | 'memberId'>;

/**
 * A person as an earlier search stored them. Their plan is in the stored answer's bodies; the
 * person's row keeps it only where a verifier gave it (docs/api.md, Insurers and assisted verification), else `null`.
 */
export type StoredInsurerPerson = Omit<InsurerPerson, 'plan'> & { plan: Plan | null };

export interface PlanDetailsQuery {
  /** The search query that found the person. */
  query: MemberQuery;
  /** What the earlier search said about the plan and the person (the connector's own keys). */
  plan: Omit<InsurerPlanResult, 'persons'> & { persons: StoredInsurerPerson[] };
  person: StoredInsurerPerson;
}

export interface ConnectorContext {
  accountId: string;
  /** The insurer asked (a connector may serve several codes). */
  insurerCode: string;
  /** The eligibility request's uid, for the insurer's correlation logs. */
  requestUid: string;
  /** Milliseconds since the request was accepted (lets slow insurers be polled later). */
  elapsedMs: number;
  /** The account's credentials for this insurer, decrypted; null when none are set. */
  credentials: InsurerCredentials | null;
  /** The location's provider identity (docs/api.md, Real insurers); null when the location has no NPI. */
  provider: ProviderIdentity | null;
  /** Epoch milliseconds by which the call must have ended (INSURER_TIMEOUT_MS from its start). */
  deadline: number;
  /** Aborted at the deadline: stop waiting on the insurer. */
  signal: AbortSignal;
  /**
   * Records what went over the wire for the insurer exchange log (patient data: stored with the
   * check, never logged). Connectors without a wire protocol need not call it.
   */
  recordExchange(wire: WireExchange): void;
}

/** The practice's identity a real insurer is asked under (a location's NPI, name, tax id). */
export interface ProviderIdentity {
  /** 10 digits, Luhn check digit over the 80840 prefix. */
  npi: string;
  organizationName: string;
  /** 9 digits (EIN), or null. */
  taxId: string | null;
}

/** One call as it went over the wire. */
export interface WireExchange {
  /** The endpoint, without credentials. */
  url: string | null;
  /** What was sent (a 270), or null when nothing was. */
  request: string | null;
  /** What came back (a 271 or an error body), or null when nothing did. */
  response: string | null;
  httpStatus: number | null;
  /** AAA03 reject reasons of the answer, in order, without repeats. */
  aaaCodes: string[];
  traceNumber: string | null;
  /**
   * What the answer carried that was read past (envelope slips, benefit-level AAA, skipped
   * lines: docs/api.md, Real insurers), in words; the log keeps it when the call otherwise succeeded.
   */
  notes?: string[];
}

export interface InsurerCredentials {
  username: string;
  password: string;
}

export interface InsurerPerson {
  firstName: string;
  lastName: string;
  dob: string;
  /** Null only where a verifier did not see it (docs/api.md "Verification tasks"). */
  sex: string | null;
  memberId: string | null;
  ssnLastFour: string | null;
  /** Relationship to the member: `self`, `spouse`, `child`, ... */
  type: string;
  /** Null only where a verifier did not see it, as `sex`. */
  address: StreetAddress | null;
  email: string | null;
  /** Null only where a verifier did not see it, as `sex`. */
  phone: string | null;
  isActive: boolean | null;
  plan: Plan;
}

export type PlanStatus = 'active' | 'inactive' | 'out_of_network' | 'unavailable';

export interface InsurerPlanResult {
  status: PlanStatus;
  planName: string;
  planGroup: string;
  planGroupId: string | null;
  planBeginDate: string;
  planEndDate: string | null;
  planRefreshDate: string | null;
  planIsActive: boolean;
  persons: InsurerPerson[];
}

/**
 * How a call ended, whatever the insurer (docs/api.md, Real insurers):
 * - `not_found`: the insurer knows no such member (`complete` with no results);
 * - `rejected`: the practice's setup is wrong (no NPI, provider not on file, bad credentials):
 *   no retry can help, `insurer_problem` at once;
 * - `unavailable`: not now (outage, throttling, timeout): retried with backoff (no sooner than
 *   `retryAfterMs` when the insurer said so), then `insurer_problem`;
 * - `unexpected`: an answer the service cannot use (`unexpected_error`);
 * - `deferred`: the insurer asks to be asked again later (slow insurers, sandbox delays); not an
 *   attempt.
 * Throwing InsurerUnavailableError is the same as answering `unavailable`; any other error is
 * `unexpected`.
 */
export type OutcomeWithoutPlans =
  | { kind: 'not_found'; reason: string }
  | { kind: 'rejected'; reason: string }
  | { kind: 'unavailable'; reason: string; retryAfterMs: number | null }
  | { kind: 'unexpected'; reason: string }
  | { kind: 'deferred'; retryAfterMs: number };

export type SearchOutcome = { kind: 'found'; plans: InsurerPlanResult[] } | OutcomeWithoutPlans;
export type DetailsOutcome = { kind: 'found'; plan: InsurerPlanResult } | OutcomeWithoutPlans;

/**
 * The insurer could not be reached or refused for now (maintenance, timeouts, bad credentials):
 * retried with backoff, and ends as `insurer_problem`. Any other error is `unexpected_error`.
 */
export class InsurerUnavailableError extends Error {
  override readonly name = 'InsurerUnavailableError';
}
