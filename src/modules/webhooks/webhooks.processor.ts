import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
import type { Job } from 'bull';
import { DataSource, Repository } from 'typeorm';
import type { DbJobData } from '@/common/queue/db-queue';
import { JobHandler, QueueWorker } from '@/common/queue/queue-worker';
import { InjectConfig } from '@/config/config.module';
import type { AppConfig } from '@/config/env';
import { DeliverySender } from './delivery-sender';
import { DeliveryStatus, Webhook, WebhookAttempt, WebhookDelivery } from './webhook.entity';
import { DELIVERY_QUEUE, DeliveryQueue } from './webhooks.queue';

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
    @InjectDataSource() private readonly db: DataSource,
    @InjectRepository(Webhook) private readonly webhooks: Repository<Webhook>,
    @InjectRepository(WebhookDelivery) private readonly deliveries: Repository<WebhookDelivery>,
    private readonly queue: DeliveryQueue,
    private readonly sender: DeliverySender,
    @InjectConfig() private readonly config: AppConfig,
  ) {}

  async handle(job: Job<DbJobData>): Promise<void> {
    await this.attempt(job.data.id, String(job.id));
  }

  /** One automatic attempt; the lease makes a duplicate job skip a delivery in flight. */
  async attempt(deliveryId: string, jobId: string): Promise<void> {
    const attemptNo = await this.queue.lease(deliveryId, jobId);
    if (attemptNo === null) return;
    const delivery = await this.deliveries.findOne({ where: { id: deliveryId } });
    if (!delivery) return; // deleted with its webhook meanwhile
    const webhook = await this.webhooks.findOne({ where: { id: delivery.webhookId } });
    if (!webhook?.isActive) {
      await this.end(deliveryId, 'webhook inactive');
      return;
    }

    const result = await this.sender.send(webhook, delivery);
    const schedule = this.config.webhookRetrySchedule;
    let status: DeliveryStatus = 'pending';
    if (result.ok) status = 'succeeded';
    else if (attemptNo > schedule.length) status = 'failed';
    const delayMs = status === 'pending' ? schedule[attemptNo - 1] * 1000 : 0;

    const outcome = await this.db.transaction(async (em) => {
      const [row]: { status: DeliveryStatus; is_active: boolean }[] = await em.query(
        `SELECT d.status, w.is_active FROM webhook_deliveries d JOIN webhooks w ON w.id = d.webhook_id
         WHERE d.id = $1 FOR UPDATE OF d`,
        [deliveryId],
      );
      if (!row) return null; // deleted while the attempt was in flight
      await em.insert(WebhookAttempt, this.sender.attemptRow(deliveryId, result, false));
      // A manual redelivery may have succeeded meanwhile: never move a finished delivery back.
      if (row.status !== 'pending') return row.status;
      if (status === 'pending' && !row.is_active) status = 'failed';
      await em.query(
        `UPDATE webhook_deliveries
         SET status = $2::text, lease_job = NULL,
             next_attempt_at = CASE WHEN $2::text = 'pending' THEN now() + ($3 || ' milliseconds')::interval END,
             completed_at = CASE WHEN $2::text = 'pending' THEN NULL ELSE now() END
         WHERE id = $1`,
        [deliveryId, status, String(delayMs)],
      );
      return status;
    });
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
    if (outcome === 'pending') await this.queue.enqueue(deliveryId, delayMs, `a${attemptNo + 1}`);
  }

  /** Ends a pending delivery whose webhook no longer takes deliveries. */
  private async end(deliveryId: string, reason: string): Promise<void> {
    await this.db.query(
      `UPDATE webhook_deliveries SET status = 'failed', next_attempt_at = NULL, lease_job = NULL, completed_at = now()
       WHERE id = $1 AND status = 'pending'`,
      [deliveryId],
    );
    this.logger.log({ deliveryId, reason }, 'webhook delivery stopped');
  }
}
