import type Redis from 'ioredis';
import type { AppConfig } from '@/platform/config/env';
import { ThrottledError } from '@/platform/kernel/errors';
import { LocalRateBuckets } from './rate-fallback';
import { REDIS_RETRY_MS, REDIS_WAIT_MS, RateLimiter } from './rate-limiter';

describe('LocalRateBuckets (the per-process bound while Redis is down)', () => {
  it('admits the bound at once, then refills it evenly over the minute', () => {
    const b = new LocalRateBuckets(60);
    const t0 = 1_000_000;
    for (let i = 0; i < 60; i++) expect(b.take('k', t0)).toEqual({ allowed: true });
    expect(b.take('k', t0)).toEqual({ allowed: false, retryAfterSeconds: 1 });
    expect(b.take('other', t0)).toEqual({ allowed: true });
    // One token a second comes back.
    expect(b.take('k', t0 + 1_000)).toEqual({ allowed: true });
    expect(b.take('k', t0 + 1_000).allowed).toBe(false);
  });

  it('spends a weighted cost over a window of its own, and says when it will fit again', () => {
    const b = new LocalRateBuckets(100, 3_600_000);
    const t0 = 1_000_000;
    expect(b.take('k', t0, 60)).toEqual({ allowed: true });
    // 40 left: 60 more need 20 to refill, a fifth of the hour.
    expect(b.take('k', t0, 60)).toEqual({ allowed: false, retryAfterSeconds: 720 });
    expect(b.take('k', t0, 40)).toEqual({ allowed: true });
  });
});

describe('RateLimiter with a Redis that does not answer', () => {
  const config = {
    rateLimitPerMinute: 1000,
    rateLimitFallbackPerMinute: 3,
    costLimits: { batchItemsPerHour: 10, nextEligibleCostPerMinute: 10 },
  } as AppConfig;

  function fakeRedis(answer: () => Promise<unknown>, status = 'ready') {
    let calls = 0;
    const redis = {
      status,
      defineCommand: () => undefined,
      rateLease: () => {
        calls++;
        return answer();
      },
    };
    return { redis: redis as unknown as Redis, calls: () => calls };
  }

  it('waits at most REDIS_WAIT_MS once, then decides at once by the per-process bound', async () => {
    // The test's own clock: the wait is measured in the limiter's timers, not in wall time.
    jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask'] });
    const { redis, calls } = fakeRedis(() => new Promise(() => undefined));
    const limiter = new RateLimiter(config, redis);
    try {
      let answer: unknown;
      const first = Promise.resolve(limiter.take('k')).then((a) => (answer = a));
      await jest.advanceTimersByTimeAsync(REDIS_WAIT_MS - 1);
      expect(answer).toBeUndefined();
      await jest.advanceTimersByTimeAsync(1);
      await first;
      expect(answer).toEqual({ allowed: true });
      expect(limiter.redisDown()).toBe(true);
      // Synchronous answers now: the bound of 3 (one spent above), then 429.
      expect(limiter.take('k')).toEqual({ allowed: true });
      expect(limiter.take('k')).toEqual({ allowed: true });
      expect(limiter.take('k')).toEqual({ allowed: false, retryAfterSeconds: expect.any(Number) });
      expect(calls()).toBe(1);
    } finally {
      jest.useRealTimers();
      await limiter.onModuleDestroy();
    }
  });

  it('asks Redis again in the background and shares the budget again once it answers', async () => {
    let hung = true;
    const { redis } = fakeRedis(() =>
      hung ? new Promise(() => undefined) : Promise.resolve([100, 60_000, 'w1']),
    );
    const limiter = new RateLimiter(config, redis);
    try {
      await limiter.take('k');
      expect(limiter.redisDown()).toBe(true);
      hung = false;
      await new Promise((r) => setTimeout(r, REDIS_RETRY_MS + 50));
      // This request is decided locally at once; it starts the probe.
      expect(limiter.take('k')).toEqual({ allowed: true });
      await new Promise((r) => setTimeout(r, 20));
      expect(limiter.redisDown()).toBe(false);
      for (let i = 0; i < 10; i++) expect(limiter.take('k')).toEqual({ allowed: true });
    } finally {
      await limiter.onModuleDestroy();
    }
  });

  it('does not even ask while Redis is not connected', () => {
    const { redis, calls } = fakeRedis(() => Promise.reject(new Error('refused')), 'reconnecting');
    const limiter = new RateLimiter(config, redis);
    expect(limiter.take('k')).toEqual({ allowed: true });
    expect(calls()).toBe(0);
    void limiter.onModuleDestroy();
  });

  it('spends cost budgets by weight in this process while Redis is not connected', async () => {
    const { redis, calls } = fakeRedis(() => Promise.reject(new Error('refused')), 'reconnecting');
    const limiter = new RateLimiter(config, redis);
    try {
      // batchItemsPerHour 10: a batch of 6 passes, a second of 6 does not, 4 more still fit.
      await limiter.spend('batch_items', 'k', 6);
      const refused = limiter.spend('batch_items', 'k', 6);
      await expect(refused).rejects.toBeInstanceOf(ThrottledError);
      await expect(refused).rejects.toMatchObject({ status: 429 });
      await limiter.spend('batch_items', 'k', 4);
      // Each budget and key counts apart.
      await limiter.spend('next_eligible', 'k', 10);
      await limiter.spend('batch_items', 'other', 10);
      expect(calls()).toBe(0);
    } finally {
      await limiter.onModuleDestroy();
    }
  });
});
