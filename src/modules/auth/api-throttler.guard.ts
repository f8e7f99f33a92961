import { ExecutionContext, Injectable } from '@nestjs/common';
import { ThrottlerGuard } from '@nestjs/throttler';
import type { ThrottlerLimitDetail } from '@nestjs/throttler/dist/throttler.guard.interface';
import { ThrottledError } from '@/common/http-exception.filter';
import type { AppRequest } from '@/common/request-context';

/**
 * Per-API-key rate limit (CONTRACT §2), counted in Redis so it holds across processes. Runs after
 * ApiKeyGuard; requests without a key (health, docs, web pages) are not counted here.
 */
@Injectable()
export class ApiThrottlerGuard extends ThrottlerGuard {
  protected override async shouldSkip(context: ExecutionContext): Promise<boolean> {
    return !context.switchToHttp().getRequest<AppRequest>().auth;
  }

  protected override async getTracker(req: Record<string, any>): Promise<string> {
    return (req as AppRequest).auth!.apiKeyId;
  }

  /** One bucket per key for the whole API, not one per route. */
  protected override generateKey(
    _context: ExecutionContext,
    tracker: string,
    name: string,
  ): string {
    return `${name}:${tracker}`;
  }

  protected override async throwThrottlingException(
    _context: ExecutionContext,
    detail: ThrottlerLimitDetail,
  ): Promise<void> {
    throw new ThrottledError(Math.max(1, Math.ceil(detail.timeToBlockExpire)));
  }
}
