import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { InjectConfig } from '@/config/config.module';
import { type AppConfig, runsWorkers } from '@/config/env';
import { FirstAttempts, type LeasedDelivery } from './first-attempts';
import type { WebhookTopic, WebhookVersion } from './webhook.entity';
import { DeliveryQueue } from './webhooks.queue';

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

/** The deliveries' part of the statement that finishes an eligibility request. */
export interface FinishingDeliveries {
  /**
   * A CTE named `deliveries`, selecting from the statement's CTE `request` (columns id,
   * account_id, uid; at most one row: none when the request was finished already).
   */
  cte: string;
  /** An expression for the statement's last SELECT: the recorded deliveries, as JSON. */
  summary: string;
  /** The CTE's parameters, numbered from the `first` given. */
  params: unknown[];
  /** The recorded deliveries, from the value of `summary` in the statement's answer. */
  read(summary: unknown): LeasedDelivery[];
}

interface DeliverySummary {
  id: string;
  webhook_id: string;
  url: string;
  secret_sealed: string | null;
  version: WebhookVersion;
}

/**
 * The webhook outbox. The statement that finishes a request records its deliveries too
 * (`finishingDeliveries`), so a finished request never lacks them, even after a crash. After the
 * commit, `deliver` makes their first attempts in this process (FirstAttempts) where the process
 * runs workers (ROLE all or worker: where searches finish), and the sweeper takes over any the
 * process could not make; a process without workers (ROLE=api) queues them for a worker.
 */
@Injectable()
export class WebhookOutbox {
  private readonly inline: boolean;

  constructor(
    private readonly queue: DeliveryQueue,
    private readonly firstAttempts: FirstAttempts,
    @InjectConfig() config: AppConfig,
  ) {
    this.inline = runsWorkers(config);
  }

  /**
   * The deliveries' part of the one statement that finishes an eligibility request (so a finished
   * request never lacks them, even after a crash): one pending delivery per active webhook of the
   * account subscribed to eligibility, carrying the body of the webhook's version; where first
   * attempts are made here, stored with that attempt leased to this process. The unique key
   * makes a repeated call harmless. Pass what `read` answers to `deliver` after the commit.
   * `bodyParams`: the statement's parameters that already carry the bodies (e.g. `$4`), so they
   * are sent once; `first`: the number of the first parameter of its own.
   */
  finishingDeliveries(
    first: number,
    bodies: Record<WebhookVersion, string>,
    bodyParams: Record<WebhookVersion, string>,
  ): FinishingDeliveries {
    const $ = (i: number) => `$${first + i}`;
    return {
      cte: `deliveries AS (
         INSERT INTO webhook_deliveries (webhook_id, account_id, event, request_id, request_uid, body, status,
                                         attempt_count, lease_job, next_attempt_at, lease_owner)
         SELECT w.id, w.account_id, ${$(0)}, request.id, request.uid,
                CASE w.version WHEN 'v1' THEN ${bodyParams.v1} ELSE ${bodyParams.v2} END, 'pending',
                CASE WHEN ${$(1)}::text IS NULL THEN 0 ELSE 1 END, ${$(1)},
                now() + (${$(2)} || ' milliseconds')::interval, ${$(3)}::uuid
         FROM request JOIN webhooks w ON w.account_id = request.account_id
         WHERE w.is_active AND 'eligibility' = ANY(w.events)
         ON CONFLICT (webhook_id, request_id, event) DO NOTHING
         RETURNING id, webhook_id)`,
      summary: `(SELECT COALESCE(json_agg(json_build_object('id', d.id, 'webhook_id', d.webhook_id,
           'url', w.url, 'secret_sealed', w.secret_sealed, 'version', w.version)), '[]'::json)
         FROM deliveries d JOIN webhooks w ON w.id = d.webhook_id)`,
      params: [
        EVENT_ELIGIBILITY_FINISHED,
        this.inline ? `first:${randomUUID()}` : null,
        this.inline ? String(this.queue.spec.leaseMs) : '0',
        this.inline ? this.queue.ownerId : null,
      ],
      read: (summary) =>
        (summary as DeliverySummary[]).map((r) => ({
          id: r.id,
          webhookId: r.webhook_id,
          url: r.url,
          secretSealed: r.secret_sealed,
          body: bodies[r.version],
          event: EVENT_ELIGIBILITY_FINISHED,
        })),
    };
  }

  /** After commit: the first attempts of deliveries recorded by `finishingDeliveries`. Never throws. */
  async deliver(deliveries: readonly LeasedDelivery[]): Promise<void> {
    if (this.inline) this.firstAttempts.start(deliveries);
    else await this.dispatch(deliveries.map((d) => d.id));
  }

  /**
   * One pending delivery of a claim or batch event per active webhook subscribed to its topic,
   * inside the caller's transaction. Answers the new deliveries' ids: pass them to `dispatch`
   * after the commit (the sweeper queues them anyway if the process dies in between).
   */
  async recordEventInTx(manager: EntityManager, message: OutboxEvent): Promise<string[]> {
    const rows: { id: string }[] = await manager.query(
      `WITH created AS (
         INSERT INTO webhook_deliveries (webhook_id, account_id, event, request_id, request_uid, resource_key, body, status, next_attempt_at)
         SELECT w.id, w.account_id, $2, NULL, $3, $4, $5, 'pending', now()
         FROM webhooks w WHERE w.account_id = $1 AND w.is_active AND $6 = ANY(w.events)
         ON CONFLICT (webhook_id, event, resource_key) WHERE resource_key IS NOT NULL DO NOTHING
         RETURNING id)
       SELECT id FROM created`,
      [
        message.accountId,
        message.event,
        message.resourceUid,
        message.resourceKey,
        message.body,
        message.topic,
      ],
    );
    return rows.map((r) => r.id);
  }

  /** After commit: queue the first attempt of deliveries recorded by `recordEventInTx`. */
  async dispatch(deliveryIds: readonly string[]): Promise<void> {
    for (const id of deliveryIds) await this.queue.enqueue(id, 0, 'a1');
  }
}
