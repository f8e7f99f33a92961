import type { Request } from 'express';
import type { AppRequest } from '@/platform/kernel/request-context';
import { actorOf } from '../api/audit.guard';
import { AUDIT_ACTIONS, AUDIT_RESOURCE_TYPES } from './audited';
import type { AuditActor, AuditRecord } from './audit.service';

/**
 * Security events in the audit trail (SECURITY.md), beside the reads and changes of patient
 * data: who signed in or failed to, two-factor changes, API keys, webhooks, embed links.
 * `resource_type` says what it was about, `action` what happened to it.
 */
export const SECURITY_RESOURCE_TYPES = [
  'session',
  'two_factor',
  'api_key',
  'webhook',
  'embed_link',
  // People (SECURITY.md): a user invited, changed, disabled; a password changed or reset.
  'user',
  'password',
  // Account settings: an insurer's stored portal login set or deleted, an insurer switched on or
  // off, its checks sent to a person (assisted) or not, two-factor required of everyone or not,
  // the origins allowed to embed the application, a location's provider identity.
  'insurer_credentials',
  'insurer',
  'assisted_insurer',
  'two_factor_requirement',
  'embedding',
  'location',
] as const;
export type SecurityResourceType = (typeof SECURITY_RESOURCE_TYPES)[number];

export const SECURITY_ACTIONS = [
  'sign_in',
  'sign_in_failed',
  'enrol',
  'disable',
  'fail',
  'revoke',
  'delete',
  'redeliver',
  'mint',
  'redeem',
  'invite',
  'enable',
  'accept',
  'change',
  'reset',
  // A password change refused for a wrong current password (someone at an open session guessing).
  'change_failed',
  // A session ended by its user: one of them, or all ("sign out everywhere").
  'end',
  'end_all',
] as const;
export type SecurityAction = (typeof SECURITY_ACTIONS)[number] | 'create' | 'update';

/** Everything the trail's `resource_type` and `action` can say (the list's filter, the docs). */
export const TRAIL_RESOURCE_TYPES: readonly string[] = [
  ...new Set<string>([...AUDIT_RESOURCE_TYPES, ...SECURITY_RESOURCE_TYPES]),
];
export const TRAIL_ACTIONS: readonly string[] = [
  ...new Set<string>([...AUDIT_ACTIONS, ...SECURITY_ACTIONS]),
];

/** Who did it and from where: what a service needs to record a security event. */
export interface AuditContext {
  actor: AuditActor;
  requestId: string | null;
  ip: string | null;
}

/** The request's actor (API key, web user or embedded session), or null when none. */
export function auditContextOf(req: Request): AuditContext | null {
  const actor = actorOf(req as AppRequest);
  return actor ? { actor, requestId: (req as AppRequest).id ?? null, ip: req.ip ?? null } : null;
}

/** A user named before a session exists (a sign-in attempt): the event's actor is that user. */
export function userContext(
  req: Request,
  user: { id: string; accountId: string; email: string },
): AuditContext {
  return {
    actor: {
      accountId: user.accountId,
      type: 'user',
      name: user.email,
      apiKeyId: null,
      userId: user.id,
    },
    requestId: (req as AppRequest).id ?? null,
    ip: req.ip ?? null,
  };
}

/**
 * The operator at the command line (`npm run cli -- api-keys:create ...`): no key, no user, no
 * request; the event still lands in the account's trail, said to be the operator's.
 */
export function operatorContext(accountId: string): AuditContext {
  return {
    actor: { accountId, type: 'operator', name: 'cli', apiKeyId: null, userId: null },
    requestId: null,
    ip: null,
  };
}

/**
 * The service's own work (`name`: what does it, e.g. `appointment-checks`): no key, no user, no
 * request; the event lands in the account's trail as the `system` actor's.
 */
export function systemContext(accountId: string, name: string): AuditContext {
  return {
    actor: { accountId, type: 'system', name, apiKeyId: null, userId: null },
    requestId: null,
    ip: null,
  };
}

export function securityEvent(
  ctx: AuditContext,
  resourceType: SecurityResourceType,
  action: SecurityAction,
  resourceId: string | null,
): AuditRecord {
  return { ...ctx, action, resourceType, resourceId };
}
