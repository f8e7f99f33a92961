import type { LoggerService } from '@nestjs/common';
import { tags } from '@/platform/jobs/job-id';
import { retryDelayMs, type RetryPolicy } from '@/platform/kernel/retry';
import type { AppConfig } from '@/platform/config/env';
import type { Metrics } from '@/platform/metrics/metrics';
import type { DeliveryQueue } from '../jobs/delivery.queue';
import type { WebhookDeliveriesRepository } from '../store/webhook-deliveries.repository';
import type { SendResult } from './webhook-sender';

/** WEBHOOK_RETRY_SCHEDULE (seconds) as the deliveries' retry policy. */
export const webhookRetries = (config: AppConfig): RetryPolicy => ({
  delaysMs: config.webhookRetrySchedule.map((s) => s * 1000),
});

export interface SettleDeps {
  deliveries: WebhookDeliveriesRepository;
  queue: DeliveryQueue;
  logger: LoggerService;
  policy: RetryPolicy;
  metrics: Metrics;
}

/**
 * After an automatic attempt (a first attempt or the delivery worker's, docs/architecture.md,
 * The route of a webhook delivery): one statement records it and settles the delivery, `failed`
 * after the policy's last attempt; while it stays `pending` its next attempt is queued.
 */
export async function settleAttempt(
  deps: SettleDeps,
  delivery: { id: string; webhookId: string },
  attempt: number,
  result: SendResult,
): Promise<void> {
  const delayMs = retryDelayMs(deps.policy, attempt);
  const outcome = await deps.deliveries.recordAttempt(
    delivery.id,
    result,
    delayMs === null,
    delayMs ?? 0,
  );
  deps.logger.log(
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
  if (outcome !== null) deps.metrics.webhookAttempt(outcome === 'pending' ? 'retrying' : outcome);
  if (outcome === 'pending')
    await deps.queue.enqueue(delivery.id, delayMs ?? 0, tags.attempt(attempt + 1));
}
