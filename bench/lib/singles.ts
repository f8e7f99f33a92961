import type { Api } from './api';
import { sleep } from './proc';
import { type Latency, summarize } from './stats';

/** One timed request of a single search: when it was sent (epoch ms) and how long it took. */
export interface Sample {
  at: number;
  ms: number;
}

/** What a stream of single searches measured: each POST and each GET of its polling. */
export interface SinglesRun {
  searches: number;
  posts: Sample[];
  gets: Sample[];
  /** How far behind its schedule the stream ever started a search (a loaded client hides latency). */
  maxLagMs: number;
}

/** The POSTs and GETs sent within [from, to] (epoch ms), summarised. */
export interface SinglesFigures {
  post: Latency & { count: number };
  get: Latency & { count: number };
}

const POLL_MS = 20;

/**
 * Single sandbox searches started at a steady `ratePerSec` (open loop: a slow answer does not
 * delay the next start) until `stop()` answers true: each a POST, then a GET of
 * `/api/auth/v1/eligibility/{uid}/` every 20 ms until it is no longer `processing`. A non-2xx
 * answer, or a search ending `error`, throws (an error of the run).
 */
export async function runSingles(
  api: Api,
  ratePerSec: number,
  prefix: string,
  stop: () => boolean,
): Promise<SinglesRun> {
  const run: SinglesRun = { searches: 0, posts: [], gets: [], maxLagMs: 0 };
  const inFlight = new Set<Promise<void>>();
  const failed: { error?: Error } = {};
  const every = 1000 / ratePerSec;
  const start = performance.now();
  for (let i = 0; !stop() && !failed.error; i++) {
    const due = start + i * every;
    await sleep(Math.max(0, due - performance.now()));
    if (stop()) break;
    run.maxLagMs = Math.max(run.maxLagMs, performance.now() - due);
    const search = one(api, `${prefix}${i}`, run)
      .catch((e: unknown) => {
        failed.error ??= e instanceof Error ? e : new Error(String(e));
      })
      .finally(() => inFlight.delete(search));
    inFlight.add(search);
    run.searches++;
  }
  await Promise.all(inFlight);
  if (failed.error) throw failed.error;
  return run;
}

async function one(api: Api, name: string, run: SinglesRun): Promise<void> {
  const timed = async <T>(into: Sample[], call: () => Promise<T>): Promise<T> => {
    const at = Date.now();
    const t0 = performance.now();
    const answer = await call();
    into.push({ at, ms: performance.now() - t0 });
    return answer;
  };
  const { request_uid: uid } = await timed(run.posts, () =>
    api.expect<{ request_uid: string }>(201, 'POST', '/api/auth/v1/eligibility/', {
      insurer_code: 'insurer:demo:vision',
      patient: { first_name: name, last_name: 'Garcia', dob: '1984-06-15', zipcode: '78701' },
    }),
  );
  for (let polls = 0; ; polls++) {
    const { status } = await timed(run.gets, () =>
      api.expect<{ status: string }>(200, 'GET', `/api/auth/v1/eligibility/${uid}/`),
    );
    if (status === 'error') throw new Error(`single search ${uid} ended in error`);
    if (status !== 'processing') return;
    if (polls * POLL_MS > 60_000) throw new Error(`single search ${uid} not finished in a minute`);
    await sleep(POLL_MS);
  }
}

/** The samples of `run` sent within [from, to] (epoch ms): what the load met in that window. */
export function within(run: SinglesRun, from: number, to: number): SinglesFigures {
  const pick = (s: Sample[]) => s.filter((x) => x.at >= from && x.at + x.ms <= to).map((x) => x.ms);
  const post = pick(run.posts);
  const get = pick(run.gets);
  return {
    post: { ...summarize(post), count: post.length },
    get: { ...summarize(get), count: get.length },
  };
}
