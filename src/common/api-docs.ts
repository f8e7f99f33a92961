import { applyDecorators } from '@nestjs/common';
import { ApiResponse } from '@nestjs/swagger';

/** OpenAPI descriptions of the contract's error answers (CONTRACT §2, §3). */
const ERROR_DOCS = {
  400: {
    description: 'Validation failed: every field error of the request, nested like the body.',
    example: { errors: { patient: { first_name: { $: ['This field may not be blank.'] } } } },
  },
  401: {
    description: 'Missing, unknown-scheme, invalid or revoked API key.',
    example: { detail: 'Invalid authentication token.' },
  },
  403: {
    description: 'Not allowed for this account.',
    example: { detail: 'Iframe is not activated for the current user.' },
  },
  404: {
    description: 'Unknown object, or one that belongs to another account.',
    example: { detail: 'Not found.' },
  },
  413: { description: 'Body over 1 MiB.', example: { detail: 'Request body too large.' } },
  429: {
    description: 'Rate limit of the API key reached; see Retry-After.',
    example: { detail: 'Request was throttled. Expected available in 12 seconds.' },
  },
  500: {
    description: 'Unexpected error (logged with the request id).',
    example: { detail: 'Internal server error.' },
  },
  503: {
    description: 'A dependency is briefly unavailable; retry.',
    example: { detail: 'Service temporarily unavailable, please retry.' },
  },
} as const;

type ErrorStatus = keyof typeof ERROR_DOCS;

function errorResponse(status: ErrorStatus, example?: unknown): MethodDecorator & ClassDecorator {
  const doc = ERROR_DOCS[status];
  const body = example ?? doc.example;
  const isDetail = typeof body === 'object' && body !== null && 'detail' in body;
  return ApiResponse({
    status,
    description: doc.description,
    content: {
      'application/json': {
        schema: isDetail
          ? { type: 'object', properties: { detail: { type: 'string' } }, required: ['detail'] }
          : {
              type: 'object',
              properties: { errors: { type: 'object', additionalProperties: true } },
              required: ['errors'],
            },
        example: body,
      },
    },
  });
}

/** The answers every authenticated endpoint can give, plus the ones named. */
export function ApiStandardErrors(...extra: (ErrorStatus | [ErrorStatus, unknown])[]) {
  const decorators = [401, 413, 429, 500, 503].map((s) => errorResponse(s as ErrorStatus));
  for (const e of extra)
    decorators.push(Array.isArray(e) ? errorResponse(e[0], e[1]) : errorResponse(e));
  return applyDecorators(...decorators);
}
