import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { ThrottledError } from '@/platform/kernel/errors';
import type { AppRequest } from '@/platform/kernel/request-context';
import { RateDecision, RateLimiter } from '../domain/rate-limiter';

/**
 * Per-API-key rate limit (docs/api.md, Authentication), one budget per key for the whole API, shared across
 * processes (RateLimiter). Runs after ApiKeyGuard; requests without a key (health, docs, web
 * pages) are not counted here.
 */
@Injectable()
export class ApiThrottlerGuard implements CanActivate {
  constructor(private readonly limiter: RateLimiter) {}

  canActivate(context: ExecutionContext): boolean | Promise<boolean> {
    const auth = context.switchToHttp().getRequest<AppRequest>().auth;
    if (!auth) return true;
    const decision = this.limiter.take(auth.apiKeyId);
    return decision instanceof Promise ? decision.then(allow) : allow(decision);
  }
}

function allow(decision: RateDecision): boolean {
  if (!decision.allowed) throw new ThrottledError(decision.retryAfterSeconds);
  return true;
}
