import { Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuditEvent } from './audit-event.entity';
import { AuditEventsRepository } from './audit-events.repository';
import { AuditController } from './audit.controller';
import { AuditGuard } from './audit.guard';
import { AuditService } from './audit.service';
import { PhiRetention } from './retention/phi-retention';
import { RetentionPurgers } from './retention/retention-purgers.port';
import { RouteDeclarationCheck } from './route-declarations';

/**
 * Patient data protection (SECURITY.md): the audit trail (its guard, registered globally
 * by AppModule, and its list), the start-up check that every API route declares its scope and
 * audit, and the retention job.
 */
@Module({
  imports: [TypeOrmModule.forFeature([AuditEvent]), DiscoveryModule],
  controllers: [AuditController],
  providers: [
    AuditEventsRepository,
    AuditService,
    AuditGuard,
    RouteDeclarationCheck,
    PhiRetention,
    RetentionPurgers,
  ],
  exports: [AuditService, AuditGuard, RetentionPurgers],
})
export class AuditModule {}
