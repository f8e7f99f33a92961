import { randomBytes } from 'node:crypto';
import { Inject, Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import type Redis from 'ioredis';
import { InjectConfig } from '@/platform/config/config.module';
import type { AppConfig } from '@/platform/config/env';
import { withTimeout } from '@/platform/kernel/timeout';
import { ThrottledError } from '@/platform/kernel/errors';
import { THROTTLE_REDIS } from '@/modules/redis';
import { type CostBudget, type CostBudgetName, costBudgets, spendShared } from './cost-budgets';
import { LocalRateBuckets } from './rate-fallback';
import { SPEND, TAKE } from './rate-scripts';

const RATE_WINDOW_MS = 60_000;
/** Most tokens one lease takes; Redis grants at most an eighth of what is left (see TAKE). */
const MAX_LEASE = 100;
/** Unused tokens older than this go back to the shared budget. */
export const LEASE_MS = 1_000;
/** Longest a request waits for Redis's answer before the per-process bound decides. */
export const REDIS_WAIT_MS = 200;
/** After Redis failed to answer, how long requests use the per-process bound before one probe. */
export const REDIS_RETRY_MS = 1_000;

interface Bucket {
  tokens: number;
  windowId: string;
  /** Local time by which the Redis window has surely ended (measured from when the call left). */
  resetAt: number;
  leasedAt: number;
  /** Redis said the window is used up: refuse without asking until this time. */
  exhaustedUntil: number;
  pending: Promise<void> | null;
}

export type RateDecision = { allowed: true } | { allowed: false; retryAfterSeconds: number };

/**
 * The per-key rate limit (docs/api.md, Authentication), shared across processes through Redis without a Redis
 * round trip per request. Each process leases tokens from the key's fixed 60-second window in
 * Redis and spends them locally; it asks again when its tokens run low (in the background, so
 * requests do not wait while tokens are left), and gives back what it has not spent within
 * LEASE_MS. The window never admits more than the limit in total (leases are taken from it
 * atomically and expire with it). The cost is the other way: a request can be refused while up
 * to an eighth of what was left sits unspent in another process, for at most about LEASE_MS
 * (2 × LEASE_MS with the sweep) before it is returned. Refusals are remembered for LEASE_MS, so a
 * client hammering past its limit costs no Redis calls either.
 *
 * docs/architecture.md, Behind a connection pooler, Redis down: when Redis is not connected, or did not answer within REDIS_WAIT_MS,
 * requests are counted by a per-process token bucket (LocalRateBuckets,
 * RATE_LIMIT_FALLBACK_PER_MINUTE) without waiting; tokens already leased are still spent first.
 * Redis is then asked again in the background (one lease every REDIS_RETRY_MS) and the shared
 * budget applies again as soon as it answers.
 */
@Injectable()
export class RateLimiter implements OnModuleDestroy {
  private readonly buckets = new Map<string, Bucket>();
  private readonly limit: number;
  private readonly sweeper: NodeJS.Timeout;
  private readonly logger = new Logger(RateLimiter.name);
  private readonly fallback: LocalRateBuckets;
  private readonly costs: Record<CostBudgetName, CostBudget>;
  /** Redis failed to answer: the per-process bound decides until a probe succeeds. */
  private suspect = false;
  private retryAt = 0;
  private probing = false;

  constructor(
    @InjectConfig() config: AppConfig,
    @Inject(THROTTLE_REDIS) private readonly redis: Redis,
  ) {
    this.limit = config.rateLimitPerMinute;
    this.fallback = new LocalRateBuckets(config.rateLimitFallbackPerMinute);
    this.costs = costBudgets(config);
    this.redis.defineCommand('rateLease', { numberOfKeys: 1, lua: TAKE });
    this.redis.defineCommand('costSpend', { numberOfKeys: 1, lua: SPEND });
    this.sweeper = setInterval(() => {
      this.fallback.sweep();
      for (const budget of Object.values(this.costs)) budget.fallback.sweep();
      void this.sweep();
    }, LEASE_MS);
    this.sweeper.unref();
  }

  /** Spends one token of the key. Synchronous while the process holds tokens. */
  take(key: string): RateDecision | Promise<RateDecision> {
    const bucket = this.buckets.get(key);
    if (bucket) {
      const now = Date.now();
      if (bucket.resetAt <= now) bucket.tokens = 0;
      if (bucket.tokens > 0) {
        bucket.tokens--;
        // Ask for more before running out, so the requests after this one need not wait.
        if (bucket.tokens <= MAX_LEASE / 4 && !bucket.pending && bucket.exhaustedUntil <= now) {
          void this.lease(key, bucket).catch(() => undefined);
        }
        return { allowed: true };
      }
      if (bucket.exhaustedUntil > now) return refused(bucket, now);
    }
    if (this.redisDown()) {
      this.probe(key);
      return this.fallback.take(key);
    }
    return this.takeSlow(key);
  }

  /**
   * Spends `cost` of the key's budget for heavy requests (docs/api.md, Conventions): one weighted
   * increment in Redis, or of this process's bucket while Redis is down (as `take`). Past the
   * budget it spends nothing and throws the 429 of the rate limit, with `Retry-After`.
   */
  async spend(name: CostBudgetName, key: string, cost: number): Promise<void> {
    const budget = this.costs[name];
    let decision: RateDecision | null = null;
    if (this.redisDown()) this.probe(key);
    else {
      try {
        decision = await withTimeout(spendShared(this.redis, budget, key, cost), REDIS_WAIT_MS);
      } catch (e) {
        this.markDown(e);
      }
    }
    decision ??= budget.fallback.take(key, Date.now(), cost);
    if (!decision.allowed) throw new ThrottledError(decision.retryAfterSeconds);
  }

  /** True while the per-process bound decides (Redis not connected, or not answering). */
  redisDown(): boolean {
    return this.suspect || this.redis.status !== 'ready';
  }

  async onModuleDestroy(): Promise<void> {
    clearInterval(this.sweeper);
    await this.sweep(true).catch(() => undefined);
  }

  private bucketOf(key: string): Bucket {
    let bucket = this.buckets.get(key);
    if (!bucket) {
      bucket = {
        tokens: 0,
        windowId: '',
        resetAt: 0,
        leasedAt: 0,
        exhaustedUntil: 0,
        pending: null,
      };
      this.buckets.set(key, bucket);
    }
    return bucket;
  }

  private markDown(e: unknown): void {
    if (!this.suspect)
      this.logger.warn(
        { err: (e as Error).message },
        'Redis does not answer: the rate limit is per process until it does',
      );
    this.suspect = true;
    this.retryAt = Date.now() + REDIS_RETRY_MS;
  }

  /** While Redis is suspect: one lease in the background now and then; an answer clears it. */
  private probe(key: string): void {
    if (!this.suspect || this.probing || Date.now() < this.retryAt) return;
    if (this.redis.status !== 'ready') return;
    this.probing = true;
    const bucket = this.bucketOf(key);
    // A call Redis never answered is abandoned (its answer, if it comes, still counts).
    bucket.pending = null;
    withTimeout(this.lease(key, bucket), REDIS_WAIT_MS * 5)
      .then(
        () => {
          this.suspect = false;
          this.logger.log('Redis answers again: the rate limit is shared again');
        },
        (e: unknown) => this.markDown(e),
      )
      .finally(() => (this.probing = false));
  }

  private async takeSlow(key: string): Promise<RateDecision> {
    const bucket = this.bucketOf(key);
    // Each round either spends a token, or took at least one from Redis that another request
    // of this process spent first, or learns that the window is used up. Bounded all the same.
    for (let round = 0; round < 20; round++) {
      const now = Date.now();
      if (bucket.resetAt <= now) bucket.tokens = 0;
      if (bucket.tokens > 0) {
        bucket.tokens--;
        return { allowed: true };
      }
      if (bucket.exhaustedUntil > now) return refused(bucket, now);
      try {
        await withTimeout(bucket.pending ?? this.lease(key, bucket), REDIS_WAIT_MS);
      } catch (e) {
        this.markDown(e);
        return this.fallback.take(key);
      }
    }
    // Only near the end of the budget with many requests at once: they are at their limit.
    return refused(bucket, Date.now());
  }

  /**
   * One lease call for the key; concurrent callers share it. It never gives tokens back (only the
   * sweep does, after taking them out of the bucket), so tokens spent while it is out stay spent.
   */
  private lease(key: string, bucket: Bucket): Promise<void> {
    if (bucket.pending) return bucket.pending;
    const sent = Date.now();
    const call = this.call(key, MAX_LEASE, 0, '').then(([granted, ttl, windowId]) => {
      // Tokens of an earlier window are worth nothing in this one.
      bucket.tokens = (windowId === bucket.windowId ? bucket.tokens : 0) + granted;
      bucket.windowId = windowId;
      bucket.resetAt = sent + Math.max(0, ttl);
      bucket.leasedAt = sent;
      bucket.exhaustedUntil = granted === 0 ? Math.min(bucket.resetAt, Date.now() + LEASE_MS) : 0;
    });
    bucket.pending = call.finally(() => (bucket.pending = null));
    return bucket.pending;
  }

  /** Returns tokens unspent for LEASE_MS and forgets buckets whose window has ended. */
  private async sweep(all = false): Promise<void> {
    const now = Date.now();
    const returns: Promise<unknown>[] = [];
    for (const [key, bucket] of this.buckets) {
      if (bucket.pending) continue;
      if (bucket.resetAt <= now) {
        if (bucket.exhaustedUntil <= now) this.buckets.delete(key);
        continue;
      }
      if (bucket.tokens > 0 && (all || now - bucket.leasedAt >= LEASE_MS)) {
        const back = bucket.tokens;
        bucket.tokens = 0;
        bucket.leasedAt = now;
        returns.push(this.call(key, 0, back, bucket.windowId).catch(() => undefined));
      }
    }
    await Promise.all(returns);
  }

  private async call(
    key: string,
    want: number,
    giveBack: number,
    windowId: string,
  ): Promise<[number, number, string]> {
    const redis = this.redis as Redis & {
      rateLease(...args: (string | number)[]): Promise<[number, number, string]>;
    };
    return redis.rateLease(
      `rl:${key}`,
      this.limit,
      RATE_WINDOW_MS,
      want,
      giveBack,
      windowId || '-',
      randomBytes(6).toString('base64url'),
    );
  }
}

function refused(bucket: Bucket, now: number): RateDecision {
  return {
    allowed: false,
    retryAfterSeconds: Math.max(1, Math.ceil((bucket.resetAt - now) / 1000)),
  };
}
