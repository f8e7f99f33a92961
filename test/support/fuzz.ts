import fc from 'fast-check';

/**
 * Building blocks for the property-based tests: generators of bad input (wrong types, nulls,
 * huge strings and arrays, deep nesting, odd unicode, injection strings, bad dates and decimals),
 * body mutations, and the check every answer must pass (docs/api.md, Errors).
 */

export const injectionStrings = [
  "' OR 1=1 --",
  "'; DROP TABLE patients; --",
  'Robert"); DROP TABLE claims;--',
  '<script>alert(1)</script>',
  '"><img src=x onerror=alert(1)>',
  '${7*7}',
  '{{7*7}}',
  '#{7*7}',
  '../../../../etc/passwd',
  '..%2f..%2f..%2fetc%2fpasswd',
  'a\u0000b',
  '\u0000',
  '%00',
  '\\',
  '"',
  "'",
  '`',
  '$where',
  '{"$gt": ""}',
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
  'null',
  'undefined',
  'NaN',
  'true',
  '[]',
  '{}',
  '\r\nX-Injected: 1',
  '\u202egnp.exe',
  '\ufeff',
  '\u200b',
  '\ud800',
  '\udfff',
  'e\u0301',
  '𝔘𝔫𝔦𝔠𝔬𝔡𝔢',
  '👨‍👩‍👧‍👦',
  '\u0085\u2028\u2029',
  'Ａｄｍｉｎ',
  '%s%s%s%n',
  '*',
  '%',
  '_',
  'insurer:demo:vision\u0000',
  'LOC00000000',
  'PAT00000000',
  'CLM00000000',
];

export const badDates = [
  '2023-02-30',
  '2023-02-29',
  '0000-01-01',
  '0001-01-01',
  '1899-12-31',
  '9999-12-31',
  '2999-01-01',
  '2023-13-01',
  '2023-00-10',
  '2023-1-1',
  '20230101',
  '2023/01/01',
  '01/02/2023',
  '2023-01-01T00:00:00Z',
  '2023-01-01 ',
  ' 2023-01-01',
  '-2023-01-01',
  '+002023-01-01',
  '2023-01-01\u0000',
  '２０２３-０１-０１',
  '1e3',
  '',
];

export const badDecimals = [
  '1e309',
  '1e-7',
  'NaN',
  'Infinity',
  '-Infinity',
  '-0',
  '-1',
  '-0.01',
  '1.00001',
  '12,50',
  '1 000',
  '0x1F',
  '0b11',
  '.5',
  '5.',
  '+5',
  '١٢٣',
  '99999999999999999999999999999999.99',
  '1'.repeat(400),
  '12.2.2',
  '$12',
  '',
  ' ',
];

const badNumbers = [
  1e308,
  -1e308,
  Number.MAX_SAFE_INTEGER + 2,
  -Number.MAX_SAFE_INTEGER,
  2 ** 31,
  2 ** 63,
  -1,
  0,
  0.1 + 0.2,
  1.00001,
  5e-324,
];

/** Nested objects or arrays `depth` levels deep. */
export function nested(depth: number, kind: 'object' | 'array'): unknown {
  let value: unknown = 'bottom';
  for (let i = 0; i < depth; i++) value = kind === 'object' ? { a: value } : [value];
  return value;
}

export const hugeString = fc
  .constantFrom(257, 1_000, 20_000)
  .chain((n) => fc.constantFrom('x', 'é', '😀', '\u0000', '9').map((c) => c.repeat(n)));

export const oddString = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
  fc.string({ unit: 'binary', maxLength: 20 }),
  fc.constantFrom(...injectionStrings),
  fc.constantFrom(...badDates),
  fc.constantFrom(...badDecimals),
);

/** Big values: slow to validate by design, so rarer than the cheap kinds below. */
const bigValue: fc.Arbitrary<unknown> = fc.oneof(
  hugeString,
  fc
    .tuple(
      fc.integer({ min: 10, max: 1_500 }),
      fc.constantFrom<'object' | 'array'>('object', 'array'),
    )
    .map(([depth, kind]) => nested(depth, kind)),
  // Around the body's 5,000-value limit, on both sides.
  fc
    .constantFrom(100, 1_000, 5_001)
    .chain((n) => fc.constantFrom<unknown>('x', 1, null, {}).map((v) => new Array(n).fill(v))),
);

