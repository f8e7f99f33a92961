/**
 * The door of the eligibility module: what other modules use of it. Another module imports from
 * '@/modules/eligibility' only (lint refuses otherwise; docs/architecture.md, Module graph).
 */
export { BatchIntake } from './batch-intake';
export { BatchQueryService } from './batch-query.service';
export type { BatchItemExport } from './batch-query.service';
export { MAX_BATCH_ITEMS } from './dto/create-batch.dto';
export { CreateEligibilityDto } from './dto/create-eligibility.dto';
export { ResultEntryV2 } from './dto/eligibility-result.response';
export { EligibilityQueryService } from './eligibility-query.service';
export { EligibilityModule } from './eligibility.module';
export { EligibilityService } from './eligibility.service';
export type { InsurerExchangeEntry } from './insurer-exchange-log';
export { PatientRecords } from './pages/patient-records.port';
export type { PatientRecordsPort } from './pages/patient-records.port';
