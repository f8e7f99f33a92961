import { AuditModule } from '@/modules/audit';
import { BullModule } from '@nestjs/bull';
import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AccountsModule } from '@/modules/accounts';
import { RateLimitModule } from '@/modules/auth';
import { InsurersModule } from '@/modules/insurers';
import { WebhooksModule } from '@/modules/webhooks';
import { AssistedInsurers } from './assisted/domain/assisted-insurers';
import { RequestUpdates } from './finish/domain/request-updates';
import { BatchCompletion } from './batches/domain/batch-completion';
import { BatchIntake } from './intake/domain/batch-intake';
import { BatchQueryService } from './batches/domain/batch-query.service';
import { EligibilityBatch } from './batches/store/batch.entity';
import { BatchesRepository } from './batches/store/batches.repository';
import { BatchController } from './api/batch.controller';
import { BatchItemProcessor } from './jobs/batch-item.processor';
import { BATCH_QUEUE, BatchSearchQueue } from './jobs/batch-search.queue';
import { EligibilityController } from './api/eligibility.controller';
import { SnapshotController } from './api/snapshot.controller';
import { EligibilitySnapshots } from './read/domain/snapshot/eligibility-snapshots.service';
import { EligibilityMaintenance } from './jobs/eligibility.maintenance';
import { EligibilityProcessor } from './jobs/eligibility.processor';
import { SEARCH_QUEUE, SearchQueue } from './jobs/search.queue';
import { EligibilityQueryService } from './read/domain/eligibility-query.service';
import { EligibilityRequest } from './store/eligibility-request.entity';
import { EligibilityPerson, EligibilityResult } from './store/eligibility-result.entity';
import { EligibilityRequestsRepository } from './store/eligibility-requests.repository';
import { SearchFinisher } from './finish/domain/search-finisher';
import { SearchRunsRepository } from './store/search-runs.repository';
import { AssistedSearchesRepository } from './assisted/store/assisted-searches.repository';
import { BatchProgressRepository } from './batches/store/batch-progress.repository';
import { InsurerExchangesRepository } from './run/store/insurer-exchanges.repository';
import { EligibilityScheduler } from './jobs/eligibility.scheduler';
import { EligibilityService } from './domain/eligibility.service';
import { InsurerCalls } from './run/domain/insurer-calls';
import { InsurerExchangeLog } from './run/domain/insurer-exchange-log';
import { ExchangeStats } from './run/domain/exchange-stats';
import { InsurerSlots } from './run/domain/insurer-slots';
import { SearchRunner } from './run/domain/search-runner';
import { TaskRequestsBinding } from './assisted/store/task-requests.binding';
import { RequestPurger } from './retention/domain/request-purger';
import { RequestPurgesRepository } from './retention/store/request-purges.repository';
import { VerificationModule } from '@/modules/verification';
import { CheckHooks } from './finish/domain/check-hooks';
import { BenefitHistory } from './finish/domain/benefit-history.port';
import { PlanHistory } from './finish/domain/plan-history';
import { CheckIntake } from './intake/domain/check-intake';
import { CheckRequestsRepository } from './intake/store/check-requests.repository';

@Module({
  imports: [
    TypeOrmModule.forFeature([
      EligibilityRequest,
      EligibilityResult,
      EligibilityPerson,
      EligibilityBatch,
    ]),
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
    RateLimitModule,
    InsurersModule,
    WebhooksModule,
    // A search's tasks (SearchTasks); a task answered wakes its search (TaskRequests hook).
    VerificationModule,
  ],
  // BatchController first: its paths would otherwise match v1/eligibility/:request_uid routes.
  controllers: [BatchController, EligibilityController, SnapshotController],
  providers: [
    EligibilityService,
    EligibilityQueryService,
    EligibilitySnapshots,
    EligibilityScheduler,
    InsurerCalls,
    InsurerExchangeLog,
    SearchRunner,
    SearchFinisher,
    SearchRunsRepository,
    AssistedSearchesRepository,
    BatchProgressRepository,
    InsurerExchangesRepository,
    // Insurer health's figures (docs/api.md, Insurer health): insurers' InsurerCallStats hook.
    ExchangeStats,
    SearchQueue,
    BatchSearchQueue,
    BatchIntake,
    BatchQueryService,
    BatchCompletion,
    InsurerSlots,
    AssistedInsurers,
    RequestUpdates,
    TaskRequestsBinding,
    // Appointments' checks (docs/api.md, Appointments); their hook implemented by appointments.
    CheckIntake,
    CheckRequestsRepository,
    CheckHooks,
    // The practice's own history of services (docs/api.md, Next eligible dates), from patients.
    BenefitHistory,
    PlanHistory,
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
    CheckIntake,
    // For its pages (pages/eligibility-pages.module.ts).
    EligibilitySnapshots,
  ],
})
export class EligibilityModule {}
