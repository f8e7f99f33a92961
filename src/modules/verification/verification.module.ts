import { Module } from '@nestjs/common';
import { InsurersModule } from '@/modules/insurers';
import { WebModule } from '@/modules/web';
import { WebhooksModule } from '@/modules/webhooks';
import { CredentialsThrottle } from './credentials-throttle';
import { WebVerificationsController } from './pages/web-verifications.controller';
import { SearchTasks } from './search-tasks';
import { SearchTasksRepository } from './search-tasks.repository';
import { TaskRequests } from './task-requests.port';
import { VerificationMaintenance } from './verification.maintenance';
import { VerificationTasksController } from './verification-tasks.controller';
import { VerificationTasksRepository } from './verification-tasks.repository';
import { VerificationTasks } from './verification-tasks.service';

/**
 * Assisted verification (docs/api.md, Insurers and assisted verification): the tasks a person answers for insurers without
 * 270/271, their API, and their clocks (leases, overdue events). The search side (opening a
 * task, reading its answer) is eligibility's AssistedInsurers.
 */
@Module({
  imports: [InsurersModule, WebhooksModule, WebModule],
  controllers: [VerificationTasksController, WebVerificationsController],
  providers: [
    CredentialsThrottle,
    TaskRequests,
    VerificationTasksRepository,
    VerificationTasks,
    VerificationMaintenance,
    SearchTasksRepository,
    SearchTasks,
  ],
  exports: [VerificationTasks, TaskRequests, SearchTasks],
})
export class VerificationModule {}
