import { SetMetadata } from '@nestjs/common';

/**
 * What a route does to patient data, declared on the route: the global AuditGuard records
 * one audit event for each successful call. Every route under /api/ declares either @Audited or
 * @NotPatientData, or the application refuses to start (RouteDeclarationCheck).
 */
export const AUDIT_RESOURCE_TYPES = [
  'eligibility_request',
  'patient',
  'claim',
  'estimate',
  'insurer_exchange',
  'eligibility_batch',
  'claim_report',
  'remittance',
  'verification_task',
  'insurer_credentials',
  'plan_design',
  'appointment',
  'quote',
  // A call of an MCP tool (docs/api.md, MCP): its id is the tool's name.
  'mcp_tool',
] as const;
export type AuditResourceType = (typeof AUDIT_RESOURCE_TYPES)[number];

export const AUDIT_ACTIONS = [
  'read',
  'list',
  'create',
  'update',
  'link',
  'notify',
  'call',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/**
 * Where the resource id comes from: a path parameter, a field of the handler's result, of the
 * body or of the query, or the last segment of the redirect's Location (web forms that create).
 * null for lists.
 */
export type AuditIdSource =
  `param:${string}` | `result:${string}` | `body:${string}` | `query:${string}` | 'location' | null;

export interface AuditSpec {
  resourceType: AuditResourceType;
  action: AuditAction;
  id: AuditIdSource;
  /**
   * The handler writes the event itself, in the statement that reads the data
   * (`RecordedReads`): the guard only prepares the event (`statementAuditEvent`).
   */
  inStatement?: true;
}

export const AUDIT_METADATA = 'vision:audit';
export const NOT_PATIENT_DATA = 'not-patient-data';

export const Audited = (
  resourceType: AuditResourceType,
  action: AuditAction,
  id: AuditIdSource = null,
  options: { inStatement?: true } = {},
): MethodDecorator =>
  SetMetadata(AUDIT_METADATA, { resourceType, action, id, ...options } satisfies AuditSpec);

/** The route neither reads nor changes patient data (webhook settings, locations, the trail). */
export const NotPatientData = (): MethodDecorator => SetMetadata(AUDIT_METADATA, NOT_PATIENT_DATA);
