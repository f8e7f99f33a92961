import { Module } from '@nestjs/common';
import { ApiThrottlerGuard } from './api/api-throttler.guard';
import { RateLimiter } from './domain/rate-limiter';

/** The per-key rate limit; apart from AuthModule because it needs the app's Redis (the CLI has none). */
@Module({
  providers: [RateLimiter, ApiThrottlerGuard],
  exports: [ApiThrottlerGuard],
})
export class RateLimitModule {}
