import { OnQueueFailed, Process, Processor } from '@nestjs/bull';
import { Logger } from '@nestjs/common';
import type { Job } from 'bull';
import { staticSettings } from '@/config/env';
import { DELIVERY_JOB, DELIVERY_QUEUE, DeliveryJobData } from './webhooks.queue';
import { WebhooksService } from './webhooks.service';

@Processor(DELIVERY_QUEUE)
export class WebhooksProcessor {
  private readonly logger = new Logger(WebhooksProcessor.name);

  constructor(private readonly webhooks: WebhooksService) {}

  // Deliveries wait on the network, not the CPU: many run at once.
  @Process({ name: DELIVERY_JOB, concurrency: staticSettings.searchConcurrency() })
  async handle(job: Job<DeliveryJobData>): Promise<void> {
    await this.webhooks.attempt(job.data.deliveryId);
  }

  @OnQueueFailed()
  onFailed(job: Job<DeliveryJobData>, error: Error): void {
    this.logger.error(
      { deliveryId: job.data.deliveryId, jobId: job.id, err: error.message },
      'delivery job failed',
    );
  }
}
