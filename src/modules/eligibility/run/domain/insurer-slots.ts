import { randomUUID } from 'node:crypto';
import { Injectable, Logger } from '@nestjs/common';
import type Redis from 'ioredis';
import { InjectConfig } from '@/platform/config/config.module';
import type { AppConfig } from '@/platform/config/env';
import { InjectRedis } from '@/modules/redis';

/**
 * Where a search comes from: the front desk's single checks, or a batch's items (each has its
 * own line for insurer slots and its own queue).
 */
export type SearchOrigin = 'single' | 'batch';

/**
 * Polling for a free slot (by the head of each process's line): from 10 ms, backing off to 40 ms
 * for singles and 100 ms for batch items; a batch item steps back (deferral) after 2 s.
 */
const SINGLE_POLL_MS = 10;
const SINGLE_POLL_MAX_MS = 40;
const BATCH_POLL_MAX_MS = 100;
const BATCH_WAIT_MS = 2_000;
/** A single waiting for a slot blocks batch items for this long after its last poll. */
const WAITING_TTL_MS = 500;

/**
 * Takes one slot of an insurer, or refuses. Holders live in a sorted set scored by their
 * expiry (so a crashed process's slots free themselves); singles waiting for a slot are listed
 * too, and while any is waiting no batch item takes a slot, so a freed slot goes to a single.
 * KEYS: holders, waiting singles. ARGV: token, limit, slot ttl ms, origin, waiting ttl ms.
 */
const ACQUIRE = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now)
if ARGV[4] == 'batch' and redis.call('ZCARD', KEYS[2]) > 0 then return 0 end
if redis.call('ZCARD', KEYS[1]) < tonumber(ARGV[2]) then
  redis.call('ZADD', KEYS[1], now + tonumber(ARGV[3]), ARGV[1])
  redis.call('PEXPIRE', KEYS[1], ARGV[3])
  redis.call('ZREM', KEYS[2], ARGV[1])
  return 1
end
if ARGV[4] == 'single' then
  redis.call('ZADD', KEYS[2], now + tonumber(ARGV[5]), ARGV[1])
  redis.call('PEXPIRE', KEYS[2], ARGV[5])
