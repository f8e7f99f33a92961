import { ApiProperty } from '@nestjs/swagger';
import { WEBHOOK_EVENT_TYPES } from '@/platform/http/api-document';
import { ApiField, ApiNullable, ApiTimestamp } from '@/platform/http/api-docs';
import {
  NextCursorDoc,
  PAGE_SIZES,
  PageCursorField,
  PageSizeField,
} from '@/platform/http/pagination/page-query';
import { formatInstant } from '@/platform/kernel/time';
import { BoolField, StringField, StringListField } from '@/platform/http/validation/fields';
import {
  type Webhook,
  type WebhookAttempt,
  type WebhookDelivery,
  WEBHOOK_TOPICS,
  type WebhookTopic,
} from '../../store/webhook.entity';

const SECRET_PATTERN = /^[\x21-\x7e]{8,200}$/;
const SECRET_HELP =
  'Signing secret (8–200 printable ASCII characters). Receivers verify `webhook-signature` (Standard Webhooks: ' +
  'the id, the timestamp and the body, so a replay is refused): a `whsec_…` secret works as-is with Standard ' +
  "Webhooks libraries, any other with `new Webhook(secret, { format: 'raw' })`. The legacy X-Signature (hex " +
  'HMAC-SHA256 of the raw body alone) is still sent. In production a secret is always set (generated when none is given) ' +
  'and one of its own has at least 32 characters. Setting, rotating or removing it needs the read scopes of the ' +
  "webhook's topics, as creating does.";

/** The topics a webhook receives (docs/api.md, Claim lifecycle and Batches), the same on create and update. */
const EventsField = () =>
  StringListField({
    nullable: false,
    minItems: 1,
    maxItems: WEBHOOK_TOPICS.length,
    itemMaxLength: 16,
    unique: true,
    choices: WEBHOOK_TOPICS,
    example: ['eligibility', 'claim'],
    description:
      'What the webhook receives: `eligibility` (results, X-Event-Type `eligibility.finished`, ' +
      'and `eligibility.updated` when a person answers after a request completed), ' +
      '`claim` (every claim status change, `claim.status_changed`), `batch` (a finished batch, ' +
      '`eligibility.batch_finished`), `remittance` (an 835 received, `remittance.received`, the ' +
      "remittance's GET body), `verification` (assisted verification tasks: " +
      "`verification_task.created` and `verification_task.overdue`, the task's GET body), " +
      '`appointment` (`appointment.checked` and `appointment.coverage_changed`, the ' +
      'appointment\'s GET body). Default `["eligibility"]`.',
  });

/** The shared secret, as given (not trimmed). */
const SecretField = (example: string, description: string) =>
  StringField({
    maxLength: 200,
    pattern: SECRET_PATTERN,
    patternMessage: 'Use 8 to 200 printable ASCII characters, no spaces.',
    trim: false,
    example,
    description,
  });

const PORT_HELP =
  'true: `url` may name a port other than 443 and 80 of a public address (a receiver on :8443, say). ' +
  'Without it such a URL is a field error on `url`, and every attempt checks it again. Default false.';

export class CreateWebhookDto {
  @StringField({
    required: true,
    maxLength: 2048,
    example: 'https://pms.example.com/hooks/eligibility',
    description:
      'http or https; private addresses are refused in production; a public address on 443 or 80 ' +
      'unless `allow_nonstandard_port`.',
  })
  url: string;

  @BoolField({ nullable: false, example: false, description: PORT_HELP })
  allow_nonstandard_port?: boolean;

  @SecretField('whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', SECRET_HELP)
  secret?: string | null;

  @BoolField({
    example: false,
    description:
      'true: the service generates a `whsec_` secret and returns it once (ignores `secret`).',
  })
  generate_secret?: boolean | null;

  @BoolField({ nullable: false, example: true, description: 'Default true.' })
  is_active?: boolean;

  @StringField({ maxLength: 500, allowBlank: true, example: 'Front desk PMS' })
  description?: string | null;

  @StringField({
    nullable: false,
    choices: ['v1', 'v2'],
    example: 'v2',
    description: 'Which result shape the webhook receives. Default v2.',
  })
  version?: 'v1' | 'v2';

  @EventsField()
  events?: WebhookTopic[];
}

export class UpdateWebhookDto {
  @StringField({
    nullable: false,
    maxLength: 2048,
    example: 'https://pms.example.com/hooks/eligibility',
  })
  url?: string;

  @BoolField({
    nullable: false,
    example: false,
    description: `${PORT_HELP} false is refused while \`url\` names such a port.`,
  })
  allow_nonstandard_port?: boolean;

  @SecretField('a-new-shared-secret', `${SECRET_HELP} null removes the secret.`)
  secret?: string | null;

  @BoolField({
    example: true,
    description: 'true: rotate to a newly generated secret, returned once in this answer.',
  })
  rotate_secret?: boolean | null;

  @BoolField({ nullable: false, example: false })
  is_active?: boolean;

  @StringField({ maxLength: 500, allowBlank: true, example: 'Front desk PMS' })
  description?: string | null;

  @StringField({ nullable: false, choices: ['v1', 'v2'], example: 'v1' })
  version?: 'v1' | 'v2';

  @EventsField()
  events?: WebhookTopic[];
}