/** One bad value of any kind. */
export const junk: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 6, arbitrary: oddString },
  { weight: 2, arbitrary: fc.constant(null) },
  { weight: 1, arbitrary: fc.boolean() },
  { weight: 1, arbitrary: fc.integer() },
  { weight: 1, arbitrary: fc.double({ noNaN: true, noDefaultInfinity: true }) },
  { weight: 1, arbitrary: fc.constantFrom(...badNumbers) },
  { weight: 2, arbitrary: fc.array(fc.jsonValue({ maxDepth: 2 }), { maxLength: 8 }) },
  {
    weight: 2,
    arbitrary: fc.dictionary(oddString, fc.jsonValue({ maxDepth: 2 }), { maxKeys: 5 }),
  },
  { weight: 1, arbitrary: bigValue },
);

/** Every path (list of keys) in a JSON value, objects and arrays alike. */
export function pathsOf(value: unknown, prefix: (string | number)[] = []): (string | number)[][] {
  const out: (string | number)[][] = [prefix];
  // Deep enough for every real body; generated deep nesting is not walked into.
  if (prefix.length >= 8) return out;
  if (Array.isArray(value) && value.length > 50) return out;
  if (Array.isArray(value)) value.forEach((v, i) => out.push(...pathsOf(v, [...prefix, i])));
  else if (value && typeof value === 'object')
    for (const [k, v] of Object.entries(value)) out.push(...pathsOf(v, [...prefix, k]));
  return out;
}

export type Mutation =
  | { kind: 'set'; pick: number; value: unknown }
  | { kind: 'delete'; pick: number }
  | { kind: 'extra'; pick: number; key: string; value: unknown }
  | { kind: 'replace'; value: unknown }
  | Confusion;

export const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record({ kind: fc.constant('set' as const), pick: fc.nat(), value: junk }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('delete' as const), pick: fc.nat() }) },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('extra' as const),
      pick: fc.nat(),
      key: oddString,
      value: junk,
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('replace' as const), value: junk }) },
);

/** Applies mutations to a copy of a valid body. */
export function mutate(body: unknown, mutations: Mutation[]): unknown {
  let result: unknown = structuredClone(body);
  for (const m of mutations) {
    if (m.kind === 'replace') {
      result = m.value;
      continue;
    }
    if (m.kind === 'confuse') {
      result = confuseAt(result, m);
      continue;
    }
    const paths = pathsOf(result).filter((p) => p.length > 0);
    const containers = pathsOf(result).filter((p) => {
      const v = at(result, p);
      return v !== null && typeof v === 'object' && !Array.isArray(v);
    });
    if (m.kind === 'extra') {
      if (containers.length === 0) continue;
      const target = at(result, containers[m.pick % containers.length]) as Record<string, unknown>;
      target[m.key] = m.value;
      continue;
    }
    if (paths.length === 0) continue;
    const path = paths[m.pick % paths.length];
    const parent = at(result, path.slice(0, -1)) as Record<string | number, unknown>;
    const key = path[path.length - 1];
    if (m.kind === 'set') parent[key] = m.value;
    else if (Array.isArray(parent)) parent.splice(key as number, 1);
    else delete parent[key];
  }
  return result;
}

/**
 * Type confusion: a value of another JSON kind where one was, made from what was there, so the
 * rest of the body stays valid and validation must find the one wrong place: lists inside lists
 * (`[[{service}]]`, `[["92014"]]`), objects where strings or lists are, strings where lists or
 * objects are, empty lists nested anywhere, nesting that ends at the body's depth limit, lists
 * that fill the body up to its value limit.
 */
export type ConfusionShape =
  | { to: 'wrap'; levels: number }
  | { to: 'object'; key: string }
  | { to: 'twice' }
  | { to: 'emptyList'; levels: number }
  | { to: 'emptyObject' }
  | { to: 'unwrap' }
  | { to: 'text' }
  | { to: 'scalar'; value: string | number | boolean | null }
  | { to: 'deep'; depth: number; kind: 'array' | 'object' | 'mixed' }
  | { to: 'wide'; spare: number };

export interface Confusion {
  kind: 'confuse';
  /** Picks a depth of the body (each depth as likely as any other), then a place at that depth. */
  level: number;
  pick: number;
  shape: ConfusionShape;
}

/** The body limits of src/platform/http/http-pipeline.ts: values are generated on both sides of them. */
export const BODY_MAX_DEPTH = 64;
export const BODY_MAX_VALUES = 5_000;
export const BODY_MAX_BYTES = 1024 * 1024;
/**
 * The most a `wide` list may weigh as JSON: twice the byte limit, so it still lands on both sides
 * of it. Without this bound a chain such as wide → text → wide (5,000 copies of a 70 KB string)
 * built a 425 MB body, and JSON.stringify stopped with "Invalid string length" before anything
 * was sent (issue 25, FUZZ_SEED=479790281).
 */
