import { Module } from '@nestjs/common';
import { AuditModule } from '@/modules/audit';
import { EligibilityModule } from '@/modules/eligibility';
import { FhirController } from './api/fhir.controller';
import { FhirService } from './domain/fhir.service';

/** The FHIR R4 door (docs/api.md, FHIR R4): a door onto eligibility, with no tables of its own. */
@Module({
  imports: [EligibilityModule, AuditModule],
  controllers: [FhirController],
  providers: [FhirService],
})
export class FhirModule {}
