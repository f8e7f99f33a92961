import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { InsurersModule } from '@/modules/insurers';
import { WebhooksModule } from '@/modules/webhooks';
import { CredentialsThrottle } from './domain/credentials-throttle';
import { PlanDesigns } from './domain/plan-designs.service';
import { PlanDesignsController } from './api/plan-designs.controller';
import { PlanDesign } from './store/plan-design.entity';
import { PlanDesignsRepository } from './store/plan-designs.repository';
import { SearchTasks } from './domain/search-tasks';
import { SearchTasksRepository } from './store/search-tasks.repository';
import { TaskRequests } from './domain/task-requests.port';
import { TaskStats } from './domain/task-stats';
import { TaskStatsRepository } from './store/task-stats.repository';
import { VerificationMaintenance } from './jobs/verification.maintenance';
import { VerificationTasksController } from './api/verification-tasks.controller';
import { VerificationTask } from './store/verification-task.entity';
import { VerificationTasksRepository } from './store/verification-tasks.repository';
import { VerificationTasks } from './domain/verification-tasks.service';

/**
 * Assisted verification (docs/api.md, Insurers and assisted verification): the tasks a person answers for insurers without
 * 270/271, their API, and their clocks (leases, overdue events). The search side (opening a
 * task, reading its answer) is eligibility's AssistedInsurers.
 */
@Module({
  imports: [
    TypeOrmModule.forFeature([VerificationTask, PlanDesign]),
    InsurersModule,
    WebhooksModule,
  ],
  controllers: [VerificationTasksController, PlanDesignsController],
  providers: [
    CredentialsThrottle,
    TaskRequests,
    VerificationTasksRepository,
    VerificationTasks,
    VerificationMaintenance,
    SearchTasksRepository,
    SearchTasks,
    TaskStatsRepository,
    TaskStats,
    PlanDesignsRepository,
    PlanDesigns,
  ],
  // TaskStats and PlanDesigns for its pages (pages/verification-pages.module.ts).
  exports: [VerificationTasks, SearchTasks, TaskStats, PlanDesigns],
})
export class VerificationModule {}
