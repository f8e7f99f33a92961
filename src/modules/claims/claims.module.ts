import { BullModule } from '@nestjs/bull';
import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AccountsModule } from '@/modules/accounts';
import { claimsClearinghouseClientProvider, InsurersModule } from '@/modules/insurers';
import { MailModule } from '@/modules/mail';
import { WebModule } from '@/modules/web';
import { WebhooksModule } from '@/modules/webhooks';
import { BillingProviders } from './claim-billing-provider';
import { ClaimServiceLine } from './claim-service-line.entity';
import { ClaimStatusChecker } from './claim-status-checker';
import { ClaimSubmitter } from './claim-submitter';
import { ClaimTransitions } from './claim-transitions';
import { Claim } from './claim.entity';
import { WebClaimsController } from './pages/web-claims.controller';
import { WebRemittancesController } from './pages/web-remittances.controller';
import { ClaimsController } from './claims.controller';
import { ClaimsProcessor } from './claims.processor';
import { CLAIMS_QUEUE, ClaimsQueue } from './claims.queue';
import { ClaimsRepository } from './claims.repository';
import { ClaimsService } from './claims.service';
import { ClaimReport } from './reports/claim-report.entity';
import { ClaimReportApplier } from './reports/claim-report-apply';
import { ClaimReportPoller } from './reports/claim-report-poller';
import { ClaimReportsRepository } from './reports/claim-reports.repository';
import { ClaimReportsController, RemittancesController } from './reports/claim-reports.controller';
import { ClaimReportsService } from './reports/claim-reports.service';
import { PolledRemittanceApplier } from './reports/polled-remittance-apply';
import { PolledReports } from './reports/polled-reports';
import { PolledReportsRepository } from './reports/polled-reports.repository';
import { Remittance } from './reports/remittance.entity';
import { RemittancesRepository } from './reports/remittances.repository';

@Module({
  imports: [
    TypeOrmModule.forFeature([Claim, ClaimServiceLine, ClaimReport, Remittance]),
    BullModule.registerQueue({ name: CLAIMS_QUEUE }),
    AccountsModule,
    InsurersModule,
    MailModule,
    WebhooksModule,
    WebModule,
  ],
  controllers: [
    ClaimsController,
    ClaimReportsController,
    RemittancesController,
    WebClaimsController,
    WebRemittancesController,
  ],
  // The processor takes jobs only where the injected config's ROLE runs workers.
  providers: [
    ClaimsRepository,
    ClaimReportsRepository,
    RemittancesRepository,
    ClaimsService,
    ClaimReportsService,
    ClaimReportApplier,
    ClaimReportPoller,
    PolledReports,
    PolledReportsRepository,
    PolledRemittanceApplier,
    ClaimsQueue,
    ClaimTransitions,
    ClaimSubmitter,
    ClaimStatusChecker,
    ClaimsProcessor,
    BillingProviders,
    claimsClearinghouseClientProvider,
  ],
  exports: [ClaimsService, ClaimReportsService],
})
export class ClaimsModule {}
