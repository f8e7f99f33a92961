import { Injectable } from '@nestjs/common';
import { firstAttemptRun, tags } from '@/platform/jobs/job-id';
import { InjectConfig } from '@/platform/config/config.module';
import { type AppConfig, runsWorkers } from '@/platform/config/env';
import type { Tx } from '@/platform/db/database';
import type { Sql } from '@/platform/db/sql';
import type { DeliveryTarget } from './delivery-sender';
import {
  type FinishingSql,
  WebhookDeliveriesRepository,
  type RequestEventDeliveries,
} from '../store/webhook-deliveries.repository';
import type { WebhookTopic, WebhookVersion } from '../store/webhook.entity';
import { DeliveryQueue } from '../jobs/delivery.queue';

export type { FinishingSql } from '../store/webhook-deliveries.repository';

/** The `event` of an eligibility result delivery (webhook_deliveries.event). */
const EVENT_ELIGIBILITY_FINISHED = 'eligibility.finished';

/** A delivery a finishing statement recorded, as its first attempt (in the delivery lane) needs it. */
export interface LeasedDelivery extends DeliveryTarget {
  id: string;
  body: string;
  event: string;
}

/** A delivery about something other than an eligibility request (a claim, a batch). */
interface OutboxEvent {
  accountId: string;
  /** Webhooks receive it when their `events` hold this topic. */
  topic: Exclude<WebhookTopic, 'eligibility'>;
  /** The event type, sent as X-Event-Type (`claim.status_changed`, `eligibility.batch_finished`). */
  event: string;
  /** Unique per occurrence: a repeated call with the same key records nothing new. */
  resourceKey: string;
  /** What the client knows the resource by (claim code, batch uid); shown in the delivery log. */
  resourceUid: string;
  /** The body, the same bytes for every webhook version (the resource's GET body). */
  body: string;
}

/** The finishing statement the deliveries' part is built into: where it carries each body. */
interface FinishingStatement {
  /** Per webhook version, the statement's expression carrying that body (e.g. a CTE's column). */
  bodies: Record<WebhookVersion, Sql>;
}

/** The deliveries' part of the statement that finishes an eligibility request. */
export interface FinishingDeliveries {
  /**
   * For `statement`: `cte`, a CTE named `deliveries` selecting from the statement's CTE
   * `request` (columns id, account_id, uid; one row per request the statement finished: none
   * when it was finished already); `summary`, an expression for the statement's last SELECT over
   * `request` (that request's recorded deliveries, as JSON). Both are fragments carrying their
   * own values.
   */
  sql(statement: FinishingStatement): FinishingSql;
  /**
   * The recorded deliveries, from the value of `summary` in the statement's answer; their first
   * attempts are handed off once the statement has committed: `tx`'s commit (`tx.afterCommit`),
   * or already (null: the statement was its own transaction, and it answered).
   */
  read(summary: unknown, tx: Tx | null): LeasedDelivery[];
}

interface DeliverySummary {
  id: string;
  webhook_id: string;
  url: string;
  secret_sealed: string | null;
  allow_nonstandard_port: boolean;
  version: WebhookVersion;
}

/**
 * The webhook outbox. The statement that finishes a request records its deliveries too
 * (`finishingDeliveries`), so a finished request never lacks them, even after a crash. Once it
 * has committed, their first attempts run in this process's delivery lane where the process runs
 * workers (ROLE all or worker: where searches finish), and the sweeper takes over any the process
 * could not make; a process without workers (ROLE=api) queues them for a worker. Other events
 * (`recordEventInTx`) queue their first attempts after their transaction's commit.
 */
@Injectable()
export class WebhookOutbox {
  /** The run this process's first attempts are stored leased to; null: none made here. */
  private readonly firstRun: string | null;

  constructor(
    private readonly queue: DeliveryQueue,
    private readonly deliveries: WebhookDeliveriesRepository,
    @InjectConfig() config: AppConfig,
  ) {
    this.firstRun = runsWorkers(config) ? firstAttemptRun() : null;
  }

