/**
 * The door of the eligibility module: what other modules use of it. Another module imports from
 * '@/modules/eligibility' only (lint refuses otherwise; docs/architecture.md, Module graph).
 */
// The patient and subscriber of a request, as appointments take them too (docs/api.md, Appointments).
export {
  EligibilityPatientDto,
  EligibilitySubscriberDto,
  InsurerCodeListField,
} from './api/dto/create-eligibility.dto';
export { ResultEntryV2 } from './api/dto/eligibility-result.response';
export { EligibilityQueryService } from './read/domain/eligibility-query.service';
export { EligibilityModule } from './eligibility.module';
export { PatientRecords } from './pages/patient-records.port';
export { CheckHooks } from './finish/domain/check-hooks';
export type { CheckAnswer, CheckHooksPort } from './finish/domain/check-hooks';
export { CheckIntake } from './intake/domain/check-intake';
export type { CheckOrder } from './intake/domain/check-intake';
export type { PatientRecordsPort } from './pages/patient-records.port';
export { BenefitHistory } from './finish/domain/benefit-history.port';
export type { BenefitHistoryPort, HistoryLookup } from './finish/domain/benefit-history.port';
export { EligibilityPagesModule } from './pages/eligibility-pages.module';
export { EligibilityService } from './domain/eligibility.service';
export { CreateEligibilityDto } from './api/dto/create-eligibility.dto';
