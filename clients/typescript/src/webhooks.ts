import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import type { components } from './schema.js';

type Schemas = components['schemas'];

/** The body of each event (docs/api.md, Webhooks): the GET answer of what it is about. */
export interface WebhookBodies {
  'eligibility.finished': Schemas['EligibilityResultV2'] | Schemas['EligibilityResultV1'];
  'eligibility.updated': Schemas['EligibilityResultV2'] | Schemas['EligibilityResultV1'];
  'eligibility.batch_finished': Schemas['BatchResponse'];
  'claim.status_changed': Schemas['ClaimResponse'];
  'remittance.received': Schemas['RemittanceResponse'];
  'verification_task.created': Schemas['VerificationTaskResponse'];
  'verification_task.overdue': Schemas['VerificationTaskResponse'];
  'appointment.checked': Schemas['AppointmentResponse'];
  'appointment.coverage_changed': Schemas['AppointmentResponse'];
}
export type WebhookEventType = keyof WebhookBodies;

/** A verified delivery. Narrow on `type` to get its body's type. */
export type WebhookEvent = {
  [T in WebhookEventType]: {
    type: T;
    /** `webhook-id` (= `X-Delivery-Id`): the same on every retry; de-duplicate on it. */
    id: string;
    /** When this attempt was signed. */
    timestamp: Date;
    body: WebhookBodies[T];
  };
}[WebhookEventType];

/** Headers as Node.js (`req.headers`), the Fetch API (`Headers`) or a plain object hold them. */
export type WebhookHeaders =
  | { get(name: string): string | null }
  | Record<string, string | string[] | undefined>;

export { WebhookVerificationError };

function header(headers: WebhookHeaders, name: string): string | undefined {
  if (typeof (headers as { get?: unknown }).get === 'function')
    return (headers as { get(name: string): string | null }).get(name) ?? undefined;
  const record = headers as Record<string, string | string[] | undefined>;
  const key = Object.keys(record).find((k) => k.toLowerCase() === name);
  const value = key === undefined ? undefined : record[key];
  return Array.isArray(value) ? value.join(', ') : value;
}

/**
 * Verifies a delivery with Standard Webhooks (its `webhook-signature` signs the id, the
 * timestamp and the body) and answers it parsed; throws `WebhookVerificationError` for a body
 * or headers that were changed, another secret, or a timestamp more than five minutes from
 * this clock. Pass the raw body exactly as received (not re-serialised JSON). A `whsec_`
 * secret is base64 as the standard says; any other is used as its bytes, as the service does.
 */
export function verifyWebhook(
  payload: string | Uint8Array,
  headers: WebhookHeaders,
  secret: string,
): WebhookEvent {
  const raw = typeof payload === 'string' ? payload : new TextDecoder().decode(payload);
  const wanted = {
    'webhook-id': header(headers, 'webhook-id') ?? '',
    'webhook-timestamp': header(headers, 'webhook-timestamp') ?? '',
    'webhook-signature': header(headers, 'webhook-signature') ?? '',
  };
  const webhook = secret.startsWith('whsec_')
    ? new Webhook(secret)
    : new Webhook(secret, { format: 'raw' });
  const body = webhook.verify(raw, wanted) as WebhookBodies[WebhookEventType];
  const type = header(headers, 'x-event-type');
  if (type === undefined) throw new WebhookVerificationError('Missing X-Event-Type header');
  return {
    type: type as WebhookEventType,
    id: wanted['webhook-id'],
    timestamp: new Date(Number(wanted['webhook-timestamp']) * 1000),
    body,
  } as WebhookEvent;
}