  /**
   * The deliveries' part of the one statement that finishes an eligibility request (so a finished
   * request never lacks them, even after a crash): one pending delivery per active webhook of the
   * account subscribed to eligibility, carrying the body of the webhook's version (`bodies`);
   * where first attempts are made here, stored with that attempt leased to this process. The
   * unique key makes a repeated call harmless. `read` hands the first attempts off.
   */
  finishingDeliveries(bodies: Record<WebhookVersion, string>): FinishingDeliveries {
    const leaseJob = this.firstRun;
    return {
      sql: (statement) =>
        this.deliveries.finishing({
          bodies: statement.bodies,
          event: EVENT_ELIGIBILITY_FINISHED,
          leaseJob,
          leaseMs: leaseJob ? String(this.queue.spec.leaseMs) : '0',
          owner: leaseJob ? this.queue.ownerId : null,
        }),
      read: (summary, tx) => {
        const recorded = (summary as DeliverySummary[]).map((r) => ({
          id: r.id,
          webhookId: r.webhook_id,
          url: r.url,
          secretSealed: r.secret_sealed,
          allowNonstandardPort: r.allow_nonstandard_port,
          body: bodies[r.version],
          event: EVENT_ELIGIBILITY_FINISHED,
        }));
        if (recorded.length === 0) return recorded;
        // A statement of its own has committed when it answers: nothing to wait for.
        if (tx) tx.afterCommit(() => this.deliver(recorded));
        else void this.deliver(recorded);
        return recorded;
      },
    };
  }

  /**
   * The first attempts of deliveries a finishing statement recorded, once it has committed (the
   * hand-off `read` makes): in this process's delivery lane, stored leased to its run (the sweeper
   * takes over any it cannot make), or queued for a worker. Never throws.
   */
  async deliver(deliveries: readonly LeasedDelivery[]): Promise<void> {
    const run = this.firstRun;
    if (run === null) return this.dispatch(deliveries.map((d) => d.id));
    for (const d of deliveries) await this.queue.submitRun(run, d.id, d);
  }

  /**
   * One pending delivery of a claim, batch, remittance or verification event per active webhook
   * subscribed to its topic, inside the caller's transaction; their first attempts are queued
   * after its commit (`tx.afterCommit`; the sweeper queues them anyway if the process dies in
   * between). Answers the new deliveries' ids.
   */
  async recordEventInTx(tx: Tx, message: OutboxEvent): Promise<string[]> {
    const ids = await this.deliveries.recordEvent(message, tx);
    if (ids.length > 0) tx.afterCommit(() => this.dispatch(ids));
    return ids;
  }

  /**
   * docs/api.md, Universal Search insurer by insurer: a request's answer grew (`eligibility.updated`):
   * one pending delivery per eligibility webhook of the account, with the whole new body of its
   * version, in the caller's transaction; first attempts queued after its commit. `resourceKey`
   * tells one growth from another (a repeated call records nothing new).
   */
  async recordRequestEventInTx(tx: Tx, e: RequestEventDeliveries): Promise<string[]> {
    const ids = await this.deliveries.recordRequestEvent(e, tx);
    if (ids.length > 0) tx.afterCommit(() => this.dispatch(ids));
    return ids;
  }

  /** Queues the first attempt of deliveries already committed. Never throws (`DbQueue.enqueue`). */
  private async dispatch(deliveryIds: readonly string[]): Promise<void> {
    for (const id of deliveryIds) await this.queue.enqueue(id, 0, tags.attempt(1));
  }

  /**
   * Retention (SECURITY.md, Retention: PHI_RETENTION_DAYS), in the job's transaction: the
   * deliveries of the purged eligibility requests `requestIds` carry their purged answer
   * (`bodies`, one per id).
   */
  purgeRequestBodies(requestIds: string[], bodies: string[], tx: Tx): Promise<void> {
    return this.deliveries.purgeRequestBodies(requestIds, bodies, tx);
  }

  /** Retention: the deliveries of the verification tasks `taskIds` lose their body. */
  emptyTaskBodies(taskIds: string[], tx: Tx): Promise<void> {
    return this.deliveries.emptyTaskBodies(taskIds, tx);
  }
}
