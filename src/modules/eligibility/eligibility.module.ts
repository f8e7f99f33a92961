import { AuditModule } from '@/modules/audit';
import { BullModule } from '@nestjs/bull';
import { Module } from '@nestjs/common';
import { AccountsModule } from '@/modules/accounts';
import { InsurersModule } from '@/modules/insurers';
import { WebhooksModule } from '@/modules/webhooks';
import { AssistedInsurers } from './assisted-insurers';
import { BatchCompletion } from './batch-completion';
import { BatchIntake } from './batch-intake';
import { BatchQueryService } from './batch-query.service';
import { BatchesRepository } from './batches.repository';
import { BatchController } from './batch.controller';
import { BatchItemProcessor } from './batch-item.processor';
import { BATCH_QUEUE, BatchSearchQueue } from './batch-search.queue';
import { EligibilityController } from './eligibility.controller';
import { EligibilityMaintenance } from './eligibility.maintenance';
import { EligibilityProcessor } from './eligibility.processor';
import { SEARCH_QUEUE, SearchQueue } from './search.queue';
import { EligibilityQueryService } from './eligibility-query.service';
import { EligibilityRequestsRepository } from './eligibility-requests.repository';
import { SearchFinisher } from './search-finisher';
import { SearchRunsRepository } from './search-runs.repository';
import { AssistedSearchesRepository } from './assisted-searches.repository';
import { BatchProgressRepository } from './batch-progress.repository';
import { InsurerExchangesRepository } from './insurer-exchanges.repository';
import { EligibilityScheduler } from './eligibility.scheduler';
import { EligibilityService } from './eligibility.service';
import { InsurerCalls } from './insurer-calls';
import { InsurerExchangeLog } from './insurer-exchange-log';
import { InsurerSlots } from './insurer-slots';
import { SearchRunner } from './search-runner';
import { TaskRequestsBinding } from './task-requests.binding';
import { RequestPurger } from './request-purger';
import { RequestPurgesRepository } from './request-purges.repository';
import { VerificationModule } from '@/modules/verification';
import { WebModule } from '@/modules/web';
import { PatientRecords } from './pages/patient-records.port';
import { WebBatchesController } from './pages/web-batches.controller';
import { WebDashboardController } from './pages/web-dashboard.controller';
import { WebEligibilityController } from './pages/web-eligibility.controller';

@Module({
  imports: [
    BullModule.registerQueue({
      name: SEARCH_QUEUE,
      // A killed worker's active job is taken over after a few seconds, not the default 30.
      settings: { lockDuration: 15_000, stalledInterval: 5_000, maxStalledCount: 3 },
    }),
    // Batch items wait in a queue of their own, never in front of a single check (docs/api.md, Batches).
    BullModule.registerQueue({
      name: BATCH_QUEUE,
      settings: { lockDuration: 15_000, stalledInterval: 5_000, maxStalledCount: 3 },
    }),
    AccountsModule,
    AuditModule,
    InsurersModule,
    WebhooksModule,
    // A task answered wakes its search through verification's port (TaskRequestsBinding).
    VerificationModule,
    WebModule,
  ],
  // BatchController first: its paths would otherwise match v1/eligibility/:request_uid routes.
  controllers: [
    BatchController,
    EligibilityController,
    WebDashboardController,
    WebEligibilityController,
    WebBatchesController,
  ],
  providers: [
    EligibilityService,
    EligibilityQueryService,
    EligibilityScheduler,
    InsurerCalls,
    InsurerExchangeLog,
    SearchRunner,
    SearchFinisher,
    SearchRunsRepository,
    AssistedSearchesRepository,
    BatchProgressRepository,
    InsurerExchangesRepository,
    SearchQueue,
    BatchSearchQueue,
    BatchIntake,
    BatchQueryService,
    BatchCompletion,
    InsurerSlots,
    AssistedInsurers,
    TaskRequestsBinding,
    // The check form's patient records, bound by the patients module (PatientRecordsBinding).
    PatientRecords,
    RequestPurgesRepository,
    RequestPurger,
    EligibilityRequestsRepository,
    BatchesRepository,
    // Workers and the watchdog start only where the injected config's ROLE runs workers.
    EligibilityProcessor,
    BatchItemProcessor,
    EligibilityMaintenance,
  ],
  exports: [
    EligibilityService,
    EligibilityQueryService,
    BatchIntake,
    BatchQueryService,
    SearchQueue,
    BatchSearchQueue,
    PatientRecords,
  ],
})
export class EligibilityModule {}
