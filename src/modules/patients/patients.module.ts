import { Module } from '@nestjs/common';
import { AccountsModule } from '@/modules/accounts';
import { EligibilityModule } from '@/modules/eligibility';
import { WebModule } from '@/modules/web';
import { PatientRecordsBinding } from './pages/patient-records.binding';
import { WebPatientsController } from './pages/web-patients.controller';
import { PatientLinksService } from './domain/patient-links.service';
import { PatientsController } from './api/patients.controller';
import { PatientsRepository } from './store/patients.repository';
import { PatientsService } from './domain/patients.service';
import { BenefitHistoryController } from './api/benefit-history.controller';
import { BenefitHistoryService } from './domain/benefit-history.service';
import { ClaimedServices } from './domain/claimed-services.port';
import { BenefitHistoryBinding } from './domain/benefit-history.binding';
import { BenefitHistoryRepository } from './store/benefit-history.repository';

@Module({
  imports: [AccountsModule, EligibilityModule, WebModule],
  controllers: [PatientsController, BenefitHistoryController, WebPatientsController],
  providers: [
    PatientsRepository,
    PatientsService,
    PatientLinksService,
    // The check form's patient records (eligibility's port, PatientRecordsBinding).
    PatientRecordsBinding,
    // The practice's history (docs/api.md, Next eligible dates): staff entries here, claims
    // through ClaimedServices (bound by claims), offered to eligibility's BenefitHistory port.
    BenefitHistoryRepository,
    BenefitHistoryService,
    ClaimedServices,
    BenefitHistoryBinding,
  ],
  exports: [PatientsService, PatientLinksService, ClaimedServices],
})
export class PatientsModule {}
