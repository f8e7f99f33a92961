import { unstorableText } from '@/platform/http/validation/strings';
import type { AuditActorType } from '../store/audit-event.entity';

export interface AuditActor {
  accountId: string;
  type: AuditActorType;
  /** API key prefix or user e-mail. */
  name: string;
  apiKeyId: string | null;
  userId: string | null;
}

export interface AuditRecord {
  actor: AuditActor;
  action: string;
  resourceType: string;
  resourceId: string | null;
  requestId: string | null;
  ip: string | null;
}

/**
 * The columns an event is written with, as stored (`eventRow`): account_id, actor_type, actor,
 * api_key_id, user_id, action, resource_type, resource_id, request_id, ip.
 */
export type AuditEventRow = [
  string,
  string,
  string,
  string | null,
  string | null,
  string,
  string,
  string | null,
  string | null,
  string | null,
];

/** The event as written: text PostgreSQL can store, cut to each column's length. */
export function eventRow(r: AuditRecord): AuditEventRow {
  return [
    r.actor.accountId,
    r.actor.type,
    storable(r.actor.name, 320)!,
    r.actor.apiKeyId,
    r.actor.userId,
    r.action,
    r.resourceType,
    storable(r.resourceId, 256),
    storable(r.requestId, 128),
    storable(r.ip, 64),
  ];
}

/** Text PostgreSQL can store (U+0000 and lone surrogates become U+FFFD), cut to the column's length. */
function storable(value: string | null, max: number): string | null {
  if (value === null) return null;
  const cut = value.slice(0, max);
  return unstorableText(cut) ? Buffer.from(cut).toString().replaceAll('\u0000', '\uFFFD') : cut;
}
