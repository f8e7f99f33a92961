/**
 * The door of the audit module: what other modules use of it. Another module imports from
 * '@/modules/audit' only (lint refuses otherwise; docs/architecture.md, Module graph).
 */
export { AuditGuard, statementAuditEvent } from './api/audit.guard';
export type { StatementAuditEvent } from './api/audit.guard';
export { AuditModule } from './audit.module';
export { AuditService, RecordedReads } from './domain/audit.service';
export type { RecordedReadsSource } from './domain/audit.service';
export { Audited, NotPatientData } from './domain/audited';
export { AuditEventResponse, ListAuditEventsQuery } from './api/dto/audit-event.dto';
export { RetentionPurgers } from './domain/retention/retention-purgers.port';
export type { RetentionPurger } from './domain/retention/retention-purgers.port';
export {
  TRAIL_RESOURCE_TYPES,
  auditContextOf,
  operatorContext,
  securityEvent,
  systemContext,
  userContext,
} from './domain/security-events';
export type { AuditContext, SecurityAction, SecurityResourceType } from './domain/security-events';
