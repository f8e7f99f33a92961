/**
 * The door of the health module: what other modules use of it. Another module imports from
 * '@/modules/health' only (lint refuses otherwise; docs/architecture.md, Module graph).
 */
export { HealthModule } from './health.module';
