import { Module } from '@nestjs/common';
import { WebModule } from '@/modules/web';
import { WebhooksModule } from '../webhooks.module';
import { WebWebhooksController } from './web-webhooks.controller';

/** The webhooks pages, on the web shell. */
@Module({
  imports: [WebhooksModule, WebModule],
  controllers: [WebWebhooksController],
})
export class WebhooksPagesModule {}
