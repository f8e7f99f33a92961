import { Module } from '@nestjs/common';
import { AccountsModule } from '@/modules/accounts';
import { EligibilityModule } from '@/modules/eligibility';
import { PatientLinksService } from './domain/patient-links.service';
import { PatientsController } from './api/patients.controller';
import { PatientsRepository } from './store/patients.repository';
import { PatientsService } from './domain/patients.service';
import { BenefitHistoryController } from './api/benefit-history.controller';
import { BenefitHistoryService } from './domain/benefit-history.service';
import { ClaimedServices } from './domain/claimed-services.port';
import { BenefitHistoryRepository } from './store/benefit-history.repository';

@Module({
  imports: [AccountsModule, EligibilityModule],
  controllers: [PatientsController, BenefitHistoryController],
  providers: [
    PatientsRepository,
    PatientsService,
    // Also the check form's patient records (eligibility's PatientRecords hook).
    PatientLinksService,
    // The practice's history (docs/api.md, Next eligible dates): staff entries here, claims
    // through ClaimedServices (claims implements it), for eligibility's BenefitHistory hook.
    BenefitHistoryRepository,
    BenefitHistoryService,
    ClaimedServices,
  ],
  exports: [PatientsService, PatientLinksService],
})
export class PatientsModule {}
