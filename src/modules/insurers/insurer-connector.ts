import type { Plan } from '@/modules/benefits/benefit.types';

/**
 * What a connector to one insurer does. A new insurer is one class implementing this interface,
 * decorated with @InsurerConnectorFor('<code>') and listed in InsurersModule's providers; the
 * registry discovers it, nothing else changes.
 */
export interface InsurerConnector {
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
}

export interface PlanDetailsQuery {
  /** The search query that found the person. */
  query: MemberQuery;
  /** What the earlier search said about the plan and the person (the connector's own keys). */
  plan: InsurerPlanResult;
  person: InsurerPerson;
}

export interface ConnectorContext {
  accountId: string;
  /** The eligibility request's uid, for the insurer's correlation logs. */
  requestUid: string;
  /** Milliseconds since the request was accepted (lets slow insurers be polled later). */
  elapsedMs: number;
  /** The account's credentials for this insurer, decrypted; null when none are set. */
  credentials: InsurerCredentials | null;
  signal?: AbortSignal;
}

export interface InsurerCredentials {
  username: string;
  password: string;
}

export interface Address {
  line1: string;
  line2: string | null;
  city: string;
  zipcode: string;
  state: string;
}

export interface InsurerPerson {
  firstName: string;
  lastName: string;
  dob: string;
  sex: string;
  memberId: string | null;
  ssnLastFour: string | null;
  /** Relationship to the member: `self`, `spouse`, `child`, ... */
  type: string;
  address: Address;
  email: string | null;
  phone: string;
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

/** The insurer answered now, or asks to be asked again later (slow insurers, sandbox delays). */
export type SearchOutcome =
  { kind: 'found'; plans: InsurerPlanResult[] } | { kind: 'deferred'; retryAfterMs: number };
export type DetailsOutcome =
  { kind: 'found'; plan: InsurerPlanResult } | { kind: 'deferred'; retryAfterMs: number };

/**
 * The insurer could not be reached or refused for now (maintenance, timeouts, bad credentials):
 * retried with backoff, and ends as `insurer_problem`. Any other error is `unexpected_error`.
 */
export class InsurerUnavailableError extends Error {
  override readonly name = 'InsurerUnavailableError';
}
