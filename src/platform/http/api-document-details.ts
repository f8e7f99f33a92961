import { ApiExtension, type OpenAPIObject } from '@nestjs/swagger';
import { KNOWN_INSURER_CODES } from '@/lib/insurer-codes';

/**
 * What every answer carries and no decorator says: the request id, the ETag and
 * conditional GET of Express's `res.send`, and the insurer codes as an enum.
 * The doors' answers are their own (doorAnswers).
 */

type Json = Record<string, any>;

const NO_ETAG = 'x-no-etag';

/**
 * On an operation that writes its bytes itself (`res.end`, not Express's `send`): it has no
 * ETag and never answers 304. Read and removed by `documentHttpDetails`.
 */
export const ApiNoETag = () => ApiExtension(NO_ETAG, true);

const HEADERS: Record<string, Json> = {
  RequestId: {
    description:
      "The request's id: the caller's own `X-Request-Id` when it is 1 to 128 of `A-Z a-z 0-9 . _ : -`, " +
      'otherwise a new UUID. The logs and the audit trail name the request by it.',
    required: true,
    schema: {
      type: 'string',
      pattern: '^[A-Za-z0-9._:-]{1,128}$',
      example: '3f1c2a9e-8b7d-4e21-9f0a-6c5d4b3a2e10',
    },
  },
  ETag: {
    description:
      'A weak validator of the body. Send it back in `If-None-Match` to get `304 Not Modified` ' +
      'without a body while the answer is unchanged.',
    required: true,
    schema: { type: 'string', pattern: '^W/".+"$', example: 'W/"1a4-Vx1o5bGvTjVnbG0qX8r1dXzS9ks"' },
  },
};

const IF_NONE_MATCH = {
  name: 'If-None-Match',
  in: 'header',
  required: false,
  description: 'The `ETag` of an earlier answer: `304` without a body while it still matches.',
  // No example: Swagger UI's "Try it out" sends an example as a value, and a made-up ETag sent
  // on every try is noise at best (at worst it once matches and the answer is an empty 304).
  schema: { type: 'string' },
};

const headerRef = (name: string) => ({ $ref: `#/components/headers/${name}` });

/**
 * `X-Request-Id` on every answer of every operation (http-pipeline.ts sets it first thing); on
 * every GET that Express sends, `ETag` on its 2xx answers, `If-None-Match` and the `304`.
 */
export function documentHttpDetails(document: OpenAPIObject): void {
  const components = (document.components ??= {});
  components.headers = { ...components.headers, ...HEADERS };
  for (const item of Object.values(document.paths) as Json[]) {
    for (const method of ['get', 'put', 'post', 'patch', 'delete']) {
      const operation = item[method] as Json | undefined;
      if (!operation) continue;
      const withETag = method === 'get' && operation[NO_ETAG] !== true;
      delete operation[NO_ETAG];
      for (const [status, response] of Object.entries(operation.responses as Json)) {
        const headers: Json = { 'X-Request-Id': headerRef('RequestId'), ...response.headers };
        if (withETag && status.startsWith('2')) headers.ETag = headerRef('ETag');
        response.headers = headers;
      }
      if (!withETag) continue;
      operation.parameters = [...(operation.parameters ?? []), IF_NONE_MATCH];
      operation.responses['304'] = {
        description: 'Not modified: `If-None-Match` holds the current `ETag`. No body.',
        headers: { 'X-Request-Id': headerRef('RequestId'), ETag: headerRef('ETag') },
      };
    }
  }
}

/** `insurer_code` and the items of `insurer_code_list`, wherever they appear: the known codes. */
export function insurerCodeEnums(node: unknown): void {
  if (Array.isArray(node)) return node.forEach(insurerCodeEnums);
  if (typeof node !== 'object' || node === null) return;
  const obj = node as Json;
  const properties = obj.properties as Json | undefined;
  if (properties && typeof properties === 'object') {
    const code = properties.insurer_code as Json | undefined;
    if (code?.type === 'string') setEnum(code);
    const list = properties.insurer_code_list as Json | undefined;
    if (list?.type === 'array' && list.items?.type === 'string') setEnum(list.items as Json);
  }
  if (obj.in === 'query' && obj.name === 'insurer_code' && obj.schema?.type === 'string')
    setEnum(obj.schema as Json);
  Object.values(obj).forEach(insurerCodeEnums);
}

function setEnum(schema: Json): void {
  schema.enum = schema.nullable ? [...KNOWN_INSURER_CODES, null] : [...KNOWN_INSURER_CODES];
  if (!schema.example) schema.example = KNOWN_INSURER_CODES[0];
}

const DOOR_401 =
  'Missing header, a scheme other than `Api` or `Bearer`, or an invalid or revoked key ' +
  '(docs/api.md, Authentication).';

/**
 * The doors' answers (docs/api.md, Authentication): their 401 names both schemes; the FHIR door
 * answers its errors as OperationOutcomes in `application/fhir+json`, with the statuses the JSON
 * API gives (docs/api.md, FHIR R4), and says so in words.
 */
export function doorAnswers(paths: OpenAPIObject['paths']): void {
  const body =
    'A FHIR R4 OperationOutcome: one issue of severity error, its code and diagnostics saying ' +
    'what went wrong (docs/api.md, FHIR R4).';
  // The JSON API's words for these name its own body shapes.
  const fhirWords: Record<string, string> = {
    '400': 'The Bundle, a field of it or a parameter is not valid; the issue says which.',
    '415':
      'A body sent as neither `application/fhir+json` nor `application/json`, or in a charset ' +
      'other than UTF-8.',
  };
  for (const [path, item] of Object.entries(paths)) {
    if (/^\/(api|health)\//.test(path)) continue;
    const fhir = path.startsWith('/fhir/R4/');
    for (const method of ['get', 'post'] as const) {
      for (const [status, answer] of Object.entries(item[method]?.responses ?? {})) {
        const a = answer as { description: string; content?: object };
        if (status === '401') a.description = DOOR_401;
        if (!fhir || Number(status) < 400) continue;
        a.description = fhirWords[status] ?? a.description;
        a.content = { 'application/fhir+json': { schema: { type: 'object', description: body } } };
      }
    }
  }
}
