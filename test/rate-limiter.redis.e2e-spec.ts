import Redis from 'ioredis';
import { loadConfig, type AppConfig } from '@/platform/config/env';
import { RateLimiter, type RateDecision } from '@/modules/auth/domain/rate-limiter';
import { createRedis } from '@/modules/redis/redis.module';
import { flushRedisPrefix } from './support/app';

/** The limiter itself against the real Redis, as two processes would use it (two instances). */
describe('RateLimiter: a shared budget without a Redis call per request', () => {
  let config: AppConfig;
  const clients: Redis[] = [];
  const limiters: RateLimiter[] = [];

  async function limiter(limit: number): Promise<{ limiter: RateLimiter; calls: () => number }> {
    const redis = createRedis({ ...config, rateLimitPerMinute: limit }, 'throttle');
    clients.push(redis);
    await new Promise((resolve) => redis.once('ready', resolve));
    const l = new RateLimiter({ ...config, rateLimitPerMinute: limit }, redis);
    limiters.push(l);
    const lease = (redis as unknown as { rateLease: (...a: unknown[]) => Promise<unknown> })
      .rateLease;
    let calls = 0;
    (redis as unknown as { rateLease: (...a: unknown[]) => Promise<unknown> }).rateLease = (
      ...args: unknown[]
    ) => {
      calls++;
      return lease.apply(redis, args);
    };
    return { limiter: l, calls: () => calls };
  }

  const take = async (l: RateLimiter, key: string): Promise<RateDecision> => l.take(key);

  beforeAll(async () => {
    config = loadConfig();
    await flushRedisPrefix(config);
  });

  afterAll(async () => {
    for (const l of limiters) await l.onModuleDestroy();
    for (const c of clients) c.disconnect();
  });

  it('admits exactly the limit in one process, asking Redis for a small fraction of the requests', async () => {
    const { limiter: one, calls } = await limiter(1000);
    let allowed = 0;
    let refusal: RateDecision | null = null;
    for (let i = 0; i < 1100; i++) {
      const d = await take(one, 'key-single');
      if (d.allowed) allowed++;
      else refusal ??= d;
    }
    expect(allowed).toBe(1000);
    expect(refusal).toEqual({ allowed: false, retryAfterSeconds: expect.any(Number) });
    const retry = (refusal as { retryAfterSeconds: number }).retryAfterSeconds;
    expect(retry).toBeGreaterThanOrEqual(1);
    expect(retry).toBeLessThanOrEqual(60);
    // Leases shrink towards the end of the budget, so more calls than 1000/100, but far fewer
    // than one per request; the refused hundred cost no call at all.
    expect(calls()).toBeLessThan(100);
  });

  it('never admits more than the limit across two processes at once', async () => {
    const a = (await limiter(40)).limiter;
    const b = (await limiter(40)).limiter;
    const decisions = await Promise.all(
      Array.from({ length: 120 }, (_, i) => take(i % 2 ? a : b, 'key-shared')),
    );
    const allowed = decisions.filter((d) => d.allowed).length;
    expect(allowed).toBeLessThanOrEqual(40);
    expect(allowed).toBeGreaterThan(0);
    expect(decisions.filter((d) => !d.allowed)).toHaveLength(120 - allowed);
  });

  it('gives tokens it did not spend back to the shared budget', async () => {
    const a = (await limiter(50)).limiter;
    const b = (await limiter(50)).limiter;
    // The first lease takes a few tokens; one is spent, the rest wait in `a`.
    expect(await take(a, 'key-back')).toEqual({ allowed: true });
    // A process that stops (or that sat on them for a second) returns them.
    await a.onModuleDestroy();
    let allowed = 0;
    for (let i = 0; i < 60; i++) if ((await take(b, 'key-back')).allowed) allowed++;
    expect(allowed).toBe(49);
  });
});
