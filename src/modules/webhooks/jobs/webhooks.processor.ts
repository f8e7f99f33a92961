import { Injectable, Logger } from '@nestjs/common';
import type { QueueJob } from '@/platform/jobs/local-lane';
import { JobHandler, QueueWorker } from '@/platform/jobs/queue-worker';
import { Metrics } from '@/platform/metrics/metrics';
import { InjectConfig } from '@/platform/config/config.module';
import type { AppConfig } from '@/platform/config/env';
import { settleAttempt, type SettleDeps, webhookRetries } from '../domain/attempt-settler';
import { DeliverySender } from '../domain/delivery-sender';
import { WebhookDeliveriesRepository } from '../store/webhook-deliveries.repository';
import { WebhooksRepository } from '../store/webhooks.repository';
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
  private readonly settling: SettleDeps;

  constructor(
    private readonly webhooks: WebhooksRepository,
    private readonly deliveries: WebhookDeliveriesRepository,
    private readonly queue: DeliveryQueue,
    private readonly sender: DeliverySender,
    @InjectConfig() config: AppConfig,
    metrics: Metrics,
  ) {
    this.settling = {
      deliveries,
      queue,
      logger: this.logger,
      policy: webhookRetries(config),
      metrics,
    };
  }

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
    await settleAttempt(this.settling, delivery, attemptNo, result);
  }

  /** Ends a pending delivery whose webhook no longer takes deliveries. */
  private async end(deliveryId: string, reason: string): Promise<void> {
    await this.deliveries.endPending(deliveryId);
    this.logger.log({ deliveryId, reason }, 'webhook delivery stopped');
  }
}
