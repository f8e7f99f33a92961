import { Injectable } from '@nestjs/common';
import { firstAttemptRun, tags } from '@/platform/jobs/job-id';
import { InjectConfig } from '@/platform/config/config.module';
import { type AppConfig, runsWorkers } from '@/platform/config/env';
import { afterCommit, type Tx } from '@/platform/db/database';
import type { Sql } from '@/platform/db/sql';
import { FirstAttempts, type LeasedDelivery } from './first-attempts';
import {
  type FinishingSql,
  WebhookDeliveriesRepository,
  type RequestEventDeliveries,
} from '../store/webhook-deliveries.repository';
import type { WebhookTopic, WebhookVersion } from '../store/webhook.entity';
import { DeliveryQueue } from '../jobs/delivery.queue';

export type { FinishingSql } from '../store/webhook-deliveries.repository';

/** The `event` of an eligibility result delivery (webhook_deliveries.event). */
export const EVENT_ELIGIBILITY_FINISHED = 'eligibility.finished';

export interface OutboxMessage {
  accountId: string;
  requestId: string;
  requestUid: string;
  /** The body each webhook version receives, exactly as the result endpoint serves it. */
  bodies: Record<WebhookVersion, string>;
}

/** A delivery about something other than an eligibility request (a claim, a batch). */
export interface OutboxEvent {
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
export interface FinishingStatement {
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
  /** The recorded deliveries, from the value of `summary` in the statement's answer. */
  read(summary: unknown): LeasedDelivery[];
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
 * (`finishingDeliveries`), so a finished request never lacks them, even after a crash. After the
 * commit, `deliver` makes their first attempts in this process (FirstAttempts) where the process
 * runs workers (ROLE all or worker: where searches finish), and the sweeper takes over any the
 * process could not make; a process without workers (ROLE=api) queues them for a worker. Other
 * events (`recordEventInTx`) queue their first attempts after their transaction's commit.
 */
@Injectable()
export class WebhookOutbox {
  private readonly inline: boolean;

  constructor(
    private readonly queue: DeliveryQueue,
    private readonly deliveries: WebhookDeliveriesRepository,
    private readonly firstAttempts: FirstAttempts,
    @InjectConfig() config: AppConfig,
  ) {
    this.inline = runsWorkers(config);
  }

  /**
   * The deliveries' part of the one statement that finishes an eligibility request (so a finished
   * request never lacks them, even after a crash): one pending delivery per active webhook of the
   * account subscribed to eligibility, carrying the body of the webhook's version (`bodies`);
   * where first attempts are made here, stored with that attempt leased to this process. The
   * unique key makes a repeated call harmless. Pass what `read` answers to `deliver`.
   */
  finishingDeliveries(bodies: Record<WebhookVersion, string>): FinishingDeliveries {
    const leaseJob = this.inline ? firstAttemptRun() : null;
    return {
      sql: (statement) =>
        this.deliveries.finishing({
          bodies: statement.bodies,
          event: EVENT_ELIGIBILITY_FINISHED,
          leaseJob,
          leaseMs: this.inline ? String(this.queue.spec.leaseMs) : '0',
          owner: this.inline ? this.queue.ownerId : null,
        }),
      read: (summary) =>
        (summary as DeliverySummary[]).map((r) => ({
          id: r.id,
          webhookId: r.webhook_id,
          url: r.url,
          secretSealed: r.secret_sealed,
          allowNonstandardPort: r.allow_nonstandard_port,
          body: bodies[r.version],
          event: EVENT_ELIGIBILITY_FINISHED,
        })),
    };
  }

  /**
   * The first attempts of deliveries recorded by `finishingDeliveries`, once the statement that
   * recorded them has committed: after `tx`'s commit (a batch item's transaction), or now when
   * that statement was its own transaction (a single search's, already answered). Never throws.
   */
  deliver(deliveries: readonly LeasedDelivery[], tx?: Tx): Promise<void> {
    if (deliveries.length === 0) return Promise.resolve();
    return afterCommit(tx, () =>
      this.inline
        ? this.firstAttempts.start(deliveries)
        : this.dispatch(deliveries.map((d) => d.id)),
    );
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
