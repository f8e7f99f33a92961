/**
 * The door of the patients module: what other modules use of it. Another module imports from
 * '@/modules/patients' only (lint refuses otherwise; docs/architecture.md, Module graph).
 */
export { CreatePatientDto } from './api/dto/create-patient.dto';
export { ListPatientsQuery } from './api/dto/list-patients.query';
export { LinkEligibilityDto } from './api/dto/patient-link.dto';
export { PatientLinksService } from './domain/patient-links.service';
export { PatientsModule } from './patients.module';
export { PatientsService } from './domain/patients.service';
export { ClaimedServices, MAX_CLAIMED_SERVICES } from './domain/claimed-services.port';
export type { ClaimedService, ClaimedServicesPort } from './domain/claimed-services.port';
