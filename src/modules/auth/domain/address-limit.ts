import { Injectable, OnModuleDestroy } from '@nestjs/common';
import { InjectConfig } from '@/platform/config/config.module';
import type { AppConfig } from '@/platform/config/env';
import { LocalRateBuckets } from './rate-fallback';
import type { RateDecision } from './rate-limiter';

const SWEEP_MS = 60_000;

/**
 * docs/api.md, Authentication: requests without a valid credential are counted per client
 * address (req.ip, after TRUST_PROXY), RATE_LIMIT_UNAUTHENTICATED_PER_MINUTE per address and
 * process; past it they are answered 429 instead of 401, before any key is looked up. A valid
 * key is never refused by its address's count (a practice behind one NAT keeps working).
 */
@Injectable()
export class AddressLimit implements OnModuleDestroy {
  private readonly buckets: LocalRateBuckets;
  private readonly sweeper: NodeJS.Timeout;

  constructor(@InjectConfig() config: AppConfig) {
    this.buckets = new LocalRateBuckets(config.rateLimitUnauthenticatedPerMinute);
    this.sweeper = setInterval(() => this.buckets.sweep(), SWEEP_MS);
    this.sweeper.unref();
  }

  /** Counts one request of `address` that carried no valid credential. */
  take(address: string | undefined): RateDecision {
    return this.buckets.take(`addr:${address ?? '-'}`);
  }

  onModuleDestroy(): void {
    clearInterval(this.sweeper);
  }
}
