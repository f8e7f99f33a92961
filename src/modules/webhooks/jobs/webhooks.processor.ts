import { Injectable, Logger } from '@nestjs/common';
import { tags } from '@/platform/jobs/job-id';
import type { QueueJob } from '@/platform/jobs/local-lane';
import { JobHandler, QueueWorker } from '@/platform/jobs/queue-worker';
import { Metrics } from '@/platform/metrics/metrics';
import { DeliverySender } from '../domain/delivery-sender';
import type { LeasedDelivery } from '../domain/webhook-outbox';
import type { SendResult } from '../domain/webhook-sender';
import { WebhookDeliveriesRepository } from '../store/webhook-deliveries.repository';
import { WebhooksRepository } from '../store/webhooks.repository';
import { DELIVERY_QUEUE, DeliveryQueue } from './delivery.queue';

/**
 * Automatic delivery attempts. A delivery stops when it succeeds, when its retries run out
 * (WEBHOOK_RETRY_SCHEDULE), and when its webhook is deactivated or deleted. A finished search's
 * first attempts come here too, through the delivery lane of the process that finished it: their
 * rows were stored leased to that process's run (WebhookOutbox.finishingDeliveries), as the job
 * carries them.
 */
@Injectable()
@QueueWorker(DELIVERY_QUEUE)
export class WebhooksProcessor implements JobHandler {
  private readonly logger = new Logger(WebhooksProcessor.name);

  constructor(
    private readonly webhooks: WebhooksRepository,
    private readonly deliveries: WebhookDeliveriesRepository,
    private readonly queue: DeliveryQueue,
    private readonly sender: DeliverySender,
    private readonly metrics: Metrics,
  ) {}

  async handle(job: QueueJob): Promise<void> {
    const { leased } = job;
    if (!leased) return this.attempt(job.data.id, String(job.id));
    // A first attempt, stored leased to this run: no lease round trip, no read.
    if (!(await this.queue.holdsStored(job.data.id, String(job.id), leased.at))) return;
    const delivery = leased.row as LeasedDelivery;
    await this.settle(delivery, 1, await this.sender.sendTo(delivery, delivery));
  }

  /** One automatic attempt; the lease makes a duplicate job skip a delivery in flight. */
  async attempt(deliveryId: string, jobId: string): Promise<void> {
    const attemptNo = await this.queue.lease(deliveryId, jobId);
    if (attemptNo === null) return;
    const delivery = await this.deliveries.findById(deliveryId);
    if (!delivery) return; // deleted with its webhook meanwhile
    const webhook = await this.webhooks.findById(delivery.webhookId);
    if (!webhook?.isActive) {
      await this.deliveries.endPending(deliveryId);
      this.logger.log({ deliveryId, reason: 'webhook inactive' }, 'webhook delivery stopped');
      return;
    }
    await this.settle(delivery, attemptNo, await this.sender.send(webhook, delivery));
  }

  /**
   * After an automatic attempt (docs/architecture.md, The route of a webhook delivery): one
   * statement records it and settles the delivery, `failed` after the queue's last retry; while it
   * stays `pending` its next attempt is queued.
   */
  private async settle(
    delivery: { id: string; webhookId: string },
    attempt: number,
    result: SendResult,
  ): Promise<void> {
    const delayMs = this.queue.retryDelay(attempt);
    const outcome = await this.deliveries.recordAttempt(
      delivery.id,
      result,
      delayMs === null,
      delayMs ?? 0,
    );
    this.logger.log(
      {
        deliveryId: delivery.id,
        webhookId: delivery.webhookId,
        attempt,
        statusCode: result.statusCode,
        outcome: outcome ?? 'deleted',
      },
      'webhook attempt',
    );
    // docs/architecture.md, What operators see: `webhook_deliveries_total{outcome}`.
    if (outcome !== null) this.metrics.webhookAttempt(outcome === 'pending' ? 'retrying' : outcome);
    if (outcome === 'pending')
      await this.queue.enqueue(delivery.id, delayMs ?? 0, tags.attempt(attempt + 1));
  }
}