export const WIDE_MAX_BYTES = 2 * BODY_MAX_BYTES;

const confusionShape: fc.Arbitrary<ConfusionShape> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({
      to: fc.constant('wrap' as const),
      levels: fc.integer({ min: 1, max: 6 }),
    }),
  },
  {
    weight: 4,
    arbitrary: fc.record({
      to: fc.constant('object' as const),
      key: fc.constantFrom('a', '0', '$', 'codes', 'cost', 'first_name', 'services', 'patient'),
    }),
  },
  { weight: 2, arbitrary: fc.constant({ to: 'twice' as const }) },
  {
    weight: 4,
    arbitrary: fc.record({
      to: fc.constant('emptyList' as const),
      levels: fc.integer({ min: 1, max: 6 }),
    }),
  },
  { weight: 2, arbitrary: fc.constant({ to: 'emptyObject' as const }) },
  { weight: 4, arbitrary: fc.constant({ to: 'unwrap' as const }) },
  { weight: 4, arbitrary: fc.constant({ to: 'text' as const }) },
  {
    weight: 4,
    arbitrary: fc.record({
      to: fc.constant('scalar' as const),
      value: fc.constantFrom<string | number | boolean | null>(
        'x',
        '',
        ' ',
        0,
        -1,
        1.5,
        true,
        false,
        null,
      ),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      to: fc.constant('deep' as const),
      depth: fc.integer({ min: BODY_MAX_DEPTH - 2, max: BODY_MAX_DEPTH + 2 }),
      kind: fc.constantFrom<'array' | 'object' | 'mixed'>('array', 'object', 'mixed'),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      to: fc.constant('wide' as const),
      spare: fc.integer({ min: -2, max: 2 }),
    }),
  },
);

export const confusion: fc.Arbitrary<Confusion> = fc.record({
  kind: fc.constant('confuse' as const),
  level: fc.nat(),
  pick: fc.nat(),
  shape: confusionShape,
});

/** How many values (containers and leaves) `value` holds, as the body limit counts them. */
export function countValues(value: unknown): number {
  if (value === null || typeof value !== 'object') return 1;
  return 1 + Object.values(value).reduce<number>((n, v) => n + countValues(v), 0);
}

/** `levels` containers around `inner`: lists, objects, or both in turn. */
function enclose(inner: unknown, levels: number, kind: 'array' | 'object' | 'mixed'): unknown {
  let value = inner;
  for (let i = 0; i < levels; i++)
    value = kind === 'array' || (kind === 'mixed' && i % 2 === 0) ? [value] : { a: value };
  return value;
}

/** The value `shape` makes of `value`, found `pathLength` keys below the root of `body`. */
export function confused(
  value: unknown,
  shape: ConfusionShape,
  pathLength: number,
  body: unknown,
): unknown {
  switch (shape.to) {
    case 'wrap':
      return enclose(value, shape.levels, 'array');
    case 'object':
      return { [shape.key]: value };
    case 'twice':
      return [value, structuredClone(value)];
    case 'emptyList':
      return enclose([], shape.levels - 1, 'array');
    case 'emptyObject':
      return {};
    case 'unwrap':
      if (Array.isArray(value)) return value.length > 0 ? value[0] : 'x';
      if (value !== null && typeof value === 'object') return Object.values(value)[0] ?? 'x';
      if (typeof value === 'string') return value.length;
      return String(value);
    case 'text':
      return JSON.stringify(value) ?? 'undefined';
    case 'scalar':
      return shape.value;
    case 'deep':
      // The value sits at depth pathLength + 1 (the root is 1): the innermost container lands
      // at `shape.depth`, on either side of the limit.
      return enclose('x', Math.max(1, shape.depth - pathLength), shape.kind);
    case 'wide': {
      const each = countValues(value);
      const others = countValues(body) - each + 1;
      const byValues = Math.floor((BODY_MAX_VALUES + shape.spare - others) / each);
      // Each copy costs its JSON and a comma.
      const byBytes = Math.floor(WIDE_MAX_BYTES / ((JSON.stringify(value) ?? 'null').length + 1));
      const copies = Math.max(1, Math.min(byValues, byBytes));
      return Array.from({ length: copies }, () => structuredClone(value));
    }
  }
}

function confuseAt(body: unknown, m: Confusion): unknown {
  const paths = pathsOf(body);
  const levels = [...new Set(paths.map((p) => p.length))].sort((x, y) => x - y);
  const level = levels[m.level % levels.length];
  const candidates = paths.filter((p) => p.length === level);
  const path = candidates[m.pick % candidates.length];
  if (path.length === 0) return confused(body, m.shape, 0, body);
  const parent = at(body, path.slice(0, -1)) as Record<string | number, unknown>;
  const key = path[path.length - 1];
  parent[key] = confused(parent[key], m.shape, path.length, body);
  return body;
}

