import { BullModule } from '@nestjs/bull';
import { Module } from '@nestjs/common';
import { AccountsModule } from '@/modules/accounts';
import { claimsClearinghouseClientProvider, InsurersModule } from '@/modules/insurers';
import { MailModule } from '@/modules/mail';
import { WebhooksModule } from '@/modules/webhooks';
import { BillingProviders } from './domain/claim-billing-provider';
import { ClaimStatusChecker } from './domain/claim-status-checker';
import { ClaimSubmitter } from './domain/claim-submitter';
import { ClaimedServicesBinding } from './domain/claimed-services.binding';
import { ClaimTransitions } from './domain/claim-transitions';
import { ClaimsController } from './api/claims.controller';
import { ClaimsProcessor } from './jobs/claims.processor';
import { CLAIMS_QUEUE, ClaimsQueue } from './jobs/claims.queue';
import { ClaimsRepository } from './store/claims.repository';
import { ClaimsService } from './domain/claims.service';
import { ClaimReportApplier } from './reports/domain/claim-report-apply';
import { ClaimReportPoller } from './reports/jobs/claim-report-poller';
import { ClaimReportsRepository } from './reports/store/claim-reports.repository';
import {
  ClaimReportsController,
  RemittancesController,
} from './reports/api/claim-reports.controller';
import { ClaimReportsService } from './reports/domain/claim-reports.service';
import { PolledRemittanceApplier } from './reports/domain/polled-remittance-apply';
import { PolledReportsRepository } from './reports/store/polled-reports.repository';
import { RemittancesRepository } from './reports/store/remittances.repository';

@Module({
  imports: [
    BullModule.registerQueue({ name: CLAIMS_QUEUE }),
    AccountsModule,
    InsurersModule,
    MailModule,
    WebhooksModule,
  ],
  controllers: [ClaimsController, ClaimReportsController, RemittancesController],
  // The processor takes jobs only where the injected config's ROLE runs workers.
  providers: [
    ClaimsRepository,
    ClaimReportsRepository,
    RemittancesRepository,
    ClaimsService,
    ClaimReportsService,
    ClaimReportApplier,
    ClaimReportPoller,
    PolledReportsRepository,
    PolledRemittanceApplier,
    ClaimsQueue,
    ClaimTransitions,
    ClaimSubmitter,
    ClaimStatusChecker,
    ClaimsProcessor,
    BillingProviders,
    claimsClearinghouseClientProvider,
    // The practice's claims as benefit history (patients' ClaimedServices hook).
    ClaimedServicesBinding,
  ],
  exports: [ClaimsService, ClaimReportsService],
})
export class ClaimsModule {}
