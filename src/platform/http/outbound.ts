/**
 * The service's own calls to other servers (clearinghouse, OAuth token, NPI registry). A redirect
 * is an error, never followed: a 307/308 would resend an 837P or client credentials wherever it
 * points. An answer is read up to a cap and refused past it.
 */

/** The answer passed its cap (by Content-Length or while streaming). */
export class AnswerTooLarge extends Error {
  override readonly name = 'AnswerTooLarge';

  constructor(readonly maxBytes: number) {
    super(`the answer is larger than ${maxBytes} bytes`);
  }
}

/** The server answered a redirect, which is never followed. */
export class RedirectRefused extends Error {
  override readonly name = 'RedirectRefused';

  constructor() {
    super('the server answered a redirect, which is never followed');
  }
}

/** `fetchImpl(url, init)` with redirects refused; a redirect throws RedirectRefused. */
export async function fetchOutbound(
  fetchImpl: typeof fetch,
  url: string | URL,
  init: RequestInit,
): Promise<Response> {
  try {
    return await fetchImpl(url, { ...init, redirect: 'error' });
  } catch (e) {
    if (isRedirectError(e)) throw new RedirectRefused();
    throw e;
  }
}

/** undici's answer to `redirect: 'error'`: TypeError('fetch failed', { cause: 'unexpected redirect' }). */
function isRedirectError(e: unknown): boolean {
  const cause = (e as { cause?: { message?: unknown } } | null)?.cause;
  return cause?.message === 'unexpected redirect';
}

/** The body as text, refused (without reading on) once it passes `maxBytes`. */
export async function readCapped(res: Response, maxBytes: number): Promise<string> {
  if (Number(res.headers.get('content-length') ?? 0) > maxBytes) {
    await res.body?.cancel();
    throw new AnswerTooLarge(maxBytes);
  }
  if (!res.body) return '';
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      throw new AnswerTooLarge(maxBytes);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}
