/**
 * The door of the web module: what other modules use of it. Another module imports from
 * '@/modules/web' only (lint refuses otherwise; docs/architecture.md, Module graph).
 */
export { setupViews } from './views';
export { WebModule } from './web.module';
