import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiResponse } from '@nestjs/swagger';

/** OpenAPI decorators shared by controllers and response DTOs: clients generate code from them. */

/** Component names of the error bodies (defined once, in api-document.ts). */
export const ERROR_SCHEMAS = {
  detail: 'ErrorDetail',
  validation: 'ValidationErrors',
  auth: 'AuthenticationError',
} as const;

/** A schema that admits only null (OpenAPI 3.0 has no `type: null`), the null of an anyOf. */
export const NULL_ONLY_SCHEMA = { enum: [null] };

export const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

/** An error answer whose body is `{"detail": ...}`. */
const detailDoc = (description: string, detail: string) => ({ description, example: { detail } });

/** The contract's error answers (docs/api.md, Authentication and Errors). */
const ERROR_DOCS = {
  400: {
    description:
      'Validation failed: every field error of the request, nested like the body (array ' +
      'indexes as string keys); whole-request errors under `$`.',
    example: { errors: { patient: { first_name: { $: ['This field may not be blank.'] } } } },
  },
  401: {
    description:
      'Missing header, another scheme than `Api` (`Bearer x`, a bare key), or an invalid or ' +
      'revoked key. Every 401 names the expected header in `hint` and in `WWW-Authenticate`.',
    example: {
      detail: 'Unknown authentication token type.',
      hint: 'Send the header Authorization: Api <key>.',
    },
  },
  403: detailDoc('Not allowed for this account.', 'Iframe is not activated for the current user.'),
  404: detailDoc('Unknown object, or one that belongs to another account.', 'Not found.'),
  409: detailDoc(
    'The object is not in a state that allows this (held by another, or already done).',
    'This task is already completed.',
  ),
  413: detailDoc('Body over 1 MiB.', 'Request body too large.'),
  415: detailDoc(
    'A body sent without `Content-Type: application/json` (none, text/plain, a form), or ' +
      'in an encoding or charset other than UTF-8 JSON.',
    'Send the body as application/json.',
  ),
  429: detailDoc(
    'Rate limit of the API key reached; retry after `Retry-After` seconds.',
    'Request was throttled. Expected available in 12 seconds.',
  ),
  500: detailDoc('Unexpected error (logged with the request id).', 'Internal server error.'),
  503: detailDoc(
    'A dependency is briefly unavailable; retry.',
    'Service temporarily unavailable, please retry.',
  ),
} as const;

type ErrorStatus = keyof typeof ERROR_DOCS;

const WWW_AUTHENTICATE = {
  'WWW-Authenticate': {
    description: 'The scheme the API expects: `Api realm="api"`.',
    required: true,
    schema: { type: 'string', example: 'Api realm="api"' },
  },
};

const RETRY_AFTER = {
  'Retry-After': {
    description: 'Seconds until the API key may call again.',
    required: true,
    schema: { type: 'integer', minimum: 0 },
  },
};

function errorResponse(status: ErrorStatus, example?: unknown): MethodDecorator & ClassDecorator {
  const doc = ERROR_DOCS[status];
  const body = example ?? doc.example;
  const isDetail = typeof body === 'object' && body !== null && 'detail' in body;
  return ApiResponse({
    status,
    description: doc.description,
    headers: status === 429 ? RETRY_AFTER : status === 401 ? WWW_AUTHENTICATE : undefined,
    content: {
      'application/json': {
        schema: ref(
          status === 401
            ? ERROR_SCHEMAS.auth
            : isDetail
              ? ERROR_SCHEMAS.detail
              : ERROR_SCHEMAS.validation,
        ),
        example: body,
      },
    },
  });
}

/** The answers every authenticated endpoint can give, plus the ones named. */
export function ApiStandardErrors(...extra: (ErrorStatus | [ErrorStatus, unknown])[]) {
  const decorators = [401, 413, 415, 429, 500, 503].map((s) => errorResponse(s as ErrorStatus));
  for (const e of extra)
    decorators.push(Array.isArray(e) ? errorResponse(e[0], e[1]) : errorResponse(e));
  return applyDecorators(...decorators);
}

/** Operations anyone may call (health probes): `security: []` overrides the document's default. */
// @nestjs/swagger's metadata key for @ApiSecurity (not exported by the package).
const API_SECURITY_METADATA = 'swagger/apiSecurity';

export function ApiNoAuth(): ClassDecorator {
  return (target) => Reflect.defineMetadata(API_SECURITY_METADATA, [], target);
}

/**
 * Field kinds of response bodies. Nest reads `string | null` as `Object`, so every field whose
 * TypeScript type is a union names its kind here.
 */
const KINDS = {
  string: { type: 'string' },
  integer: { type: 'integer' },
  boolean: { type: 'boolean' },
  date: { type: 'string', format: 'date' },
  'date-time': { type: 'string', format: 'date-time' },
} as const;

type FieldKind = keyof typeof KINDS;

interface FieldDoc {
  description?: string;
  example?: unknown;
  enum?: readonly string[];
  pattern?: string;
  minimum?: number;
  /** false: the key may be absent. Default true. */
  required?: boolean;
}

/** A field that is always sent, of this kind. */
export function ApiField(kind: FieldKind, doc: FieldDoc = {}): PropertyDecorator {
  return ApiProperty({ ...KINDS[kind], ...doc, enum: doc.enum ? [...doc.enum] : undefined });
}

/** A field that is sent as its kind or as null (`nullable: true`; null is in an enum too). */
export function ApiNullable(kind: FieldKind, doc: FieldDoc = {}): PropertyDecorator {
  return ApiProperty({
    ...KINDS[kind],
    ...doc,
    nullable: true,
    enum: doc.enum ? [...doc.enum, null] : undefined,
  });
}

/** A decimal string as answers print it: four decimals ("12.2200"). */
export const DECIMAL4 = '^-?\\d+\\.\\d{4}$';

/** A timestamp (ISO 8601 with offset). */
export const ApiTimestamp = (doc: FieldDoc = {}) =>
  ApiField('date-time', { example: '2026-11-21T13:51:16.926+00:00', ...doc });
