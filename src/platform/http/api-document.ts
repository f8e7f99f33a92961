import type { OpenAPIObject } from '@nestjs/swagger';
import { documentHttpDetails, doorAnswers, insurerCodeEnums } from './api-document-details';
import { MSG } from '@/platform/kernel/messages';
import { ERROR_SCHEMAS, NULL_ONLY_SCHEMA, ref } from './api-docs';
import { WEBHOOK_EVENT_TYPES, WEBHOOK_EVENTS } from './webhook-events.doc';

export { WEBHOOK_EVENT_TYPES, WEBHOOK_EVENTS } from './webhook-events.doc';

type Schema = Record<string, unknown>;

/** The tags of the controllers, in the order Swagger UI shows them. */
export const API_TAGS: Record<string, string> = {
  Eligibility:
    'Eligibility checks run in the background: start one, then poll the V1 or V2 result (or ' +
    'receive it by webhook). Universal Search asks several insurers in one request.',
  Patients: 'Patient records of the account, and the eligibility requests linked to them.',
  Claims: 'Out-of-network vision claims and their e-mail notification.',
  Webhooks:
    'Where finished eligibility results are POSTed. The deliveries are described as callbacks ' +
    'of `POST /api/auth/v1/webhooks/`.',
  Locations: "The account's practice locations (`location_code`).",
  'Embedded session': 'A signed-in URL of the web application, for an iframe.',
  Audit:
    'Who read or changed which patient record (SECURITY.md): every eligibility result, ' +
    'patient, claim and estimate touched by an API key or a web user. Append-only.',
  Health: 'Unauthenticated probes for load balancers and orchestrators.',
};

const ERROR_COMPONENTS: Record<string, Schema> = {
  [ERROR_SCHEMAS.detail]: {
    type: 'object',
    properties: {
      detail: { type: 'string', example: 'Not found.' },
      // docs/api.md, Conventions: a path that is no route says where the routes are.
      hint: { type: 'string', description: 'How to get it right, when the answer knows.' },
    },
    required: ['detail'],
  },
  [ERROR_SCHEMAS.auth]: {
    type: 'object',
    properties: {
      detail: {
        type: 'string',
        enum: [
          'Authentication credentials were not provided.',
          'Unknown authentication token type.',
          'Invalid authentication token.',
        ],
      },
      hint: { type: 'string', example: 'Send the header Authorization: Api <key>.' },
    },
    required: ['detail', 'hint'],
  },
  [ERROR_SCHEMAS.validation]: {
    type: 'object',
    properties: { errors: ref('FieldErrors') },
    required: ['errors'],
  },
  FieldErrors: {
    type: 'object',
    description:
      'Errors of one object: `$` holds the messages about the object itself (or the whole ' +
      'request at the top); every other key is a field name or an array index ("0") with that ' +
      "field's errors, nested like the body.",
    properties: { $: { type: 'array', items: { type: 'string' } } },
    additionalProperties: ref('FieldErrors'),
  },
};

const header = (name: string, description: string, required: boolean, schema: Schema) => ({
  name,
  in: 'header' as const,
  description,
  required,
  schema,
});

