/**
 * The door of the estimates module: what other modules use of it. Another module imports from
 * '@/modules/estimates' only (lint refuses otherwise; docs/architecture.md, Module graph).
 */
export { CreateEstimateDto, MAX_ESTIMATE_SERVICES } from './api/dto/create-estimate.dto';
export type { Estimate } from './domain/estimate.types';
export { EstimatesModule } from './estimates.module';
export { EstimatesService, StoredPerson } from './domain/estimates.service';
