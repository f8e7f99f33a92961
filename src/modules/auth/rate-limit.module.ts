import { Module } from '@nestjs/common';
import { ApiThrottlerGuard } from './api/api-throttler.guard';
import { RateLimiter } from './domain/rate-limiter';

/**
 * The per-key rate limit and cost budgets (docs/api.md, Conventions); apart from AuthModule
 * because it needs the app's Redis (the CLI has none).
 */
@Module({
  providers: [RateLimiter, ApiThrottlerGuard],
  exports: [ApiThrottlerGuard, RateLimiter],
})
export class RateLimitModule {}
