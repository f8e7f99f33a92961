import { InjectQueue } from '@nestjs/bull';
import { Injectable } from '@nestjs/common';
import type { Queue } from 'bull';
import { Database } from '@/database/database';
import { DbJobData, DbQueue } from '@/common/queue/db-queue';
import { InjectConfig } from '@/config/config.module';
import type { AppConfig } from '@/config/env';

export const DELIVERY_QUEUE = 'webhook-delivery';

/** Delivery attempts: one row of webhook_deliveries each, due at `next_attempt_at` while `pending`. */
@Injectable()
export class DeliveryQueue extends DbQueue {
  constructor(
    database: Database,
    @InjectQueue(DELIVERY_QUEUE) queue: Queue<DbJobData>,
    @InjectConfig() config: AppConfig,
  ) {
    super(
      {
        name: DELIVERY_QUEUE,
        job: 'deliver',
        table: 'webhook_deliveries',
        dueColumn: 'next_attempt_at',
        attemptsColumn: 'attempt_count',
        pending: `status = 'pending'`,
        leaseMs: config.webhookTimeoutMs + 30_000,
      },
      database,
      queue,
    );
  }
}