end
return 0`;

interface Line {
  waiters: { token: string; deadline: number; resolve: (token: string | null) => void }[];
  pumping: boolean;
}

type SlotRedis = Redis & {
  acquireInsurerSlot(
    holders: string,
    waiting: string,
    token: string,
    limit: number,
    ttlMs: number,
    origin: SearchOrigin,
    waitingTtlMs: number,
  ): Promise<number>;
};

/**
 * The per-insurer concurrency limit (INSURER_CONCURRENCY), held in Redis so it bounds the calls
 * of every process together; while Redis does not answer, each process counts its own (as the
 * rate limits do: docs/configuration.md, Database and Redis). Single checks may use every slot; batch items only the batch
 * share (the limit less a quarter kept for singles), and none while a single waits. A search
 * that gets no slot in time is deferred (asked again shortly, not counted as an attempt).
 */
@Injectable()
export class InsurerSlots {
  private readonly logger = new Logger(InsurerSlots.name);
  private readonly redis: SlotRedis;
  /** This process's searches waiting for a slot, by origin and insurer. */
  private readonly lines = new Map<string, Line>();
  /** Slots held in this process's own count (taken while Redis did not answer), by insurer. */
  private readonly local = new Map<string, Set<string>>();

  constructor(
    @InjectRedis() redis: Redis,
    @InjectConfig() private readonly config: AppConfig,
  ) {
    redis.defineCommand('acquireInsurerSlot', { numberOfKeys: 2, lua: ACQUIRE });
    this.redis = redis as SlotRedis;
  }

  /** Slots the searches of an origin may fill: all of them for singles, the batch share for batch items. */
  limit(origin: SearchOrigin): number {
    return origin === 'single'
      ? this.config.insurerConcurrency
      : batchShare(this.config.insurerConcurrency);
  }

  /**
   * Runs `call` holding a slot of insurer `code`; answers null, without calling, when no slot was
   * free in time (a single waits up to INSURER_TIMEOUT_MS, a batch item a couple of seconds).
   */
  async withSlot<T>(code: string, origin: SearchOrigin, call: () => Promise<T>): Promise<T | null> {
    const deadline =
      Date.now() + (origin === 'single' ? this.config.insurerTimeoutMs : BATCH_WAIT_MS);
    const token = await this.acquire(code, origin, deadline);
    if (token === null) return null;
    try {
      return await call();
    } finally {
      if (!this.local.get(code)?.delete(token))
        await this.redis.zrem(holdersKey(code), token).catch((e: unknown) =>
          // The slot expires by itself (its score is its expiry).
          this.logger.warn({ insurer: code, err: (e as Error).message }, 'slot not released'),
        );
    }
  }

  /**
   * Waits in this process's line for `code` and `origin` (first come, first served): only the head
   * of the line asks Redis, so fifty searches waiting for a slot cost one poll, not fifty.
   */
  private acquire(code: string, origin: SearchOrigin, deadline: number): Promise<string | null> {
    const key = `${origin}:${code}`;
    let line = this.lines.get(key);
    if (!line) this.lines.set(key, (line = { waiters: [], pumping: false }));
    const waiting = line;
    return new Promise((resolve) => {
      waiting.waiters.push({ token: randomUUID(), deadline, resolve });
      if (!waiting.pumping) void this.pump(code, origin, waiting);
    });
  }

  private async pump(code: string, origin: SearchOrigin, line: Line): Promise<void> {
    line.pumping = true;
    let pollMs = SINGLE_POLL_MS;
    try {
      while (line.waiters.length > 0) {
        const now = Date.now();
        for (const late of line.waiters.filter((w) => w.deadline <= now)) late.resolve(null);
        line.waiters = line.waiters.filter((w) => w.deadline > now);
        const head = line.waiters[0];
        if (!head) break;
        if (await this.tryAcquire(code, origin, head.token)) {
          line.waiters.shift();
          head.resolve(head.token);
          pollMs = SINGLE_POLL_MS;
          continue;
        }
        await sleep(pollMs);
        pollMs = Math.min(pollMs * 2, origin === 'single' ? SINGLE_POLL_MAX_MS : BATCH_POLL_MAX_MS);
      }
    } finally {
      line.pumping = false;
      // Whoever is still in line (an unexpected error) gets no slot rather than waiting for ever.
      for (const w of line.waiters.splice(0)) w.resolve(null);
    }
  }

  private async tryAcquire(code: string, origin: SearchOrigin, token: string): Promise<boolean> {
    try {
      const got = await this.redis.acquireInsurerSlot(
        holdersKey(code),
        waitingKey(code),
        token,
        this.limit(origin),
        this.config.insurerTimeoutMs + 5_000,
        origin,
        WAITING_TTL_MS,
      );
      return got === 1;
    } catch {
      return this.tryAcquireHere(code, origin, token);
    }
  }

  /** The same rules on this process's own count. */
  private tryAcquireHere(code: string, origin: SearchOrigin, token: string): boolean {
    let held = this.local.get(code);
    if (!held) this.local.set(code, (held = new Set()));
    const singleWaits = (this.lines.get(`single:${code}`)?.waiters.length ?? 0) > 0;
    if ((origin === 'batch' && singleWaits) || held.size >= this.limit(origin)) return false;
    held.add(token);
    return true;
  }
}

/** The batch share of an insurer's limit: a quarter (at least one slot) stays with singles. */
export function batchShare(limit: number): number {
  return limit >= 2 ? limit - Math.ceil(limit / 4) : limit;
}

const holdersKey = (code: string) => `insurer-slots:${code}`;
const waitingKey = (code: string) => `insurer-slots-waiting:${code}`;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
