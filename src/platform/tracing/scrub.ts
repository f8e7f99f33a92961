/**
 * What a span may take out of the process (docs/observability.md, Tracing: never patient data),
 * applied to every span before export. Attributes are kept only under known namespaces and never
 * with a query string (a name search travels in one); outgoing URLs keep only their origin (a
 * webhook's path may hold a secret); an error is its class name (messages can quote patient
 * data). The shapes below are the parts of OpenTelemetry's span this reads.
 */

type AttributeValue = string | number | boolean | (string | number | boolean | null | undefined)[];
export type Attributes = Record<string, AttributeValue | undefined>;

const KEPT_NAMESPACES = [
  'http.',
  'url.',
  'server.',
  'client.',
  'net.',
  'network.',
  'db.',
  'express.',
  'user_agent.',
  'error.',
  'insurer.',
  'queue.',
  'webhook.',
];

/** Kept namespaces' attributes that never leave: query strings, headers, SQL parameters. */
const DROPPED = [
  'url.query',
  'http.request.header.',
  'http.response.header.',
  'db.query.parameter.',
  'db.postgresql.values',
  'db.postgresql.parameters',
  'http.request.body',
  'http.response.body',
];

/** Attributes holding a whole URL, and those holding a path with its query. */
const FULL_URLS = new Set(['http.url', 'url.full', 'url.original']);
const TARGETS = new Set(['http.target', 'url.path']);

export function withoutQuery(value: string): string {
  const cut = value.search(/[?#]/);
  return cut === -1 ? value : value.slice(0, cut);
}

function originOf(value: string): string | undefined {
  try {
    const origin = new URL(value).origin;
    return origin === 'null' ? undefined : origin;
  } catch {
    return undefined;
  }
}

function kept(key: string): boolean {
  return (
    KEPT_NAMESPACES.some((ns) => key.startsWith(ns)) && !DROPPED.some((d) => key.startsWith(d))
  );
}

/**
 * A span's attributes as they may be exported. `outgoing`: the span is a call this process
 * made (a client span), whose URL keeps only its origin.
 */
export function scrubAttributes(attributes: Attributes, outgoing: boolean): Attributes {
  const out: Attributes = {};
  for (const [key, value] of Object.entries(attributes)) {
    if (value === undefined || !kept(key)) continue;
    if (FULL_URLS.has(key) || TARGETS.has(key)) {
      if (typeof value !== 'string') continue;
      if (!outgoing) out[key] = withoutQuery(value);
      else if (FULL_URLS.has(key)) {
        const origin = originOf(value);
        if (origin) out[key] = origin;
      }
      continue;
    }
    out[key] = value;
  }
  return out;
}

/** An event's attributes as they may be exported: of an exception, its type alone. */
export function scrubEventAttributes(attributes: Attributes | undefined): Attributes | undefined {
  if (!attributes) return attributes;
  const type = attributes['exception.type'];
  return type === undefined ? {} : { 'exception.type': type };
}
