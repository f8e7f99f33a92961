/**
 * The door of the insurers module: what other modules use of it. Another module imports from
 * '@/modules/insurers' only (lint refuses otherwise; docs/architecture.md, Module graph).
 */
export { CLAIMS_MAILING_ADDRESSES, mailingLines } from './domain/claims-mailing-addresses';
export { describeAaa } from './domain/clearinghouse/aaa-codes';
export { ClaimsClearinghouseClient } from './domain/clearinghouse/claims-clearinghouse.client';
export { claimsClearinghouseClientProvider } from './domain/clearinghouse/clearinghouse.providers';
export { CallFailure } from './domain/clearinghouse/clearinghouse-http';
export {
  KNOWN_INSURERS,
  KNOWN_INSURER_CODES,
  insurerName,
  isKnownInsurer,
  unknownInsurerMessages,
} from './domain/insurer-codes';
export type { InsurerCode } from './domain/insurer-codes';
export {
  ConnectorContext,
  InsurerConnector,
  InsurerCredentials,
  InsurerPlanResult,
  InsurerUnavailableError,
  OutcomeWithoutPlans,
  WireExchange,
} from './domain/insurer-connector';
export type {
  MemberQuery,
  PlanDetailsQuery,
  PlanStatus,
  ProviderIdentity,
  StoredInsurerPerson,
} from './domain/insurer-connector';
export { SHIPPED_INSURERS } from './domain/insurer-directory.table';
export { AssistedTaskStats } from './domain/assisted-task-stats.port';
export type {
  AssistedTaskStatsEntry,
  AssistedTaskStatsPort,
} from './domain/assisted-task-stats.port';
export { InsurerCallStats } from './domain/insurer-call-stats.port';
export type { InsurerCallStatsEntry, InsurerCallStatsPort } from './domain/insurer-call-stats.port';
// The directory, which the MCP door's list_insurers tool answers from (docs/api.md, MCP).
export { InsurerDirectory } from './domain/insurer-directory.service';
export { InsurerRegistry } from './domain/insurer-registry.service';
export { InsurerSettingsSql } from './store/insurer-settings-sql';
export { InsurerSettingsService } from './domain/insurer-settings.service';
export type { InsurerSettingRow } from './domain/insurer-settings.service';
export { InsurersModule } from './insurers.module';
export { InsurersPagesModule } from './pages/insurers-pages.module';
