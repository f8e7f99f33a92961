/**
 * The door of the patients module: what other modules use of it. Another module imports from
 * '@/modules/patients' only (lint refuses otherwise; docs/architecture.md, Module graph).
 */
export { PatientsModule } from './patients.module';
export { PatientsService } from './domain/patients.service';
export { ClaimedServices, MAX_CLAIMED_SERVICES } from './domain/claimed-services.port';
export type { ClaimedService, ClaimedServicesPort } from './domain/claimed-services.port';
export { PatientsPagesModule } from './pages/patients-pages.module';
