import type { EligibilityRequest } from './eligibility-request.entity';

/** What a run needs of its request, as its lease answers it (property names as the entity's). */
export type LeasedRequest = Pick<
  EligibilityRequest,
  | 'id'
  | 'accountId'
  | 'uid'
  | 'kind'
  | 'parentId'
  | 'locationId'
  | 'insurerCodes'
  | 'query'
  | 'target'
  | 'status'
  | 'attempts'
  | 'insurerOutcomes'
  | 'batchId'
  | 'createdAt'
>;

/**
 * A leased request row: the request, its attempt number (the count after the lease), and what its
 * insurer calls need (SEARCH_SETUP_SQL's `settings` and `provider`). Answered by the run's lease,
 * or by intake's INSERT when it stores the row already leased to a local run.
 */
export type LeasedRow = LeasedRequest & { attempt: number; settings: unknown; provider: unknown };

/** The RETURNING list of LeasedRequest, over `eligibility_requests`. */
export const LEASED_REQUEST_COLUMNS = `id, account_id AS "accountId", uid, kind, parent_id AS "parentId",
  location_id AS "locationId", insurer_codes AS "insurerCodes", query, target, status, attempts,
  insurer_outcomes AS "insurerOutcomes", batch_id AS "batchId", created_at AS "createdAt"`;
