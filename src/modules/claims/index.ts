/**
 * The door of the claims module: what other modules use of it. Another module imports from
 * '@/modules/claims' only (lint refuses otherwise; docs/architecture.md, Module graph).
 */
export { ClaimsModule } from './claims.module';
export { ClaimsPagesModule } from './pages/claims-pages.module';
