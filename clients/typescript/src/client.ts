import createFetchClient, { type Client } from 'openapi-fetch';
import { ApiError, retryAfterSeconds, WaitTimeoutError } from './errors.js';
import { retryingFetch, type RetryOptions } from './retry.js';
import type { components, paths } from './schema.js';

type Schemas = components['schemas'];
export type EligibilityResultV1 = Schemas['EligibilityResultV1'];
export type EligibilityResultV2 = Schemas['EligibilityResultV2'];
export type CreateEligibility = Schemas['CreateEligibilityDto'];

export interface ClientConfig extends RetryOptions {
  /** Where the service answers, e.g. `https://eligibility.example.com`. */
  baseUrl: string;
  /** An API key (`vk_...`), sent as `Authorization: Api <key>`. */
  apiKey: string;
  /** The fetch to use (default: the global one of Node.js 18+). */
  fetch?: (request: Request) => Promise<Response>;
}

/** What openapi-fetch answers: the data of a success, or the error body of any other answer. */
interface Outcome {
  data?: unknown;
  error?: unknown;
  response: Response;
}
/** The data of the success member of an openapi-fetch answer. */
type SuccessData<R> = R extends { data: infer D; error?: never } ? D : never;

/**
 * The data of an openapi-fetch call; an answer that is not a success throws its `ApiError`.
 *
 *     const patient = await ok(client.GET('/api/auth/v1/patients/{code}/', {
 *       params: { path: { code } } }));
 */
export async function ok<R extends Outcome>(pending: Promise<R>): Promise<SuccessData<R>> {
  const outcome = await pending;
  const response = outcome.response;
  if (outcome.error !== undefined || !response.ok) {
    throw new ApiError({
      status: response.status,
      body: outcome.error,
      url: response.url ? new URL(response.url).pathname : undefined,
      requestId: response.headers.get('x-request-id'),
      retryAfter: retryAfterSeconds(response.headers.get('retry-after')),
    });
  }
  return outcome.data as SuccessData<R>;
}

/** The paths whose GET answers a keyset page `{result: [...], next_cursor}`. */
type PageOf<P> = P extends { get: { responses: { 200: { content: { 'application/json': infer B } } } } }
  ? B
  : never;
type ItemOf<P> = PageOf<P> extends { result: (infer I)[]; next_cursor: string | null } ? I : never;
export type ListPath = {
  [P in keyof paths]: [ItemOf<paths[P]>] extends [never] ? never : P;
}[keyof paths];
/** One item of the list at `P`. */
export type ListItem<P extends ListPath> = ItemOf<paths[P]>;
type GetParameters<P extends ListPath> = paths[P] extends { get: { parameters: infer Q } }
  ? Q
  : never;
/** The path and query parameters of a list, `cursor` left out (`listAll` sets it). */
export type ListParams<P extends ListPath> = {
  path?: GetParameters<P> extends { path?: infer T } ? T : never;
  query?: GetParameters<P> extends { query?: infer T } ? Omit<NonNullable<T>, 'cursor'> : never;
};

export interface WaitOptions {
  /** Give up after this long (ms, default 120000) with a `WaitTimeoutError`. */
  timeoutMs?: number;
  /** The first pause between polls (ms, default 500), doubled each time up to `maxPollMs`. */
  firstPollMs?: number;
  /** The longest pause between polls (ms, default 15000). */
  maxPollMs?: number;
  /**
   * Resolves when your webhook receiver got the request's `eligibility.finished` (after
   * `verifyWebhook`): the result is read at once instead of at the next poll. Polling goes on
   * meanwhile, in case a delivery is late or lost.
   */
  webhook?: (requestUid: string) => Promise<unknown>;
}

export interface VisionClient extends Client<paths> {
  /**
   * Starts an eligibility request (`POST /api/auth/v1/eligibility/`) and answers its result
   * once it is no longer `processing`: `complete` or `error` (docs/api.md, States and error
   * codes). With `wait_for` in the body, "no longer processing" is what it says.
   */
  searchAndWait(body: CreateEligibility, options?: WaitOptions): Promise<EligibilityResultV2>;
  searchAndWait(
    body: CreateEligibility,
    options: WaitOptions & { version: 'v1' },
  ): Promise<EligibilityResultV1>;
  /** Every item of a list, page after page (`next_cursor` passed back as `cursor`). */
  listAll<P extends ListPath>(path: P, params?: ListParams<P>): AsyncGenerator<ListItem<P>>;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * A typed client of the API: openapi-fetch's `GET`, `POST`, `PUT`, `PATCH`, `DELETE` for every
 * operation of the OpenAPI document, with the API key, retries of 429 and 503, and the helpers
 * `searchAndWait` and `listAll`. Wrap a call in `ok()` to get its data or an `ApiError`.
 */
export function createClient(config: ClientConfig): VisionClient {
  const base = config.fetch ?? ((request: Request) => globalThis.fetch(request));
  const client = createFetchClient<paths>({
    baseUrl: config.baseUrl.replace(/\/+$/, ''),
    headers: { Authorization: `Api ${config.apiKey}` },
    fetch: retryingFetch(base, config),
  });

  async function result(uid: string, version: 'v1' | 'v2') {
    const params = { params: { path: { request_uid: uid } } };
    return version === 'v1'
      ? ok(client.GET('/api/auth/v1/eligibility/{request_uid}/', params))
      : ok(client.GET('/api/auth/v2/eligibility/{request_uid}/', params));
  }

  async function searchAndWait(
    body: CreateEligibility,
    options: WaitOptions & { version?: 'v1' | 'v2' } = {},
  ): Promise<EligibilityResultV1 | EligibilityResultV2> {
    const started = Date.now();
    const timeout = options.timeoutMs ?? 120_000;
    const { request_uid: uid } = await ok(client.POST('/api/auth/v1/eligibility/', { body }));
    // Until the webhook has come, its arrival ends a pause early: the result is read at once.
    let delivered = false;
    const arrived = options.webhook?.(uid).then(
      () => (delivered = true),
      () => undefined,
    );
    let pause = options.firstPollMs ?? 500;
    for (;;) {
      const answer = await result(uid, options.version ?? 'v2');
      if (answer.status !== 'processing') return answer;
      const left = started + timeout - Date.now();
      if (left <= 0) throw new WaitTimeoutError(uid, Date.now() - started);
      if (!delivered) await Promise.race([sleep(Math.min(pause, left)), arrived].filter(Boolean));
      else await sleep(Math.min(pause, left));
      pause = Math.min(pause * 2, options.maxPollMs ?? 15_000);
    }
  }

  async function* listAll<P extends ListPath>(
    path: P,
    params: ListParams<P> = {},
  ): AsyncGenerator<ListItem<P>> {
    let cursor: string | null = null;
    do {
      const init = { params: { path: params.path, query: { ...params.query, cursor } } };
      // Every list path has a GET of this shape; the path union is too wide for one signature.
      const page = (await ok(
        (client.GET as (p: string, i: unknown) => Promise<Outcome>)(path, init),
      )) as { result: ListItem<P>[]; next_cursor: string | null };
      for (const item of page.result) yield item;
      cursor = page.next_cursor;
    } while (cursor !== null);
  }

  return Object.assign(client, { searchAndWait, listAll }) as VisionClient;
}
