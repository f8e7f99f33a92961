import { BullModule } from '@nestjs/bull';
import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { staticSettings } from '@/config/env';
import { Webhook, WebhookAttempt, WebhookDelivery } from './webhook.entity';
import { WebhooksController } from './webhooks.controller';
import { WebhooksMaintenance } from './webhooks.maintenance';
import { WebhooksProcessor } from './webhooks.processor';
import { DELIVERY_QUEUE } from './webhooks.queue';
import { WebhooksService } from './webhooks.service';

@Module({
  imports: [
    TypeOrmModule.forFeature([Webhook, WebhookDelivery, WebhookAttempt]),
    BullModule.registerQueue({
      name: DELIVERY_QUEUE,
      settings: { lockDuration: 30_000, stalledInterval: 10_000, maxStalledCount: 2 },
    }),
  ],
  controllers: [WebhooksController],
  providers: [
    WebhooksService,
    ...(staticSettings.runsWorkers() ? [WebhooksProcessor, WebhooksMaintenance] : []),
  ],
  exports: [WebhooksService],
})
export class WebhooksModule {}
