import { Injectable } from '@nestjs/common';
import { OnEvent } from '@nestjs/event-emitter';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import {
  ELIGIBILITY_FINISHED,
  EligibilityFinishedEvent,
} from '@/modules/eligibility/eligibility.events';
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

/**
 * The webhook outbox. The module that finishes a request calls `enqueueInTx` inside its own
 * transaction, so a finished request never lacks its deliveries, even after a crash; the first
 * attempts are queued after the commit (and by the sweeper if the process dies in between).
 */
@Injectable()
export class WebhookOutbox {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly queue: DeliveryQueue,
  ) {}

  /**
   * One pending delivery per active webhook of the account, carrying the body of the webhook's
   * version. The unique key makes a repeated call harmless. Answers how many were recorded.
   */
  async enqueueInTx(manager: EntityManager, message: OutboxMessage): Promise<number> {
    const rows: { id: string }[] = await manager.query(
      `WITH created AS (
         INSERT INTO webhook_deliveries (webhook_id, account_id, event, request_id, request_uid, body, status, next_attempt_at)
         SELECT w.id, w.account_id, $3, $2, $4, CASE w.version WHEN 'v1' THEN $5 ELSE $6 END, 'pending', now()
         FROM webhooks w WHERE w.account_id = $1 AND w.is_active AND 'eligibility' = ANY(w.events)
         ON CONFLICT (webhook_id, request_id, event) DO NOTHING
         RETURNING id)
       SELECT id FROM created`,
      [
        message.accountId,
        message.requestId,
        EVENT_ELIGIBILITY_FINISHED,
        message.requestUid,
        message.bodies.v1,
        message.bodies.v2,
      ],
    );
    return rows.length;
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

  /** After commit: queue the first attempt of each new delivery of the request. */
  @OnEvent(ELIGIBILITY_FINISHED, { async: true, promisify: true })
  async onEligibilityFinished(event: EligibilityFinishedEvent): Promise<void> {
    const rows: { id: string }[] = await this.db.query(
      `SELECT id FROM webhook_deliveries WHERE request_id = $1 AND status = 'pending' AND attempt_count = 0`,
      [event.requestId],
    );
    for (const { id } of rows) await this.queue.enqueue(id, 0, 'a1');
  }
}
