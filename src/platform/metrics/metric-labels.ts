import { KNOWN_INSURER_CODES } from '@/lib/insurer-codes';

/**
 * Label values of the metrics (docs/architecture.md, What operators see): each from a fixed
 * set, so no label can carry patient data, an id, a uid or an account name, and a scrape's size
 * stays bounded whatever the traffic. A value outside its set is counted as `other`.
 */

export const OTHER = 'other';

const INSURERS = new Set(KNOWN_INSURER_CODES);

/** An insurer code of the directory, else `other`. */
export function insurerLabel(code: string): string {
  return INSURERS.has(code) ? code : OTHER;
}

const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

export function methodLabel(method: string): string {
  return METHODS.has(method) ? method : OTHER;
}

const STATUS_CLASSES = ['1xx', '2xx', '3xx', '4xx', '5xx'] as const;

/** `2xx` for 200..299; a status outside 100..599 (none is sent) is `other`. */
export function statusClass(status: number): string {
  return STATUS_CLASSES[Math.floor(status / 100) - 1] ?? OTHER;
}

/** The route template of a matched route (never the raw path: it holds uids), else `unmatched`. */
export function routeLabel(template: unknown): string {
  return typeof template === 'string' && template.length > 0 && template.length <= 200
    ? template
    : 'unmatched';
}

/** Picks `value` when it is one of `allowed`, else `other`. */
export function oneOf<T extends string>(value: string, allowed: readonly T[]): T | typeof OTHER {
  return (allowed as readonly string[]).includes(value) ? (value as T) : OTHER;
}