function at(value: unknown, path: (string | number)[]): unknown {
  let v = value as any;
  for (const k of path) v = v?.[k];
  return v;
}

/** Is this an error tree of docs/api.md, Errors: `{"$": [strings]}` and/or nested trees, nothing else? */
export function isErrorTree(tree: unknown, depth = 0): boolean {
  if (depth > 50 || tree === null || typeof tree !== 'object' || Array.isArray(tree)) return false;
  const entries = Object.entries(tree);
  if (entries.length === 0) return depth === 0;
  return entries.every(([k, v]) =>
    k === '$'
      ? Array.isArray(v) && v.length > 0 && v.every((m) => typeof m === 'string' && m.length > 0)
      : isErrorTree(v, depth + 1),
  );
}

/**
 * The contract's promise for any answer: never a 5xx; a 4xx is JSON, either
 * `{"errors": {...}}` (a well-formed error tree) or `{"detail": "..."}`, and nothing else; under
 * /fhir/R4/ an OperationOutcome in `application/fhir+json`, at /mcp also a JSON-RPC error (docs/api.md,
 * FHIR R4 and MCP). Returns a description of what is wrong, or null.
 */
export function contractViolation(
  status: number,
  contentType: string,
  text: string,
  path = '/api/',
): string | null {
  if (status >= 500) return `status ${status}: ${text.slice(0, 300)}`;
  if (status < 400) return null;
  const fhir = path.startsWith('/fhir/R4/');
  if (!(fhir ? /^application\/fhir\+json/ : /^application\/json/).test(contentType))
    return `status ${status} with content-type "${contentType}": ${text.slice(0, 200)}`;
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return `status ${status} with a body that is not JSON: ${text.slice(0, 200)}`;
  }
  if (body === null || typeof body !== 'object' || Array.isArray(body))
    return `status ${status} body is not an object: ${text.slice(0, 200)}`;
  const b = body as Record<string, unknown>;
  if (fhir)
    return isOperationOutcome(b)
      ? null
      : `status ${status} is not an OperationOutcome: ${text.slice(0, 300)}`;
  if (/^\/mcp\/?(\?|$)/.test(path) && b.jsonrpc !== undefined)
    return isJsonRpcError(b)
      ? null
      : `status ${status} is not a JSON-RPC error: ${text.slice(0, 300)}`;
  // docs/api.md, Authentication and Errors: a 401 carries a `hint` beside its `detail`, a 404 may;
  // every other error has one key.
  const hinted = status === 401 || status === 404;
  const keys = Object.keys(body).filter((k) => !(hinted && k === 'hint'));
  if (keys.length !== 1) return `status ${status} body has keys ${Object.keys(body).join(',')}`;
  if ((status === 401 || 'hint' in b) && (typeof b.hint !== 'string' || b.hint.length === 0))
    return `status ${status} has no hint: ${text.slice(0, 200)}`;
  if (keys[0] === 'detail') {
    return typeof b.detail === 'string' && b.detail.length > 0
      ? null
      : `status ${status} detail is not a string`;
  }
  if (keys[0] === 'errors') {
    return isErrorTree(b.errors)
      ? null
      : `status ${status} malformed errors tree: ${text.slice(0, 300)}`;
  }
  return `status ${status} body is neither {errors} nor {detail}: ${text.slice(0, 200)}`;
}

/** An OperationOutcome with at least one issue, each with its severity, code and words. */
function isOperationOutcome(b: Record<string, unknown>): boolean {
  const issues = b.issue;
  return (
    b.resourceType === 'OperationOutcome' &&
    Array.isArray(issues) &&
    issues.length > 0 &&
    issues.every(
      (i: Record<string, unknown>) =>
        typeof i.severity === 'string' &&
        typeof i.code === 'string' &&
        typeof i.diagnostics === 'string' &&
        i.diagnostics.length > 0,
    )
  );
}

/** A JSON-RPC 2.0 error answer: `{"jsonrpc": "2.0", "error": {code, message}, "id"}`. */
function isJsonRpcError(b: Record<string, unknown>): boolean {
  const e = b.error as Record<string, unknown> | undefined;
  return (
    b.jsonrpc === '2.0' &&
    'id' in b &&
    typeof e === 'object' &&
    e !== null &&
    Number.isInteger(e.code) &&
    typeof e.message === 'string' &&
    e.message.length > 0
  );
}

