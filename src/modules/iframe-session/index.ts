/**
 * The door of the iframe-session module: what other modules use of it. Another module imports from
 * '@/modules/iframe-session' only (lint refuses otherwise; docs/architecture.md, Module graph).
 */
export { IframeSessionModule } from './iframe-session.module';
export { IframeSessionService } from './domain/iframe-session.service';
export type { CounterTarget, EntryPoint } from './domain/iframe-session.service';
