/**
 * The door of the webhooks module: what other modules use of it. Another module imports from
 * '@/modules/webhooks' only (lint refuses otherwise; docs/architecture.md, Module graph).
 */
export { WebhookOutbox } from './domain/webhook-outbox';
export type { FinishingDeliveries } from './domain/webhook-outbox';
export { WEBHOOK_TOPICS } from './domain/webhook-topics';
export { WebhooksModule } from './webhooks.module';
export { WebhooksService } from './domain/webhooks.service';
export type { WebhookActor } from './domain/webhooks.service';
export { WebhooksPagesModule } from './pages/webhooks-pages.module';