/** The headers of every delivery (webhook-sender.ts). */
const DELIVERY_HEADERS = {
  WebhookEventType: header('X-Event-Type', 'The event of this delivery.', true, {
    type: 'string',
    enum: WEBHOOK_EVENT_TYPES,
    example: 'eligibility.finished',
  }),
  WebhookDeliveryId: header(
    'X-Delivery-Id',
    'Identifies the delivery; the same on every retry and redelivery of it: de-duplicate on it.',
    true,
    { type: 'string', format: 'uuid', example: '0d3c2a8e-7b61-4f0e-8d7c-3b8b1e0c9a47' },
  ),
  WebhookSignature: header(
    'X-Signature',
    'Legacy, kept for existing receivers. Only when the webhook has a secret: hex HMAC-SHA256 of ' +
      'the raw body, keyed with the secret as given. It signs no time, so a captured delivery can ' +
      'be replayed: verify `webhook-signature` and `webhook-timestamp` instead.',
    false,
    { type: 'string', pattern: '^[0-9a-f]{64}$' },
  ),
  StandardWebhookId: header(
    'webhook-id',
    'Standard Webhooks: the same value as X-Delivery-Id.',
    true,
    { type: 'string', format: 'uuid' },
  ),
  StandardWebhookTimestamp: header(
    'webhook-timestamp',
    'Standard Webhooks: seconds since the Unix epoch at the time of this attempt.',
    true,
    { type: 'string', pattern: '^\\d+$', example: '1795268116' },
  ),
  StandardWebhookSignature: header(
    'webhook-signature',
    'Standard Webhooks, only when the webhook has a secret: `v1,<base64 HMAC-SHA256 of ' +
      '"{webhook-id}.{webhook-timestamp}.{body}">`. A `whsec_` secret is base64 (as the standard ' +
      "says); any other secret is used as raw bytes (`new Webhook(secret, { format: 'raw' })`). " +
      'Verify this one: it signs the time, so refuse a `webhook-timestamp` more than five minutes ' +
      'from your clock, and de-duplicate on `webhook-id` (a replayed delivery fails both).',
    false,
    { type: 'string', pattern: '^v1,[A-Za-z0-9+/=]+$' },
  ),
};

function deliveryCallback(event: (typeof WEBHOOK_EVENTS)[number]) {
  // X-Event-Type of this callback names its one event; the others are shared components.
  const params = Object.keys(DELIVERY_HEADERS).map((name) =>
    name === 'WebhookEventType'
      ? { ...DELIVERY_HEADERS.WebhookEventType, schema: { type: 'string', enum: [event.type] } }
      : { $ref: `#/components/parameters/${name}` },
  );
  return {
    '{$request.body#/url}': {
      post: {
        summary: event.summary,
        description:
          `${event.description}\n\nSent with \`X-Event-Type: ${event.type}\` as ` +
          '`Content-Type: application/json`. Any 2xx answer within the timeout (10 s) is success; ' +
          'anything else is retried with exponential backoff for about a day (at least 8 ' +
          'attempts), with the same body and X-Delivery-Id. Every attempt is listed by ' +
          '`GET /api/auth/v1/webhooks/{id}/deliveries/`.',
        operationId: `webhook_${event.type.replace(/\W/g, '_')}`,
        parameters: params,
        requestBody: {
          required: true,
          content: { 'application/json': { schema: event.payload } },
        },
        responses: {
          '2XX': { description: 'Received; the delivery succeeded.' },
          '4XX': { description: 'Not received; the delivery is retried.' },
          '5XX': { description: 'Not received; the delivery is retried.' },
        },
      },
    },
  };
}

/** `{nullable: true, allOf: [{$ref}]}` (Nest's nullable class property) rejects null: fix it. */
function nullableRefs(node: unknown): void {
  if (Array.isArray(node)) return node.forEach(nullableRefs);
  if (typeof node !== 'object' || node === null) return;
  const schema = node as Schema;
  const allOf = schema.allOf as Schema[] | undefined;
  if (schema.nullable === true && allOf?.length === 1 && typeof allOf[0].$ref === 'string') {
    delete schema.nullable;
    delete schema.allOf;
    delete schema.type;
    schema.anyOf = [allOf[0], { ...NULL_ONLY_SCHEMA }];
  }
  Object.values(schema).forEach(nullableRefs);
}

const ANNOTATIONS = new Set([
  'title',
  'description',
  'example',
  'examples',
  'default',
  'deprecated',
  'readOnly',
  'writeOnly',
  'externalDocs',
]);

/**
 * A nullable enum as `{anyOf: [{type, enum}, {enum: [null]}]}`: with null in the enum, Prism
 * appends a second null and ajv then refuses to compile the whole response schema.
 */
