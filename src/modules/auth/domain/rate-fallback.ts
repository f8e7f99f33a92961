import { setBounded } from '@/platform/kernel/bounded-map';
import type { RateDecision } from './rate-limiter';

/** Beyond this many keys the oldest bucket goes first (it starts full again if asked). */
const MAX_KEYS = 100_000;
const MINUTE_MS = 60_000;

interface LocalBucket {
  tokens: number;
  at: number;
}

/**
 * docs/architecture.md, Behind a connection pooler: the per-process bound while Redis does not answer. One token bucket per API key
 * in this process: it holds at most `perMinute` tokens and refills at `perMinute` per minute,
 * evenly. So one process admits at most `perMinute` at once and `perMinute` per minute after
 * that; N processes admit up to N times as much between them (nothing is shared without Redis).
 * Synchronous: a request never waits for anything here.
 */
export class LocalRateBuckets {
  private readonly buckets = new Map<string, LocalBucket>();
  private readonly perMs: number;

  /** `perMinute` tokens a window; the window is a minute unless said (a cost budget's hour). */
  constructor(
    private readonly perMinute: number,
    windowMs = MINUTE_MS,
  ) {
    this.perMs = perMinute / windowMs;
  }

  /** Spends `cost` tokens (1 per request; a heavy request's cost, docs/api.md, Conventions). */
  take(key: string, now = Date.now(), cost = 1): RateDecision {
    let bucket = this.buckets.get(key);
    if (!bucket) {
      bucket = { tokens: this.perMinute, at: now };
      setBounded(this.buckets, MAX_KEYS, key, bucket);
    }
    bucket.tokens = Math.min(this.perMinute, bucket.tokens + (now - bucket.at) * this.perMs);
    bucket.at = now;
    if (bucket.tokens >= cost) {
      bucket.tokens -= cost;
      return { allowed: true };
    }
    const waitMs = (cost - bucket.tokens) / this.perMs;
    return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(waitMs / 1000)) };
  }

  /** Forgets buckets that have refilled (they would start full anyway). */
  sweep(now = Date.now()): void {
    for (const [key, b] of this.buckets)
      if (b.tokens + (now - b.at) * this.perMs >= this.perMinute) this.buckets.delete(key);
  }
}
