import { Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { AuditEventsRepository } from './store/audit-events.repository';
import { AuditController } from './api/audit.controller';
import { AuditGuard } from './api/audit.guard';
import { AuditService } from './domain/audit.service';
import { PhiRetention } from './domain/retention/phi-retention';
import { RetentionPurgers } from './domain/retention/retention-purgers.port';
import { RouteDeclarationCheck } from './domain/route-declarations';

/**
 * Patient data protection (SECURITY.md): the audit trail (its guard, registered globally
 * by AppModule, and its list), the start-up check that every API route declares its scope and
 * audit, and the retention job.
 */
@Module({
  imports: [DiscoveryModule],
  controllers: [AuditController],
  providers: [
    AuditEventsRepository,
    AuditService,
    AuditGuard,
    RouteDeclarationCheck,
    PhiRetention,
    RetentionPurgers,
  ],
  exports: [AuditService, AuditGuard],
})
export class AuditModule {}
