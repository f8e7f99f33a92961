import { Module } from '@nestjs/common';
import { AuditModule } from '@/modules/audit';
import { RedisPubSub } from '@/modules/redis';
import { ApiKeyGuard } from './api/api-key.guard';
import { AddressLimit } from './domain/address-limit';
import { ApiKeyCache } from './domain/api-key-cache';
import { ApiKeysRepository } from './store/api-keys.repository';
import { ApiKeysService } from './domain/api-keys.service';
import { ScopeGuard } from './api/scope.guard';

@Module({
  imports: [AuditModule],
  providers: [
    ApiKeysService,
    ApiKeysRepository,
    ApiKeyGuard,
    ApiKeyCache,
    ScopeGuard,
    AddressLimit,
    // The API key cache's pub/sub connections (made on first use: the CLI has no RedisModule).
    RedisPubSub,
  ],
  exports: [ApiKeysService, ApiKeyGuard, ScopeGuard],
})
export class AuthModule {}
