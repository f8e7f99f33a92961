import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuditModule } from '@/modules/audit';
import { ApiKey } from './api-key.entity';
import { ApiKeyGuard } from './api-key.guard';
import { ApiKeyCache } from './api-key-cache';
import { ApiKeysRepository } from './api-keys.repository';
import { ApiKeysService } from './api-keys.service';
import { ScopeGuard } from './scope.guard';

@Module({
  imports: [TypeOrmModule.forFeature([ApiKey]), AuditModule],
  providers: [ApiKeysService, ApiKeysRepository, ApiKeyGuard, ApiKeyCache, ScopeGuard],
  exports: [ApiKeysService, ApiKeyGuard, ScopeGuard],
})
export class AuthModule {}