function portableNullableEnums(node: unknown): void {
  if (Array.isArray(node)) return node.forEach(portableNullableEnums);
  if (typeof node !== 'object' || node === null) return;
  const schema = node as Schema;
  if (schema.nullable === true && Array.isArray(schema.enum)) {
    const values = (schema.enum as unknown[]).filter((v) => v !== null);
    // What describes the field stays on it; what constrains the value goes in the typed branch.
    const typed: Schema = {};
    for (const [key, value] of Object.entries(schema)) {
      if (ANNOTATIONS.has(key) || key.startsWith('x-')) continue;
      if (key !== 'nullable' && key !== 'enum') typed[key] = value;
      delete schema[key];
    }
    schema.anyOf = [{ ...typed, enum: values }, { ...NULL_ONLY_SCHEMA }];
    return;
  }
  Object.values(schema).forEach(portableNullableEnums);
}

/** Bad percent-encoding in a path parameter is a `{"detail"}` 400, U+0000 an `{"errors"}` one. */
function pathParameterErrors(paths: OpenAPIObject['paths']): void {
  for (const [path, item] of Object.entries(paths)) {
    if (!path.includes('{')) continue;
    for (const method of ['get', 'post', 'put', 'patch', 'delete'] as const) {
      const operation = item[method];
      if (!operation) continue;
      const existing = operation.responses['400'] as
        | { description: string; content?: Record<string, { schema: Schema; example?: unknown }> }
        | undefined;
      const json = existing?.content?.['application/json'];
      operation.responses['400'] = {
        description:
          `${existing ? `${existing.description} ` : ''}A path parameter that cannot be decoded ` +
          '(bad percent-encoding) is answered `{"detail": ...}`; one with U+0000 `{"errors": ...}`.',
        content: {
          'application/json': {
            schema: { anyOf: [ref(ERROR_SCHEMAS.validation), ref(ERROR_SCHEMAS.detail)] },
            example: json?.example ?? { errors: { $: ['Null characters are not allowed.'] } },
          },
        },
      };
    }
  }
}

/** GET and DELETE bodies are never read (http-pipeline.ts): no 413/415; a text/plain 415 says so. */
function bodyErrors(paths: OpenAPIObject['paths']): void {
  for (const item of Object.values(paths)) {
    for (const method of ['get', 'delete'] as const) {
      delete item[method]?.responses['413'];
      delete item[method]?.responses['415'];
    }
    for (const method of ['post', 'put', 'patch'] as const) {
      const operation = item[method];
      const types = Object.keys(
        (operation?.requestBody as { content?: object } | undefined)?.content ?? {},
      );
      const unsupported = operation?.responses['415'] as
        { description: string; content: Record<string, { example?: unknown }> } | undefined;
      if (!unsupported || !types.includes('text/plain')) continue;
      unsupported.description =
        'A body sent as neither `application/json` nor `text/plain` (none, a form), or in an ' +
        'encoding or charset other than UTF-8.';
      unsupported.content['application/json'].example = { detail: MSG.jsonOrTextOnly };
    }
  }
}

/** The contract's paths end with `/` (docs/api.md, Conventions), the probes' too; the service answers both forms. */
function withTrailingSlashes(paths: OpenAPIObject['paths']): OpenAPIObject['paths'] {
  return Object.fromEntries(
    Object.entries(paths).map(([path, item]) => [
      /^\/(api|health)\//.test(path) && !path.endsWith('/') ? `${path}/` : path,
      item,
    ]),
  );
}

/** What the decorators cannot say; applied to Nest's document so /docs and /docs-json agree. */
export function finishDocument(document: OpenAPIObject): OpenAPIObject {
  document.paths = withTrailingSlashes(document.paths);
  pathParameterErrors(document.paths);
  bodyErrors(document.paths);
  doorAnswers(document.paths);
  nullableRefs(document.paths);
  nullableRefs(document.components);
  documentHttpDetails(document);
  insurerCodeEnums(document.paths);
  insurerCodeEnums(document.components);
  const components = (document.components ??= {});
  components.schemas = { ...components.schemas, ...ERROR_COMPONENTS };
  components.parameters = { ...components.parameters, ...DELIVERY_HEADERS };
  portableNullableEnums(document.paths);
  portableNullableEnums(document.components);
  const createWebhook = document.paths['/api/auth/v1/webhooks/']?.post;
  if (createWebhook) {
    createWebhook.callbacks = Object.fromEntries(
      WEBHOOK_EVENTS.map((event) => [event.type, deliveryCallback(event)]),
    );
  }
  return document;
}
