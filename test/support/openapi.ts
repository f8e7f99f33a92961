import type { INestApplication } from '@nestjs/common';
import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { buildOpenApiDocument } from '@/app.setup';

/**
 * The OpenAPI document as a checker: finds the documented operation of a request and validates
 * a JSON answer against the schema documented for its status, with ajv in strict mode and
 * OpenAPI 3.0's `nullable` (null only where a schema says so). Schemas compile on first use and
 * stay cached for the test file.
 */

type Json = Record<string, unknown>;

export interface OpenApiDocument {
  openapi: string;
  servers?: { url: string }[];
  paths: Record<string, Record<string, Json>>;
  components: Record<string, Record<string, Json>>;
  [key: string]: unknown;
}

export interface Answer {
  method: string;
  /** The path as requested (query string allowed). */
  url: string;
  status: number;
  contentType: string | undefined;
  headers: Record<string, unknown>;
  /** The raw body text. */
  body: string;
}

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

export class OpenApiChecker {
  private readonly ajv: Ajv;
  private readonly validators = new Map<string, ValidateFunction>();
  private readonly templates: { path: string; pattern: RegExp; params: number }[];

  constructor(readonly document: OpenApiDocument) {
    this.ajv = newAjv();
    // Answers are checked strictly: a field the document does not name is drift, so every
    // object schema that lists its properties admits no others (for this check only; clients
    // keep the document's default, which tolerates new fields).
    // The document's top-level fields are no schema keywords; its schemas are reached by $ref.
    this.ajv.addVocabulary(Object.keys(document));
    this.ajv.addSchema(closeObjects(structuredClone(document)), 'doc');
    this.templates = Object.keys(document.paths)
      .map((path) => ({
        path,
        pattern: new RegExp(
          `^${path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}$`,
        ),
        params: (path.match(/\{/g) ?? []).length,
      }))
      // Literal segments win over parameters.
      .sort((a, b) => a.params - b.params);
  }

  /** The documented path template of a request path (with or without its trailing slash). */
  template(url: string): string | null {
    let path = url.split('?')[0];
    if (/^\/(api|health)\//.test(path) && !path.endsWith('/')) path += '/';
    return this.templates.find((t) => t.pattern.test(path))?.path ?? null;
  }

  /** Every way the answer disagrees with the document (empty when it agrees). */
  check(answer: Answer): string[] {
    const template = this.template(answer.url);
    const method = answer.method.toLowerCase();
    const operation = template ? this.document.paths[template][method] : undefined;
    const isJson = /^application\/(.+\+)?json\b/.test(answer.contentType ?? '');
    if (!template || !operation || !METHODS.includes(method)) {
      // An unknown route is answered 404 (or 400 when its path cannot be decoded) in an error
      // envelope; anything else is an undocumented endpoint.
      const envelope = { anyOf: [schemaRef('ErrorDetail'), schemaRef('ValidationErrors')] };
      if (
        [400, 404].includes(answer.status) &&
        isJson &&
        this.validate(envelope, answer.body) === true
      )
        return [];
      return [`no documented operation answers ${answer.status} here`];
    }
    const responses = operation.responses as Record<string, Json>;
    const key = [String(answer.status), `${String(answer.status)[0]}XX`, 'default'].find(
      (k) => k in responses,
    );
    if (!key) return [`status ${answer.status} is not documented`];
    const response = responses[key];
    const problems: string[] = [];
    for (const [name, given] of Object.entries((response.headers ?? {}) as Record<string, Json>)) {
      const header = this.resolve(given);
      const value = answer.headers[name.toLowerCase()];
      if (header.required && value === undefined)
        problems.push(`header ${name} is documented as required but missing`);
      if (value !== undefined && header.schema) {
        // Node gives a header as a string, a number (Content-Length) or a list; a header
        // documented as a number (Retry-After) is checked as the number its text reads.
        const schema = header.schema as Json;
        const text = typeof value === 'string' ? value : JSON.stringify(value);
        const numeric = schema.type === 'integer' || schema.type === 'number';
        const errors = this.validateValue(schema, numeric && text !== '' ? Number(text) : text);
        if (errors !== true) problems.push(`header ${name}: ${errors.join('; ')}`);
      }
    }
    const content = response.content as Record<string, Json> | undefined;
    if (!content) {
      if (answer.body.length > 0) problems.push('a body is sent but none is documented');
      return problems;
    }
    if (!isJson) {
      if (!(answer.contentType && answer.contentType.split(';')[0] in content))
        problems.push(`content type ${answer.contentType} is not documented`);
      return problems;
    }
    const pointer = [
      'paths',
      template,
      method,
      'responses',
      key,
      'content',
      'application/json',
      'schema',
    ];
    const errors = this.validate({ $ref: `doc#/${pointer.map(escape).join('/')}` }, answer.body);
    if (errors !== true) problems.push(...errors);
    return problems;
  }

  /** A `$ref` of the document (`#/components/headers/ETag`) as the object it names. */
  resolve(node: Json): Json {
    const ref = node.$ref;
    if (typeof ref !== 'string') return node;
    return ref
      .slice(2)
      .split('/')
      .reduce<Json>((n, k) => n[k.replace(/~1/g, '/').replace(/~0/g, '~')] as Json, this.document);
  }

  /** true, or the errors of validating `body` (JSON text) against the schema. */
  validate(schema: Json, body: string): true | string[] {
    let value: unknown;
    try {
      value = JSON.parse(body);
    } catch {
      return ['the body is not JSON'];
    }
    return this.validateValue(schema, value);
  }

  validateValue(schema: Json, value: unknown): true | string[] {
    // A schema taken from the document refers to its components relative to the document.
    const key = JSON.stringify(schema).replace(/"\$ref":"#\//g, '"$ref":"doc#/');
    let validate = this.validators.get(key);
    if (!validate) {
      validate = this.ajv.compile(JSON.parse(key) as Json);
      this.validators.set(key, validate);
    }
    return validate(value) ? true : describeErrors(validate.errors ?? [], value);
  }
}

export function schemaRef(name: string): Json {
  return { $ref: `doc#/components/schemas/${name}` };
}

/** An ajv that knows OpenAPI 3.0's schema dialect: `nullable`, annotation keywords, formats. */
export function newAjv(): Ajv {
  const ajv = new Ajv({ strict: true, strictRequired: false, allErrors: true });
  addFormats(ajv);
  ajv.addVocabulary(['example', 'xml', 'externalDocs', 'discriminator']);
  return ajv;
}

function escape(segment: string): string {
  return encodeURIComponent(segment.replace(/~/g, '~0').replace(/\//g, '~1'));
}

/** `additionalProperties: false` on every object schema that lists properties and says nothing. */
function closeObjects<T>(node: T): T {
  if (Array.isArray(node)) node.forEach(closeObjects);
  else if (typeof node === 'object' && node !== null) {
    const schema = node as Json;
    if (
      typeof schema.properties === 'object' &&
      schema.properties !== null &&
      !('additionalProperties' in schema) &&
      !('in' in schema)
    )
      schema.additionalProperties = false;
    Object.values(schema).forEach(closeObjects);
  }
  return node;
}

function describeErrors(errors: ErrorObject[], value: unknown): string[] {
  return errors.slice(0, 10).map((e) => {
    const at = e.instancePath || '(body)';
    const extra =
      e.keyword === 'additionalProperties'
        ? ` (${String((e.params as { additionalProperty: string }).additionalProperty)})`
        : '';
    const got = e.instancePath ? pick(value, e.instancePath) : undefined;
    return `${at} ${e.message ?? e.keyword}${extra}${got === undefined ? '' : `, got ${JSON.stringify(got)?.slice(0, 80)}`}`;
  });
}

function pick(value: unknown, pointer: string): unknown {
  return pointer
    .split('/')
    .slice(1)
    .reduce<unknown>(
      (v, k) =>
        typeof v === 'object' && v !== null
          ? (v as Json)[k.replace(/~1/g, '/').replace(/~0/g, '~')]
          : undefined,
      value,
    );
}

let cached: { app: INestApplication; checker: OpenApiChecker } | null = null;

/** The checker of the production document (as /docs-json serves it), built once per test file. */
export function checkerFor(app: INestApplication): OpenApiChecker {
  if (!cached) {
    const document = buildOpenApiDocument(app) as unknown as OpenApiDocument;
    cached = { app, checker: new OpenApiChecker(structuredClone(document)) };
  }
  return cached.checker;
}
