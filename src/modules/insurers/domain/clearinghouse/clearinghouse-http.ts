import {
  AnswerTooLarge,
  fetchOutbound,
  readCapped,
  RedirectRefused,
} from '@/platform/http/outbound';
import type { AuthorizationSource } from './clearinghouse-auth';

/**
 * The most of one clearinghouse answer read (JSON around one X12 file: a 271, a 277, an 835
 * batch; uploaded claim reports stop at 5 MiB); past it the answer is refused, unread.
 */
export const MAX_ANSWER_BYTES = 8 * 1024 * 1024;

/** The ways a call to the clearinghouse fails before a 271 can be read. */
type FailureKind = 'rejected' | 'unavailable' | 'unexpected';

export class CallFailure extends Error {
  override readonly name = 'CallFailure';

  constructor(
    readonly kind: FailureKind,
    message: string,
    readonly httpStatus: number | null = null,
    readonly retryAfterMs: number | null = null,
    readonly body: string | null = null,
  ) {
    super(message);
  }

  /**
   * A fetch that threw: aborted, timed out, or no connection (all worth a retry); a redirect or
   * an answer past MAX_ANSWER_BYTES is `unexpected` (src/platform/http/outbound.ts).
   */
  static fromFetchError(e: unknown, what: string): CallFailure {
    if (e instanceof CallFailure) return e;
    if (e instanceof RedirectRefused || e instanceof AnswerTooLarge)
      return new CallFailure('unexpected', `${what}: ${e.message}`);
    const error = e as {
      name?: string;
      message?: string;
      cause?: { code?: string; message?: string };
    };
    if (error.name === 'TimeoutError' || error.name === 'AbortError')
      return CallFailure.fromAbort(e, what);
    const detail = error.cause?.code ?? error.cause?.message ?? error.message ?? 'unknown error';
    return new CallFailure('unavailable', `no connection to ${what} (${detail})`);
  }

  /** The deadline passed (a TimeoutError reason) or the caller aborted (any other reason). */
  static fromAbort(reason: unknown, what: string): CallFailure {
    return (reason as { name?: string } | undefined)?.name === 'TimeoutError'
      ? new CallFailure('unavailable', `${what} did not answer before the deadline`)
      : new CallFailure('unavailable', `the call to ${what} was aborted`);
  }
}

export interface HttpAnswer {
  status: number;
  body: string;
  retryAfterMs: number | null;
}

/**
 * One call to the clearinghouse (with `x12`: POST `{"x12": ...}`) and its answer, read up to
 * MAX_ANSWER_BYTES, all within `signal` (the caller's deadline and abort). Network failures and
 * timeouts become CallFailure `unavailable`; a 401 or 403 makes `auth` forget a cached token.
 */
export async function callClearinghouse(
  fetchImpl: typeof fetch,
  auth: AuthorizationSource,
  request: { method: string; url: string; x12?: string; headers?: Record<string, string> },
  signal: AbortSignal,
  now: () => number,
): Promise<HttpAnswer> {
  const { method, url, x12, headers } = request;
  const authorization = await auth.header(signal);
  const json: Record<string, string> =
    x12 === undefined ? {} : { 'content-type': 'application/json' };
  let answer: HttpAnswer;
  try {
    const response = await fetchOutbound(fetchImpl, url, {
      method,
      headers: { ...headers, ...json, accept: 'application/json', authorization },
      ...(x12 === undefined ? {} : { body: JSON.stringify({ x12 }) }),
      signal,
    });
    const body = await readCapped(response, MAX_ANSWER_BYTES);
    const retryAfterMs = retryAfter(response.headers.get('retry-after'), now);
    answer = { status: response.status, body, retryAfterMs };
  } catch (e) {
    if (signal.aborted) throw CallFailure.fromAbort(signal.reason, 'the clearinghouse');
    throw CallFailure.fromFetchError(e, 'the clearinghouse');
  }
  if (answer.status === 401 || answer.status === 403) auth.invalidate();
  return answer;
}

/**
 * What a status says by itself: 401/403 the credentials (no retry); 408, 429 and 5xx try again
 * later. Null for any other status: the body tells.
 */
export function statusFailure({ status, retryAfterMs }: HttpAnswer): CallFailure | null {
  if (status === 401 || status === 403)
    return new CallFailure(
      'rejected',
      `the clearinghouse refused the credentials (HTTP ${status})`,
      status,
    );
  if (status === 408 || status === 429 || status >= 500)
    return new CallFailure(
      'unavailable',
      `the clearinghouse answered HTTP ${status}`,
      status,
      retryAfterMs,
    );
  return null;
}

/** An answer's JSON, or null when it is not JSON. */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}

/** The `x12` of a JSON answer when it is a string that is not blank, else null. */
export function x12Field(body: unknown): string | null {
  const x12 = (body as { x12?: unknown } | null)?.x12;
  return typeof x12 === 'string' && x12.trim() !== '' ? x12 : null;
}

/** Retry-After in seconds or as an HTTP date, in milliseconds from now; null when absent or bad. */
export function retryAfter(header: string | null, now: () => number): number | null {
  if (!header) return null;
  if (/^\d+$/.test(header.trim())) return Number(header.trim()) * 1000;
  const at = Date.parse(header);
  return Number.isNaN(at) ? null : Math.max(0, at - now());
}

/** Waits for `promise`, but gives up (with the signal's reason) when `signal` aborts first. */
export function raceSignal<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted)
    return Promise.reject(CallFailure.fromAbort(signal.reason, 'the token endpoint'));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(CallFailure.fromAbort(signal.reason, 'the token endpoint'));
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}
