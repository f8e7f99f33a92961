/**
 * The errors of the API as values: every answer that is not a success becomes an `ApiError`
 * with the status and the body's `detail` or field `errors` (docs/api.md, Errors).
 */

/**
 * Field errors nested like the request body: `$` holds the messages about the object itself
 * (at the top: the whole request), every other key a field name or an array index ("0").
 */
export interface FieldErrors {
  $?: string[];
  [field: string]: FieldErrors | string[] | undefined;
}

export class ApiError extends Error {
  override readonly name = 'ApiError';
  /** The HTTP status: 400, 401, 403, 404, 409, 413, 415, 429, 500, 503. */
  readonly status: number;
  /** `detail` of a `{"detail": ...}` answer, else null. */
  readonly detail: string | null;
  /** The field errors of a 400 `{"errors": ...}` answer, else null. */
  readonly errors: FieldErrors | null;
  /** The answer's `X-Request-Id`: the service's logs and audit trail name the request by it. */
  readonly requestId: string | null;
  /** Seconds to wait before trying again (`Retry-After` of a 429 or 503), else null. */
  readonly retryAfter: number | null;
  /** The body as received (parsed JSON, or text). */
  readonly body: unknown;

  constructor(init: {
    status: number;
    body: unknown;
    method?: string;
    url?: string;
    requestId?: string | null;
    retryAfter?: number | null;
  }) {
    const body = init.body as { detail?: unknown; errors?: unknown } | null | undefined;
    const detail = typeof body?.detail === 'string' ? body.detail : null;
    const errors =
      typeof body?.errors === 'object' && body.errors !== null ? (body.errors as FieldErrors) : null;
    const what = detail ?? (errors ? describe(errors) : `HTTP ${init.status}`);
    super(init.method && init.url ? `${init.method} ${init.url} → ${init.status}: ${what}` : what);
    this.status = init.status;
    this.body = init.body;
    this.detail = detail;
    this.errors = errors;
    this.requestId = init.requestId ?? null;
    this.retryAfter = init.retryAfter ?? null;
  }

  /**
   * The field errors flattened: `{"patient.first_name": ["This field may not be blank."],
   * "services.0.cost": [...], "": [whole-request messages]}`.
   */
  fieldErrors(): Record<string, string[]> {
    const out: Record<string, string[]> = {};
    const walk = (node: FieldErrors, path: string[]) => {
      for (const [key, value] of Object.entries(node)) {
        if (value === undefined) continue;
        if (key === '$' && Array.isArray(value)) out[path.join('.')] = value;
        else if (!Array.isArray(value)) walk(value, [...path, key]);
      }
    };
    if (this.errors) walk(this.errors, []);
    return out;
  }
}

function describe(errors: FieldErrors): string {
  const parts: string[] = [];
  const walk = (node: FieldErrors, path: string[]) => {
    for (const [key, value] of Object.entries(node)) {
      if (value === undefined) continue;
      if (key === '$' && Array.isArray(value))
        parts.push(`${path.length ? `${path.join('.')}: ` : ''}${value.join(' ')}`);
      else if (!Array.isArray(value)) walk(value, [...path, key]);
    }
  };
  walk(errors, []);
  return parts.join('; ') || 'Validation failed.';
}

/** `Retry-After` in seconds (a number of seconds, or an HTTP date), or null. */
export function retryAfterSeconds(header: string | null): number | null {
  if (header === null || header.trim() === '') return null;
  if (/^\d+$/.test(header.trim())) return Number(header.trim());
  const at = Date.parse(header);
  return Number.isNaN(at) ? null : Math.max(0, Math.ceil((at - Date.now()) / 1000));
}

/** `searchAndWait` ran out of time before the request finished; it may still finish later. */
export class WaitTimeoutError extends Error {
  override readonly name = 'WaitTimeoutError';
  constructor(
    /** The request to keep polling, or to expect by webhook. */
    readonly requestUid: string,
    readonly waitedMs: number,
  ) {
    super(`Eligibility request ${requestUid} was still processing after ${waitedMs} ms.`);
  }
}
