/**
 * The door of the webhooks module: what other modules use of it. Another module imports from
 * '@/modules/webhooks' only (lint refuses otherwise; docs/architecture.md, Module graph).
 */
export { CreateWebhookDto, UpdateWebhookDto } from './dto/webhook.dto';
export { WebhookOutbox } from './webhook-outbox';
export type { FinishingDeliveries } from './webhook-outbox';
export { WEBHOOK_TOPICS } from './webhook-topics';
export type { WebhookTopic } from './webhook-topics';
export { WebhooksModule } from './webhooks.module';
export { WebhooksService } from './webhooks.service';
export type { WebhookActor } from './webhooks.service';
