import type { EligibilityRequest } from '../../store/eligibility-request.entity';
import type { InsurerSettingRow, ProviderIdentity } from '@/modules/insurers';

/** The lease's select list (LEASED_REQUEST_COLUMNS, SEARCH_SETUP_SQL): SearchRunsRepository's. */
export { LEASED_REQUEST_COLUMNS, SEARCH_SETUP_SQL } from '../../store/search-runs.repository';

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

/**
 * What the calls of one run need besides the request, read with the run's lease (one round trip,
 * SEARCH_SETUP_SQL): the account's settings rows of the request's insurers, and the identity of
 * the request's location (null when it has no NPI: real insurers refuse then).
 */
export interface SearchSetup {
  settings: InsurerSettingRow[];
  provider: ProviderIdentity | null;
}

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
