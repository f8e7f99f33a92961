import { BullModule } from '@nestjs/bull';
import { Module } from '@nestjs/common';
import { AuditModule } from '@/modules/audit';
import { DeliverySender } from './domain/delivery-sender';
import { WebhookDeliveriesRepository } from './store/webhook-deliveries.repository';
import { WebhookOutbox } from './domain/webhook-outbox';
import { WebhooksController } from './api/webhooks.controller';
import { WebhooksProcessor } from './jobs/webhooks.processor';
import { DELIVERY_QUEUE, DeliveryQueue } from './jobs/delivery.queue';
import { WebhooksRepository } from './store/webhooks.repository';
import { WebhooksService } from './domain/webhooks.service';

@Module({
  imports: [
    AuditModule,
    BullModule.registerQueue({
      name: DELIVERY_QUEUE,
      settings: { lockDuration: 30_000, stalledInterval: 10_000, maxStalledCount: 2 },
    }),
  ],
  controllers: [WebhooksController],
  // The processor starts taking jobs only where the injected config's ROLE runs workers.
  providers: [
    WebhooksRepository,
    WebhookDeliveriesRepository,
    WebhooksService,
    WebhookOutbox,
    DeliveryQueue,
    DeliverySender,
    WebhooksProcessor,
  ],
  exports: [WebhooksService, WebhookOutbox],
})
export class WebhooksModule {}