export class WebhookResponse {
  @ApiProperty({ example: '5b0c6f9e-1d2a-4c53-9a55-0f1b8f3c2d11' }) id: string;
  @ApiProperty({ example: 'https://pms.example.com/hooks/eligibility' }) url: string;
  @ApiProperty({ example: true }) is_active: boolean;
  @ApiProperty({ example: 'Front desk PMS' }) description: string;
  @ApiProperty({ enum: ['v1', 'v2'], example: 'v2' }) version: string;
  @ApiProperty({
    type: [String],
    enum: [...WEBHOOK_TOPICS],
    example: ['eligibility'],
    description: 'The topics the webhook receives.',
  })
  events: string[];
  @ApiProperty({ example: true, description: 'Whether deliveries are signed.' })
  has_secret: boolean;
  @ApiProperty({
    example: false,
    description: 'Whether `url` may name a port other than 443 and 80 of a public address.',
  })
  allow_nonstandard_port: boolean;
  @ApiNullable('string', {
    example: null,
    description: 'The secret, only in the answer that created or rotated it; null otherwise.',
  })
  secret: string | null;
  @ApiTimestamp() created_at: string;
  @ApiTimestamp() updated_at: string;

  static from(w: Webhook, secret: string | null = null): WebhookResponse {
    return {
      id: w.id,
      url: w.url,
      is_active: w.isActive,
      description: w.description,
      version: w.version,
      events: w.events,
      has_secret: w.secretSealed !== null,
      allow_nonstandard_port: w.allowNonstandardPort,
      secret,
      created_at: formatInstant(w.createdAt, 'api'),
      updated_at: formatInstant(w.updatedAt, 'api'),
    };
  }
}

export class WebhookListResponse {
  @ApiProperty({ type: [WebhookResponse] }) result: WebhookResponse[];
}

export class AttemptResponse {
  @ApiTimestamp({ example: '2026-11-21T13:51:17.002+00:00' }) started_at: string;
  @ApiNullable('integer', {
    example: 200,
    description: 'null when no HTTP answer came (timeout, refused connection).',
  })
  status_code: number | null;
  @ApiField('integer', { example: 48, minimum: 0 }) duration_ms: number;
  @ApiNullable('string', {
    example: null,
    description:
      'Why the attempt failed (`HTTP 500`, `timed out after 10000 ms`, ...); null on success.',
  })
  error: string | null;
  @ApiNullable('string', {
    example: '{"ok":true}',
    description: 'First 1 KiB of the answer; null when no HTTP answer came.',
  })
  response_body: string | null;
  @ApiProperty({ example: false, description: 'true for a redelivery asked for by a person.' })
  manual: boolean;

  static from(a: WebhookAttempt): AttemptResponse {
    return {
      started_at: formatInstant(a.startedAt, 'api'),
      status_code: a.statusCode,
      duration_ms: a.durationMs,
      error: a.error,
      response_body: a.responseBody,
      manual: a.manual,
    };
  }
}

export class DeliveryResponse {
  @ApiProperty({
    example: '0d3c2a8e-7b61-4f0e-8d7c-3b8b1e0c9a47',
    description: 'Also sent as X-Delivery-Id and webhook-id.',
  })
  id: string;
  @ApiProperty({ example: '5b0c6f9e-1d2a-4c53-9a55-0f1b8f3c2d11' }) webhook_id: string;
  @ApiProperty({
    example: 'eligibility.finished',
    enum: WEBHOOK_EVENT_TYPES,
    description: 'The event delivered (also sent as X-Event-Type).',
  })
  event: string;
  @ApiProperty({
    example: 'visit-2026-11-21-0042',
    description:
      'What the delivery is about: the eligibility request uid, the claim code or the batch uid.',
  })
  request_uid: string;
  @ApiProperty({ enum: ['pending', 'succeeded', 'failed'], example: 'succeeded' }) status: string;
  @ApiField('integer', { example: 1, minimum: 0, description: 'Automatic attempts so far.' })
  attempt_count: number;
  @ApiNullable('date-time', {
    example: null,
    description: 'When the next automatic attempt is due, while `pending`; null otherwise.',
  })
  next_attempt_at: string | null;
  @ApiTimestamp({ example: '2026-11-21T13:51:16.990+00:00' }) created_at: string;
  @ApiNullable('date-time', {
    example: '2026-11-21T13:51:17.050+00:00',
    description: 'When it ended `succeeded` or `failed`; null while `pending`.',
  })
  completed_at: string | null;
  @ApiProperty({ type: [AttemptResponse] }) attempts: AttemptResponse[];

  static from(d: WebhookDelivery, attempts: WebhookAttempt[]): DeliveryResponse {
    return {
      id: d.id,
      webhook_id: d.webhookId,
      event: d.event,
      request_uid: d.requestUid,
      status: d.status,
      attempt_count: d.attemptCount,
      next_attempt_at:
        d.status === 'pending' && d.nextAttemptAt ? formatInstant(d.nextAttemptAt, 'api') : null,
      created_at: formatInstant(d.createdAt, 'api'),
      completed_at: d.completedAt ? formatInstant(d.completedAt, 'api') : null,
      attempts: attempts.map(AttemptResponse.from),
    };
  }
}

export class DeliveryListResponse {
  @ApiProperty({ type: [DeliveryResponse] }) result: DeliveryResponse[];
  @NextCursorDoc(null, '?cursor=')
  next_cursor: string | null;
}

export class DeliveryListQuery {
  @PageSizeField(PAGE_SIZES.list, { described: false })
  limit?: number;

  @PageCursorField('MjAyNi0xMS0yMVQxMzo1MToxNi45OTBafDBkM2My')
  cursor?: string;
}
