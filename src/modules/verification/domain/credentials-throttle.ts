import { Injectable } from '@nestjs/common';
import type Redis from 'ioredis';
import { ServiceUnavailableError, ThrottledError } from '@/platform/kernel/errors';
import { withTimeout } from '@/platform/kernel/timeout';
import { InjectRedis } from '@/modules/redis';

/** Reads of stored portal passwords one verifier (API key or web user) may make per window. */
export const CREDENTIAL_READS_PER_HOUR = 10;
const WINDOW_SECONDS = 3_600;
const REDIS_WAIT_MS = 1_000;

/**
 * A verifier signs in to a portal a few times an hour at most; a key reading passwords faster
 * than that is scraping them. Counted in Redis (shared by every process) over a fixed hour that
 * starts with the first read. When Redis does not answer the read is refused (503): this bound
 * stays closed rather than falling back to a per-process count.
 */
@Injectable()
export class CredentialsThrottle {
  constructor(@InjectRedis() private readonly redis: Redis) {}

  /** Counts one read by `verifierId`; throws 429 past the limit. */
  async take(verifierId: string): Promise<void> {
    const key = `credential-reads:${verifierId}`;
    let replies: [Error | null, unknown][] | null;
    try {
      replies = await withTimeout(
        this.redis.multi().incr(key).expire(key, WINDOW_SECONDS, 'NX').ttl(key).exec(),
        REDIS_WAIT_MS,
      );
    } catch {
      throw new ServiceUnavailableError('Reading a stored password is unavailable; try again.');
    }
    const count = Number(replies?.[0]?.[1] ?? Infinity);
    const ttl = Number(replies?.[2]?.[1] ?? WINDOW_SECONDS);
    if (!(count <= CREDENTIAL_READS_PER_HOUR)) throw new ThrottledError(Math.max(1, ttl));
  }
}
