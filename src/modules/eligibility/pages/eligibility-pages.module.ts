import { Module } from '@nestjs/common';
import { AccountsModule } from '@/modules/accounts';
import { InsurersModule } from '@/modules/insurers';
import { VerificationModule } from '@/modules/verification';
import { WebModule } from '@/modules/web';
import { EligibilityModule } from '../eligibility.module';
import { PatientRecords } from './patient-records.port';
import { WebBatchesController } from './web-batches.controller';
import { WebDashboardController } from './web-dashboard.controller';
import { WebEligibilityController } from './web-eligibility.controller';

/** The dashboard, the check form and its result page, and batches, on the web shell. */
@Module({
  imports: [AccountsModule, EligibilityModule, InsurersModule, VerificationModule, WebModule],
  controllers: [WebDashboardController, WebEligibilityController, WebBatchesController],
  // The check form's patient records (hook), implemented by the patients module.
  providers: [PatientRecords],
})
export class EligibilityPagesModule {}
