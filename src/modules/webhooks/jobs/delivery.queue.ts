import { Injectable } from '@nestjs/common';
import { dbQueueOf } from '@/platform/jobs/db-queue-of';

export const DELIVERY_QUEUE = 'webhook-delivery';

/** Delivery attempts: one row of webhook_deliveries each, due at `next_attempt_at` while `pending`. */
@Injectable()
export class DeliveryQueue extends dbQueueOf(DELIVERY_QUEUE, (config) => ({
  job: 'deliver',
  table: 'webhook_deliveries',
  dueColumn: 'next_attempt_at',
  attemptsColumn: 'attempt_count',
  pending: `status = 'pending'`,
  leaseMs: config.webhookTimeoutMs + 30_000,
})) {}
