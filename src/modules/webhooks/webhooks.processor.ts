import { Injectable, Logger } from '@nestjs/common';
import { tags } from '@/common/queue/job-id';
import type { QueueJob } from '@/common/queue/local-lane';
import { JobHandler, QueueWorker } from '@/common/queue/queue-worker';
import { InjectConfig } from '@/config/config.module';
import type { AppConfig } from '@/config/env';
import { DeliverySender } from './delivery-sender';
import { WebhookDeliveriesRepository } from './webhook-deliveries.repository';
import { WebhooksRepository } from './webhooks.repository';
import { DELIVERY_QUEUE, DeliveryQueue } from './delivery.queue';

/**
 * Automatic delivery attempts. A delivery stops when it succeeds, when its retries run out
 * (WEBHOOK_RETRY_SCHEDULE), and when its webhook is deactivated or deleted.
 */
@Injectable()
// Deliveries wait on the network, not the CPU: many run at once.
@QueueWorker(DELIVERY_QUEUE, { concurrency: (config) => config.searchConcurrency })
export class WebhooksProcessor implements JobHandler {
  private readonly logger = new Logger(WebhooksProcessor.name);

  constructor(
    private readonly webhooks: WebhooksRepository,
    private readonly deliveries: WebhookDeliveriesRepository,
    private readonly queue: DeliveryQueue,
    private readonly sender: DeliverySender,
    @InjectConfig() private readonly config: AppConfig,
  ) {}

  async handle(job: QueueJob): Promise<void> {
    await this.attempt(job.data.id, String(job.id));
  }

  /** One automatic attempt; the lease makes a duplicate job skip a delivery in flight. */
  async attempt(deliveryId: string, jobId: string): Promise<void> {
    const attemptNo = await this.queue.lease(deliveryId, jobId);
    if (attemptNo === null) return;
    const delivery = await this.deliveries.findById(deliveryId);
    if (!delivery) return; // deleted with its webhook meanwhile
    const webhook = await this.webhooks.findById(delivery.webhookId);
    if (!webhook?.isActive) {
      await this.end(deliveryId, 'webhook inactive');
      return;
    }

    const result = await this.sender.send(webhook, delivery);
    const schedule = this.config.webhookRetrySchedule;
    const final = attemptNo > schedule.length;
    const delayMs = final ? 0 : schedule[attemptNo - 1] * 1000;
    const outcome = await this.deliveries.recordAttempt(deliveryId, result, final, delayMs);
    this.logger.log(
      {
        deliveryId,
        webhookId: webhook.id,
        attempt: attemptNo,
        statusCode: result.statusCode,
        outcome: outcome ?? 'deleted',
      },
      'webhook attempt',
    );
    if (outcome === 'pending')
      await this.queue.enqueue(deliveryId, delayMs, tags.attempt(attemptNo + 1));
  }

  /** Ends a pending delivery whose webhook no longer takes deliveries. */
  private async end(deliveryId: string, reason: string): Promise<void> {
    await this.deliveries.endPending(deliveryId);
    this.logger.log({ deliveryId, reason }, 'webhook delivery stopped');
  }
}
