import { ApiProperty } from '@nestjs/swagger';
import { ApiField, ApiNullable, ApiTimestamp } from '@/platform/http/api-docs';
import { formatInstant } from '@/platform/kernel/time';
import { StringField } from '@/platform/http/validation/fields';
import type { AuditEvent } from '../../store/audit-event.entity';
import { TRAIL_ACTIONS, TRAIL_RESOURCE_TYPES } from '../../domain/security-events';
import { NextCursorDoc } from '@/platform/http/pagination/page-query';
import { ListQuery } from '@/platform/http/pagination/list-query';

/** The page (`limit`, `cursor`), then the filters. */
export class ListAuditEventsQuery extends ListQuery {
  @StringField({
    choices: TRAIL_RESOURCE_TYPES,
    example: 'patient',
    description: 'Only events about this kind of record.',
  })
  resource_type?: string | null;

  @StringField({
    maxLength: 256,
    example: 'PAT4Q7ZK2MX',
    description:
      'Only events about this record: a patient or claim code, an eligibility `request_uid`.',
  })
  resource_id?: string | null;
}

export class AuditEventResponse {
  @ApiField('string', { example: '0f8fad5b-d9cb-469f-a165-70867728950e' })
  id: string;

  @ApiTimestamp({ description: 'When it happened.' })
  created_at: string;

  @ApiField('string', {
    enum: ['api_key', 'user', 'embedded', 'operator', 'system'],
    example: 'api_key',
    description:
      'An API key, a user of the web application, an embedded session (the user, signed in ' +
      "by an API key's link; SECURITY.md), the operator at the command line (actor `cli`), or " +
      "the service itself (`system`: an appointment's automatic check, actor `appointment-checks`).",
  })
  actor_type: string;

  @ApiField('string', {
    example: 'vk_Q2xhcml',
    description: "The API key's prefix (as the key list shows it), or the user's e-mail.",
  })
  actor: string;

  @ApiField('string', {
    enum: [...TRAIL_ACTIONS],
    example: 'read',
    description:
      '`read` one record, `list` records, `create`, `update`, `link` (an eligibility request ' +
      'to a patient), `notify` (a claim e-mailed to the customer); security events ' +
      '(SECURITY.md): `sign_in`, `sign_in_failed` (session), `enrol`, `disable`, `fail` (two_factor), ' +
      '`create`, `revoke` (api_key), `create`, `update`, `delete`, `redeliver` (webhook), ' +
      '`mint`, `redeem` (embed_link), `invite`, `accept`, `update`, `disable`, `enable` (user), ' +
      '`change`, `reset` (password); `change`, `delete` (insurer_credentials), `enable`, ' +
      '`disable` (insurer, assisted_insurer, two_factor_requirement), `change` (embedding), ' +
      '`create`, `update` (location).',
  })
  action: string;

  @ApiField('string', { enum: [...TRAIL_RESOURCE_TYPES], example: 'patient' })
  resource_type: string;

  @ApiNullable('string', {
    example: 'PAT4Q7ZK2MX',
    description:
      'The record: a patient or claim code, an eligibility `request_uid`; null for lists.',
  })
  resource_id: string | null;

  @ApiNullable('string', {
    example: '3b1f0d6e-8a52-4f6b-9a5e-2f1c7d9e4a10',
    description: 'The request id (`X-Request-Id`), as the logs name the request.',
  })
  request_id: string | null;

  @ApiNullable('string', { example: '203.0.113.7', description: "The caller's IP address." })
  ip: string | null;

  static from(e: AuditEvent): AuditEventResponse {
    return {
      id: e.id,
      created_at: formatInstant(e.createdAt, 'api'),
      actor_type: e.actorType,
      actor: e.actor,
      action: e.action,
      resource_type: e.resourceType,
      resource_id: e.resourceId,
      request_id: e.requestId,
      ip: e.ip,
    };
  }
}

export class AuditEventListResponse {
  @ApiProperty({ type: [AuditEventResponse], description: 'Newest first.' })
  result: AuditEventResponse[];

  @NextCursorDoc(
    'MjAyNi0xMS0yMVQxMzo1MToxNi45MjZafDBmOGZhZDViLWQ5Y2ItNDY5Zi1hMTY1LTcwODY3NzI4OTUwZQ',
  )
  next_cursor: string | null;
}
