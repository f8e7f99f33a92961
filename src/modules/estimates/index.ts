/**
 * The door of the estimates module: what other modules use of it. Another module imports from
 * '@/modules/estimates' only (lint refuses otherwise; docs/architecture.md, Module graph).
 */
export { EstimatesModule } from './estimates.module';
// The stored person of a check, which the Counter page prices for too (docs/api.md, The counter).
export { EstimatesService, planSource } from './domain/estimates.service';
export type { StoredPerson } from './domain/estimates.service';
export { EstimatesPagesModule } from './pages/estimates-pages.module';
// The next eligible dates a plan's items state, which the counter reads too (docs/api.md, The counter).
export { nextEligibleDates } from './domain/estimate.availability';
