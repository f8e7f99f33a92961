import { Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { AuditModule } from '@/modules/audit';
import { clearinghouseClientProvider } from './domain/clearinghouse/clearinghouse.providers';
import { X12EligibilityConnector } from './domain/clearinghouse/x12-eligibility.connector';
import { DemoVisionConnector } from './domain/demo/demo-vision.connector';
import { SandboxSearchesRepository } from './store/sandbox-searches.repository';
import { AssistedTaskStats } from './domain/assisted-task-stats.port';
import { InsurerCallStats } from './domain/insurer-call-stats.port';
import { InsurerHealth } from './domain/insurer-health.service';
import { Clock } from '@/platform/kernel/clock';
import { InsurerDirectory } from './domain/insurer-directory.service';
import { InsurersController } from './api/insurers.controller';
import { InsurerRegistry } from './domain/insurer-registry.service';
import { InsurerSettingsRepository } from './store/insurer-settings.repository';
import { InsurerSettingsService } from './domain/insurer-settings.service';

/** Insurer connectors. To add an insurer: write its connector class and list it here. */
@Module({
  imports: [DiscoveryModule, AuditModule],
  controllers: [InsurersController],
  providers: [
    InsurerRegistry,
    InsurerSettingsRepository,
    InsurerSettingsService,
    DemoVisionConnector,
    SandboxSearchesRepository,
    clearinghouseClientProvider,
    X12EligibilityConnector,
    InsurerDirectory,
    AssistedTaskStats,
    InsurerCallStats,
    InsurerHealth,
    Clock,
  ],
  exports: [InsurerRegistry, InsurerSettingsService, InsurerDirectory],
})
export class InsurersModule {}
