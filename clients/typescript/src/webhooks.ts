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
  { get(name: string): string | null } | Record<string, string | string[] | undefined>;

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
 * Labels that name the same document: the signed body cannot tell them apart, so the unsigned
 * `X-Event-Type` picks among them only (docs/api.md, Webhooks). Both eligibility labels mean
 * "the current result".
 */
type Family<T extends WebhookEventType> = readonly [T, ...T[]];
const ELIGIBILITY: Family<'eligibility.finished' | 'eligibility.updated'> = [
  'eligibility.finished',
  'eligibility.updated',
];
const TASK: Family<'verification_task.overdue' | 'verification_task.created'> = [
  'verification_task.overdue',
  'verification_task.created',
];
const APPOINTMENT: Family<'appointment.checked' | 'appointment.coverage_changed'> = [
  'appointment.checked',
  'appointment.coverage_changed',
];

/** The family's label `label` names, else its first. */
function within<T extends WebhookEventType>(family: Family<T>, label: string | undefined): T {
  return family.find((t) => t === label) ?? family[0];
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The event a signed body is (docs/api.md, Webhooks: each body is the GET answer of what it is
 * about), told by the fields only that document has; `label` (the unsigned `X-Event-Type`) only
 * chooses between labels of one document. A body of no event this client knows is refused.
 */
function eventTypeOf(body: unknown, label: string | undefined): WebhookEventType {
  if (isObject(body)) {
    if ('batch_uid' in body && 'counts' in body) return 'eligibility.batch_finished';
    if ('code' in body && 'status_history' in body) return 'claim.status_changed';
    if ('payment_amount' in body && 'trace_number' in body) return 'remittance.received';
    if ('due_by' in body && 'history' in body && typeof body.overdue === 'boolean')
      // An overdue task's body always says so; one that does not was just created.
      return body.overdue ? within(TASK, label) : 'verification_task.created';
    if ('external_id' in body && 'starts_at' in body) {
      const coverage = body.coverage;
      const changes = isObject(coverage) ? coverage.changes : undefined;
      // coverage_changed is sent only for an answer that changed something.
      return Array.isArray(changes) && changes.length > 0
        ? within(APPOINTMENT, label)
        : 'appointment.checked';
    }
    if ('request_uid' in body && 'status' in body && ('insurers' in body || 'purged' in body))
      return within(ELIGIBILITY, label);
  }
  throw new WebhookVerificationError('The body is not an event this client knows');
}

/**
 * Verifies a delivery with Standard Webhooks (its `webhook-signature` signs the id, the
 * timestamp and the body) and answers it parsed; throws `WebhookVerificationError` for a body
 * or headers that were changed, another secret, or a timestamp more than five minutes from
 * this clock. Pass the raw body exactly as received (not re-serialised JSON). A `whsec_`
 * secret is base64 as the standard says; any other is used as its bytes, as the service does.
 * `type` is read from the signed body, never from the unsigned `X-Event-Type` alone (docs/api.md,
 * Webhooks: which labels share a body).
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
  return {
    type: eventTypeOf(body, header(headers, 'x-event-type')),
    id: wanted['webhook-id'],
    timestamp: new Date(Number(wanted['webhook-timestamp']) * 1000),
    body,
  } as WebhookEvent;
}
