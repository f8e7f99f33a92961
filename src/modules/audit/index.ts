/**
 * The door of the audit module: what other modules use of it. Another module imports from
 * '@/modules/audit' only (lint refuses otherwise; docs/architecture.md, Module graph).
 */
export { AuditGuard, statementAuditEvent } from './audit.guard';
export type { StatementAuditEvent } from './audit.guard';
export { AuditModule } from './audit.module';
export { AuditService, RecordedReads } from './audit.service';
export type { RecordedReadsSource } from './audit.service';
export { Audited, NotPatientData } from './audited';
export { AuditEventResponse, ListAuditEventsQuery } from './dto/audit-event.dto';
export { RetentionPurgers } from './retention/retention-purgers.port';
export type { RetentionPurger } from './retention/retention-purgers.port';
export {
  TRAIL_RESOURCE_TYPES,
  auditContextOf,
  operatorContext,
  securityEvent,
  userContext,
} from './security-events';
export type { AuditContext, SecurityAction, SecurityResourceType } from './security-events';