/** A keep-alive HTTP client for one listening app (Node's fetch pools connections). */
export class FuzzClient {
  sent = 0;
  /** Time spent waiting for answers. */
  busyMs = 0;
  readonly statuses = new Map<number, number>();
  readonly violations: string[] = [];
  /** The slowest answers, for finding what makes the service slow. */
  readonly slowest: { ms: number; what: string }[] = [];

  constructor(private readonly base: string) {}

  async send(
    method: string,
    path: string,
    opts: { headers?: Record<string, string>; body?: unknown; raw?: string | Buffer } = {},
  ): Promise<{ status: number; text: string; contentType: string; headers: Headers }> {
    const headers: Record<string, string> = { ...opts.headers };
    let body: string | Buffer | undefined;
    if (opts.raw !== undefined) body = opts.raw;
    else if (opts.body !== undefined) {
      body = JSON.stringify(opts.body) ?? 'null';
      headers['Content-Type'] ??= 'application/json';
    }
    const t0 = Date.now();
    const res = await fetch(this.base + path, {
      method,
      headers,
      body: method === 'GET' || method === 'HEAD' ? undefined : body,
      redirect: 'manual',
      signal: AbortSignal.timeout(30_000),
    });
    const text = await res.text();
    const ms = Date.now() - t0;
    this.busyMs += ms;
    if (this.slowest.length < 10 || ms > this.slowest[this.slowest.length - 1].ms) {
      const shown = typeof body === 'string' ? body : (body?.toString('utf8') ?? '');
      this.slowest.push({
        ms,
        what: `${method} ${path.slice(0, 80)} ${shown.slice(0, 120)} (${shown.length} bytes) → ${res.status}`,
      });
      this.slowest.sort((x, y) => y.ms - x.ms);
      this.slowest.length = Math.min(this.slowest.length, 10);
    }
    this.sent++;
    this.statuses.set(res.status, (this.statuses.get(res.status) ?? 0) + 1);
    return {
      status: res.status,
      text,
      contentType: res.headers.get('content-type') ?? '',
      headers: res.headers,
    };
  }

  /**
   * Sends and checks the answer against the contract; records and returns any violation. The
   * violation always says what was sent (cut short) and what came back: the status and the first
   * bytes of the answer, or why there was no answer (a reset, a refused connection, a timeout).
   */
  async check(
    label: string,
    method: string,
    path: string,
    opts: { headers?: Record<string, string>; body?: unknown; raw?: string | Buffer } = {},
  ): Promise<string | null> {
    let problem: string | null;
    try {
      const res = await this.send(method, path, opts);
      problem = contractViolation(res.status, res.contentType, res.text, path);
    } catch (e) {
      problem = `no answer: ${describeFailure(e)}`;
    }
    if (problem) {
      const line = `${label}: ${method} ${path.slice(0, 200)} → ${problem}; sent: ${describeBody(opts)}`;
      this.violations.push(line);
      return line;
    }
    return null;
  }
}

/** A request body for a report: its first 1,500 characters and its size, whatever its size. */
export function describeBody(opts: { body?: unknown; raw?: string | Buffer }): string {
  let shown: string;
  if (opts.raw !== undefined)
    shown = typeof opts.raw === 'string' ? opts.raw : opts.raw.toString('utf8');
  else {
    try {
      shown = JSON.stringify(opts.body) ?? '';
    } catch (e) {
      return `(not serialisable: ${describeFailure(e)})`;
    }
  }
  return shown.length <= 1_500 ? shown : `${shown.slice(0, 1_500)}… (${shown.length} characters)`;
}

/**
 * An error and its causes on one line (fetch hides the socket's error in `cause`). Errors are
 * recognised by shape: under Jest, Node's own errors come from another realm than `Error`.
 */
export function describeFailure(e: unknown): string {
  const parts: string[] = [];
  let c: unknown = e;
  for (let i = 0; c !== undefined && c !== null && i < 4; i++) {
    if (typeof c === 'object' && 'message' in c) {
      const err = c as { name?: unknown; message: unknown; cause?: unknown };
      parts.push(`${typeof err.name === 'string' ? err.name : 'Error'}: ${String(err.message)}`);
      c = err.cause;
    } else {
      parts.push(typeof c === 'string' ? c : JSON.stringify(c));
      c = undefined;
    }
  }
  return parts.join(' ← ').slice(0, 4_000);
}

/** encodeURIComponent that also takes lone surrogates (as U+FFFD). */
export function encodeSegment(s: string): string {
  return encodeURIComponent(
    s.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd'),
  );
}
