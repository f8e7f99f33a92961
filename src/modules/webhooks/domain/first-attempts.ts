import { BeforeApplicationShutdown, Injectable, Logger } from '@nestjs/common';
import { Permits } from '@/platform/jobs/local-lane';
import { Metrics } from '@/platform/metrics/metrics';
import { InjectConfig } from '@/platform/config/config.module';
import type { AppConfig } from '@/platform/config/env';
import { settleAttempt, type SettleDeps, webhookRetries } from './attempt-settler';
import { DeliverySender } from './delivery-sender';
import { WebhookDeliveriesRepository } from '../store/webhook-deliveries.repository';
import { DeliveryQueue } from '../jobs/delivery.queue';

/** A delivery just recorded (with its first attempt leased to this process where it makes it). */
export interface LeasedDelivery {
  id: string;
  webhookId: string;
  url: string;
  secretSealed: string | null;
  allowNonstandardPort: boolean;
  body: string;
  event: string;
}

/**
 * The first attempt of a new delivery, made by the process that recorded it, right after the
 * commit: no queue round trip between a finished search and its webhook. The delivery is stored
 * already leased (attempt 1, due when the lease ends), so if this process dies, or the attempt
 * waits here longer than half the lease, the queue sweeper hands it to a worker like any lost
 * job. Retries go through the delivery queue.
 *
 * Each attempt runs within the permits of the delivery queue's lane in this process
 * (`DbQueue.withLanePermit`): the same SEARCH_CONCURRENCY permits the delivery worker's runs
 * take, so first attempts and retries together never make more webhook requests at once. Where
 * the process has no delivery lane (before the workers start, after they stop), a limit of its
 * own, as large, bounds them.
 */
@Injectable()
export class FirstAttempts implements BeforeApplicationShutdown {
  private readonly logger = new Logger(FirstAttempts.name);
  private readonly ownPermits: Permits;
  private readonly inFlight = new Set<Promise<void>>();
  private readonly settling: SettleDeps;

  constructor(
    private readonly deliveries: WebhookDeliveriesRepository,
    private readonly sender: DeliverySender,
    private readonly queue: DeliveryQueue,
    @InjectConfig() config: AppConfig,
    metrics: Metrics,
  ) {
    this.ownPermits = new Permits(config.searchConcurrency);
    this.settling = {
      deliveries,
      queue,
      logger: this.logger,
      policy: webhookRetries(config),
      metrics,
    };
  }

  /** Starts the attempts; never throws, never waits for them. */
  start(deliveries: readonly LeasedDelivery[]): void {
    for (const delivery of deliveries) {
      const queuedAt = Date.now();
      const attempt = () => this.attempt(delivery, queuedAt);
      const run = (this.queue.withLanePermit(attempt) ?? this.ownPermits.use(attempt)).finally(() =>
        this.inFlight.delete(run),
      );
      this.inFlight.add(run);
    }
  }

  /** Lets attempts in flight record their outcome before the database goes away. */
  async beforeApplicationShutdown(): Promise<void> {
    await Promise.allSettled([...this.inFlight]);
  }

  /** The attempt, once it holds a permit. Never throws. */
  private async attempt(delivery: LeasedDelivery, queuedAt: number): Promise<void> {
    try {
      // Waited too long for a turn: the lease may be near its end; the sweeper takes it over.
      if (Date.now() - queuedAt > this.queue.spec.leaseMs / 2) return;
      const result = await this.sender.sendTo(delivery, delivery);
      await settleAttempt(this.settling, delivery, 1, result);
    } catch (e) {
      // Not recorded (database away): the lease runs out and the sweeper retries the delivery.
      this.logger.warn(
        { deliveryId: delivery.id, err: (e as Error).message },
        'first webhook attempt not recorded; the sweeper will retry',
      );
    }
  }
}
