import type { ClearinghouseAuth } from '@/platform/config/clearinghouse';
import { fetchOutbound, readCapped } from '@/platform/http/outbound';
import { CallFailure, raceSignal } from './clearinghouse-http';

/** The Authorization header of the eligibility calls. */
export interface AuthorizationSource {
  header(signal: AbortSignal): Promise<string>;
  /** The clearinghouse refused the header (401): forget a cached token. */
  invalidate(): void;
}

/** Stedi's style: the key as it is, no scheme. */
class ApiKeyAuthorization implements AuthorizationSource {
  constructor(private readonly apiKey: string) {}

  async header(): Promise<string> {
    return this.apiKey;
  }

  invalidate(): void {}
}

const TOKEN_TIMEOUT_MS = 30_000;
/** Tokens are renewed this long before they expire, so none expires in flight. */
const EXPIRY_MARGIN_MS = 60_000;
const DEFAULT_LIFETIME_S = 300;
/** A token answer is a few hundred bytes of JSON. */
const MAX_TOKEN_ANSWER_BYTES = 64 * 1024;

/**
 * Optum's style: OAuth2 client credentials (JSON body, as Optum's token endpoint takes it), the
 * bearer token cached until shortly before it expires and fetched once for concurrent callers.
 */
class OAuth2Authorization implements AuthorizationSource {
  private token: { value: string; expiresAt: number } | null = null;
  private pending: Promise<{ value: string; expiresAt: number }> | null = null;

  constructor(
    private readonly auth: Extract<ClearinghouseAuth, { kind: 'oauth2' }>,
    private readonly fetchImpl: typeof fetch,
    private readonly now: () => number,
  ) {}

  async header(signal: AbortSignal): Promise<string> {
    if (this.token && this.token.expiresAt > this.now()) return `Bearer ${this.token.value}`;
    // One fetch for every caller waiting; each caller still gives up at its own deadline.
    this.pending ??= this.fetchToken().finally(() => (this.pending = null));
    this.token = await raceSignal(this.pending, signal);
    return `Bearer ${this.token.value}`;
  }

  invalidate(): void {
    this.token = null;
  }

  private async fetchToken(): Promise<{ value: string; expiresAt: number }> {
    // The client secret goes to the configured endpoint only: no redirect is followed.
    const { response, text } = await fetchOutbound(this.fetchImpl, this.auth.tokenUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({
        client_id: this.auth.clientId,
        client_secret: this.auth.clientSecret,
        grant_type: 'client_credentials',
      }),
      signal: AbortSignal.timeout(TOKEN_TIMEOUT_MS),
    })
      .then(async (r) => ({ response: r, text: await readCapped(r, MAX_TOKEN_ANSWER_BYTES) }))
      .catch((e: unknown) => {
        throw CallFailure.fromFetchError(e, 'the token endpoint');
      });
    if (response.status === 429 || response.status >= 500) {
      throw new CallFailure(
        'unavailable',
        `the token endpoint answered HTTP ${response.status}`,
        response.status,
      );
    }
    if (response.status !== 200) {
      throw new CallFailure(
        'rejected',
        `the token endpoint refused the client credentials (HTTP ${response.status})`,
        response.status,
      );
    }
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      throw new CallFailure(
        'unexpected',
        'the token endpoint answered something that is not JSON',
        200,
      );
    }
    const token = (body as { access_token?: unknown }).access_token;
    const lifetime = Number((body as { expires_in?: unknown }).expires_in ?? DEFAULT_LIFETIME_S);
    if (typeof token !== 'string' || token === '') {
      throw new CallFailure(
        'unexpected',
        'the token endpoint answered without an access_token',
        200,
      );
    }
    const seconds = Number.isFinite(lifetime) && lifetime > 0 ? lifetime : DEFAULT_LIFETIME_S;
    const margin = Math.min(EXPIRY_MARGIN_MS, (seconds * 1000) / 2);
    return { value: token, expiresAt: this.now() + seconds * 1000 - margin };
  }
}

export function authorizationFor(
  auth: ClearinghouseAuth,
  fetchImpl: typeof fetch,
  now: () => number,
): AuthorizationSource {
  return auth.kind === 'api_key'
    ? new ApiKeyAuthorization(auth.apiKey)
    : new OAuth2Authorization(auth, fetchImpl, now);
}
