/**
 * The door of the insurers module: what other modules use of it. Another module imports from
 * '@/modules/insurers' only (lint refuses otherwise; docs/architecture.md, Module graph).
 */
export { CLAIMS_MAILING_ADDRESSES, mailingLines } from './claims-mailing-addresses';
export { describeAaa } from './clearinghouse/aaa-codes';
export { ClaimsClearinghouseClient } from './clearinghouse/claims-clearinghouse.client';
export { claimsClearinghouseClientProvider } from './clearinghouse/claims-clearinghouse.provider';
export { CallFailure } from './clearinghouse/clearinghouse-http';
export { KNOWN_INSURERS, KNOWN_INSURER_CODES, insurerName, isKnownInsurer } from './insurer-codes';
export type { InsurerCode } from './insurer-codes';
export {
  ConnectorContext,
  InsurerConnector,
  InsurerCredentials,
  InsurerPlanResult,
  InsurerUnavailableError,
  OutcomeWithoutPlans,
  WireExchange,
} from './insurer-connector';
export type {
  Address,
  MemberQuery,
  PlanDetailsQuery,
  PlanStatus,
  ProviderIdentity,
  StoredInsurerPerson,
} from './insurer-connector';
export { SHIPPED_INSURERS } from './insurer-directory.table';
export { InsurerRegistry } from './insurer-registry.service';
export { InsurerSettingsSql } from './insurer-settings-sql';
export { InsurerSettingsService } from './insurer-settings.service';
export type { InsurerSetting, InsurerSettingRow } from './insurer-settings.service';
export { InsurersModule } from './insurers.module';
