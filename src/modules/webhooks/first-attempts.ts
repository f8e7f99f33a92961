import { BeforeApplicationShutdown, Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { InjectConfig } from '@/config/config.module';
import type { AppConfig } from '@/config/env';
import { pgQueryable } from '@/database/pg-pool';
import { recordAttempt } from './attempt-record';
import { DeliverySender } from './delivery-sender';
import { DeliveryQueue } from './webhooks.queue';

/** A delivery just recorded (with its first attempt leased to this process where it makes it). */
export interface LeasedDelivery {
  id: string;
  webhookId: string;
  url: string;
  secretSealed: string | null;
  body: string;
  event: string;
}

/**
 * The first attempt of a new delivery, made by the process that recorded it, right after the
 * commit: no queue round trip between a finished search and its webhook. The delivery is stored
 * already leased (attempt 1, due when the lease ends), so if this process dies, or the attempt
 * waits here longer than half the lease, the queue sweeper hands it to a worker like any lost
 * job. Retries go through the delivery queue. At most SEARCH_CONCURRENCY attempts run at once
 * (what the delivery worker runs); the rest wait their turn.
 */
@Injectable()
export class FirstAttempts implements BeforeApplicationShutdown {
  private readonly logger = new Logger(FirstAttempts.name);
  private running = 0;
  private readonly waiting: (() => void)[] = [];
  private readonly inFlight = new Set<Promise<void>>();

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly sender: DeliverySender,
    private readonly queue: DeliveryQueue,
    @InjectConfig() private readonly config: AppConfig,
  ) {}

  /** Starts the attempts; never throws, never waits for them. */
  start(deliveries: readonly LeasedDelivery[]): void {
    for (const delivery of deliveries) {
      const run = this.attempt(delivery).finally(() => this.inFlight.delete(run));
      this.inFlight.add(run);
    }
  }

  /** Lets attempts in flight record their outcome before the database goes away. */
  async beforeApplicationShutdown(): Promise<void> {
    await Promise.allSettled([...this.inFlight]);
  }

  private async attempt(delivery: LeasedDelivery): Promise<void> {
    const queuedAt = Date.now();
    await this.turn();
    try {
      // Waited too long for a turn: the lease may be near its end; the sweeper takes it over.
      if (Date.now() - queuedAt > this.queue.spec.leaseMs / 2) return;
      const result = await this.sender.sendTo(delivery, delivery);
      const schedule = this.config.webhookRetrySchedule;
      const final = schedule.length === 0;
      const delayMs = final ? 0 : schedule[0] * 1000;
      const outcome = await recordAttempt(
        pgQueryable(this.db),
        delivery.id,
        result,
        final,
        delayMs,
      );
      this.logger.log(
        {
          deliveryId: delivery.id,
          webhookId: delivery.webhookId,
          attempt: 1,
          statusCode: result.statusCode,
          outcome: outcome ?? 'deleted',
        },
        'webhook attempt',
      );
      if (outcome === 'pending') await this.queue.enqueue(delivery.id, delayMs, 'a2');
    } catch (e) {
      // Not recorded (database away): the lease runs out and the sweeper retries the delivery.
      this.logger.warn(
        { deliveryId: delivery.id, err: (e as Error).message },
        'first webhook attempt not recorded; the sweeper will retry',
      );
    } finally {
      this.release();
    }
  }

  private turn(): Promise<void> {
    if (this.running < this.config.searchConcurrency) {
      this.running++;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  private release(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.running--;
  }
}
