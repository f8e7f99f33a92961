/**
 * The door of the auth module: what other modules use of it. Another module imports from
 * '@/modules/auth' only (lint refuses otherwise; docs/architecture.md, Module graph).
 */
export { ApiKeyGuard } from './api/api-key.guard';
export { ApiKeysService } from './domain/api-keys.service';
export { ApiThrottlerGuard } from './api/api-throttler.guard';
export { AuthModule } from './auth.module';
export { RateLimitModule } from './rate-limit.module';
export { RateLimiter } from './domain/rate-limiter';
export { ScopeGuard } from './api/scope.guard';
export {
  ALL_SCOPES,
  CREDENTIALS_SCOPE,
  EMBED_SCOPES,
  KNOWN_SCOPES,
  RequireScope,
  SCOPE_AREAS,
  grants,
  isApiScope,
  scopeAction,
  scopeRefusal,
} from './domain/scopes';
export type { ApiScope } from './domain/scopes';
