import type { EligibilityRequest } from './eligibility-request.entity';
import type { ProviderIdentity } from '@/modules/insurers/insurer-connector';
import type { InsurerSettingRow } from '@/modules/insurers/insurer-settings.service';

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

/**
 * What the calls of one run need besides the request, read with the run's lease (one round trip,
 * SEARCH_SETUP_SQL): the account's settings rows of the request's insurers, and the identity of
 * the request's location (null when it has no NPI: real insurers refuse then).
 */
export interface SearchSetup {
  settings: InsurerSettingRow[];
  provider: ProviderIdentity | null;
}

/**
 * Select-list expressions over the lease's CTE `leased` (with "accountId", "locationId" and
 * "insurerCodes") answering `settings` and `provider` as JSON; `setupOf` reads them.
 */
export const SEARCH_SETUP_SQL = `
  (SELECT COALESCE(json_agg(json_build_object('insurer_code', ai.insurer_code, 'enabled', ai.enabled,
      'username', ai.username, 'password_sealed', ai.password_sealed,
      'eligibility_mode', ai.eligibility_mode)), '[]'::json)
   FROM account_insurers ai
   WHERE ai.account_id = leased."accountId" AND ai.insurer_code = ANY(leased."insurerCodes")) AS settings,
  (SELECT json_build_object('npi', l.npi, 'organization_name', COALESCE(l.organization_name, l.title),
      'tax_id', l.tax_id)
   FROM locations l
   WHERE l.id = leased."locationId" AND l.account_id = leased."accountId" AND l.npi IS NOT NULL) AS provider`;

/** The SearchSetup of a lease's row with SEARCH_SETUP_SQL's columns. */
export function setupOf(row: { settings: unknown; provider: unknown }): SearchSetup {
  const provider = row.provider as {
    npi: string;
    organization_name: string;
    tax_id: string | null;
  } | null;
  return {
    settings: row.settings as InsurerSettingRow[],
    provider: provider
      ? { npi: provider.npi, organizationName: provider.organization_name, taxId: provider.tax_id }
      : null,
  };
}
