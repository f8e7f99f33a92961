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

/** What one insurer call ended as (the exchange log's outcomes). */
export const CALL_OUTCOMES = [
  'found',
  'not_found',
  'rejected',
  'unavailable',
  'unexpected',
  'deferred',
] as const;
/** How an insurer is reached: in this process (the sandbox) or over X12 (a clearinghouse). */
export const TRANSPORTS = ['sandbox', 'x12'] as const;
/** An insurer's state when its search ended (docs/api.md, Universal Search insurer by insurer). */
export const SEARCH_OUTCOMES = [
  'found',
  'no_plan',
  'failed',
  'waiting_for_person',
  'not_asked',
  'queued',
  'running',
] as const;
export const SEARCH_PATHS = ['electronic', 'assisted'] as const;
/** An automatic webhook attempt: delivered, to be tried again, or the delivery given up. */
export const DELIVERY_OUTCOMES = ['succeeded', 'retrying', 'failed'] as const;
export const TASK_STATES = ['queued', 'in_progress', 'needs_info'] as const;
export const POOL_STATES = ['active', 'idle', 'waiting'] as const;
