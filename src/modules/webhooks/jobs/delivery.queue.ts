import { Injectable } from '@nestjs/common';
import { dbQueueOf } from '@/platform/jobs/db-queue-of';

export const DELIVERY_QUEUE = 'webhook-delivery';

/**
 * Delivery attempts: one row of webhook_deliveries each, due at `next_attempt_at` while `pending`,
 * retried after WEBHOOK_RETRY_SCHEDULE's delays (seconds). Deliveries wait on the network, not the
 * CPU: as many run at once as searches (SEARCH_CONCURRENCY), first attempts included.
 */
@Injectable()
export class DeliveryQueue extends dbQueueOf(DELIVERY_QUEUE, (config) => ({
  job: 'deliver',
  table: 'webhook_deliveries',
  dueColumn: 'next_attempt_at',
  attemptsColumn: 'attempt_count',
  pending: `status = 'pending'`,
  leaseMs: config.webhookTimeoutMs + 30_000,
  concurrency: config.searchConcurrency,
  retries: { delaysMs: config.webhookRetrySchedule.map((s) => s * 1000) },
})) {}
