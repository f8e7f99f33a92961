import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import {
  type KeysetPage,
  type KeysetPageRequest,
  keysetPage,
} from '@/platform/http/pagination/keyset-paginator';
import type { Tx } from '@/platform/db/database';
import { entityColumns } from '@/platform/db/entity-columns';
import { execute, query, queryOne, sql, type Sql } from '@/platform/db/sql';
import type { SendResult } from '../domain/webhook-sender';
import {
  type DeliveryStatus,
  WebhookAttempt,
  WebhookDelivery,
  type WebhookTopic,
  type WebhookVersion,
} from './webhook.entity';
import { DeliveryQueue } from '../jobs/delivery.queue';

/** A claim, batch, remittance or verification event, one delivery per subscribed webhook. */
interface EventDeliveries {
  accountId: string;
  topic: WebhookTopic;
  event: string;
  resourceKey: string;
  resourceUid: string;
  body: string;
}

/** What the deliveries' CTE of a finishing statement is built from (`finishing`). */
interface FinishingParams {
  /** Per webhook version, the statement's expression carrying that body (e.g. a CTE's column). */
  bodies: Record<WebhookVersion, Sql>;
  event: string;
  /** The run the first attempts are stored leased to; null: stored due now, not leased. */
  leaseJob: string | null;
  /** How long that lease lasts (ms, as text) and the process (uuid) holding it. */
  leaseMs: string;
  owner: string | null;
}

/** The deliveries' part of a finishing statement. */
export interface FinishingSql {
  cte: Sql;
  summary: Sql;
}

/** A request's event (`eligibility.updated`) for every eligibility webhook of its account. */
export interface RequestEventDeliveries {
  accountId: string;
  event: string;
  requestId: string;
  requestUid: string;
  resourceKey: string;
  bodies: { v1: string; v2: string };
}

/** The delivery log, its attempts, the outbox's INSERTs and `finishing` (another module's CTE). */
@Injectable()
export class WebhookDeliveriesRepository {
  /** SET assignments of a delivery that has no run left. */
  private readonly released: Sql;

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly queue: DeliveryQueue,
  ) {
    const q = queue.sql;
    this.released = sql.raw(q.releaseSets());
  }

  // The delivery log ---------------------------------------------------------------------------

  /** A webhook's deliveries, newest first: one page (the house keyset paginator). */
  pageOfWebhook(
    accountId: string,
    webhookId: string,
    request: KeysetPageRequest,
  ): Promise<KeysetPage<WebhookDelivery>> {
    return keysetPage(
      this.db,
      sql`SELECT ${this.deliveryColumns()} FROM webhook_deliveries d
       WHERE d.webhook_id = ${webhookId} AND d.account_id = ${accountId}`,
      request,
    );
  }

  /** Delivery `id` of the account's webhook `webhookId` (both checked to be uuids), or null. */
  findOfWebhook(accountId: string, webhookId: string, id: string): Promise<WebhookDelivery | null> {
    return queryOne(
      this.db,
      sql`SELECT ${this.deliveryColumns()} FROM webhook_deliveries d
       WHERE d.id = ${id} AND d.webhook_id = ${webhookId} AND d.account_id = ${accountId}`,
    );
  }

  /** Delivery `id`, or null (deleted with its webhook). */
  findById(id: string): Promise<WebhookDelivery | null> {
    return queryOne(
      this.db,
      sql`SELECT ${this.deliveryColumns()} FROM webhook_deliveries d WHERE d.id = ${id}`,
    );
  }

  /** The attempts of these deliveries, oldest first, by delivery. */
  async attemptsOf(deliveryIds: string[]): Promise<Map<string, WebhookAttempt[]>> {
    const map = new Map<string, WebhookAttempt[]>();
    if (deliveryIds.length === 0) return map;
    const rows = await query<WebhookAttempt>(
      this.db,
      sql`SELECT ${entityColumns(this.db, WebhookAttempt, 'a')} FROM webhook_attempts a
       WHERE a.delivery_id = ANY(${deliveryIds}::uuid[]) ORDER BY a.started_at ASC, a.id ASC`,
    );
    for (const row of rows) map.set(row.deliveryId, [...(map.get(row.deliveryId) ?? []), row]);
    return map;
  }

  private deliveryColumns(): Sql {
    return entityColumns(this.db, WebhookDelivery, 'd');
  }

  // Attempts and their outcome -----------------------------------------------------------------

  /** Records an attempt row as it is (a manual redelivery's). */
  async insertAttempt(a: Partial<WebhookAttempt>, tx?: Tx): Promise<void> {
    await execute(
      this.db,
      sql`INSERT INTO webhook_attempts (delivery_id, started_at, status_code, duration_ms, error, response_body, manual)
       VALUES (${a.deliveryId}, ${a.startedAt}, ${a.statusCode ?? null}, ${a.durationMs},
         ${a.error ?? null}, ${a.responseBody ?? null}, ${a.manual ?? false})`,
      tx,
    );
  }

  /** Ends delivery `id` `succeeded` at `completedAt` (a manual redelivery succeeded). */
  async succeed(id: string, completedAt: Date, tx?: Tx): Promise<void> {
    await execute(
      this.db,
      sql`UPDATE webhook_deliveries SET status = 'succeeded', completed_at = ${completedAt}, ${this.released}
       WHERE id = ${id}`,
      tx,
    );
  }

  /**
   * One automatic attempt in one statement: its row and the delivery's next state (succeeded;
   * failed when `final` or the webhook is off; else due in `delayMs`; one no longer pending
   * keeps its state), or null once deleted.
   */
  async recordAttempt(
    deliveryId: string,
    result: SendResult,
    final: boolean,
    delayMs: number,
  ): Promise<DeliveryStatus | null> {
    const row = await queryOne<{ status: DeliveryStatus }>(
      this.db,
      sql`WITH d AS (
       SELECT d.id, d.status, w.is_active FROM webhook_deliveries d JOIN webhooks w ON w.id = d.webhook_id
       WHERE d.id = ${deliveryId} FOR UPDATE OF d),
     attempt AS (
       INSERT INTO webhook_attempts (delivery_id, started_at, status_code, duration_ms, error, response_body, manual)
       SELECT d.id, ${result.startedAt}, ${result.statusCode}, ${result.durationMs},
         ${result.error ? result.error.slice(0, 1000) : null}, ${result.responseBody}, false FROM d),
     next AS (
       SELECT d.id, CASE WHEN d.status <> 'pending' THEN d.status
                         WHEN ${result.ok}::boolean THEN 'succeeded'
                         WHEN ${final}::boolean OR NOT d.is_active THEN 'failed'
                         ELSE 'pending' END AS status,
              now() + (${String(Math.round(delayMs))} || ' milliseconds')::interval AS retry_at
       FROM d),
     updated AS (
       UPDATE webhook_deliveries t
       SET status = next.status,
           ${sql.raw(this.queue.sql.releaseSets("CASE WHEN next.status = 'pending' THEN next.retry_at END"))},
           completed_at = CASE WHEN next.status = 'pending' THEN NULL ELSE now() END
       FROM next, d WHERE t.id = next.id AND d.status = 'pending')
     SELECT status FROM next`,
    );
    return row?.status ?? null;
  }

  /** Ends the pending deliveries of webhook `webhookId` `failed` (it was deactivated). */
  async endPendingOfWebhook(webhookId: string, tx?: Tx): Promise<void> {
    await this.endPendingWhere(sql`webhook_id = ${webhookId}`, tx);
  }

  /** Ends delivery `id` `failed` while it is pending (its webhook takes no more deliveries). */
  async endPending(id: string): Promise<void> {
    await this.endPendingWhere(sql`id = ${id}`);
  }

  private async endPendingWhere(where: Sql, tx?: Tx): Promise<void> {
    await execute(
      this.db,
      sql`UPDATE webhook_deliveries SET status = 'failed', ${this.released}, completed_at = now()
       WHERE ${where} AND status = 'pending'`,
      tx,
    );
  }

  // The outbox -----------------------------------------------------------------------------------

  /**
   * One pending delivery, due now, per active webhook of the account subscribed to the event's
   * topic (none twice for the same resource key). Answers the new deliveries' ids.
   */
  async recordEvent(e: EventDeliveries, tx?: Tx): Promise<string[]> {
    const q = this.queue.sql;
    const rows = await query<{ id: string }>(
      this.db,
      sql`WITH created AS (
         INSERT INTO webhook_deliveries (webhook_id, account_id, event, request_id, request_uid, resource_key, body, status,
                                         ${q.insertColumns})
         SELECT w.id, w.account_id, ${e.event}, NULL, ${e.resourceUid}, ${e.resourceKey}, ${e.body}, 'pending',
                ${q.dueValues(sql`now()`)}
         FROM webhooks w WHERE w.account_id = ${e.accountId} AND w.is_active AND ${e.topic} = ANY(w.events)
         ON CONFLICT (webhook_id, event, resource_key) WHERE resource_key IS NOT NULL DO NOTHING
         RETURNING id)
       SELECT id FROM created`,
      tx,
    );
    return rows.map((r) => r.id);
  }

  /**
   * One pending delivery of a request's event per active eligibility webhook of the account,
   * with its version's body; the resource key makes a repeat harmless. Answers the new ids.
   */
  async recordRequestEvent(e: RequestEventDeliveries, tx?: Tx): Promise<string[]> {
    const rows = await query<{ id: string }>(
      this.db,
      sql`INSERT INTO webhook_deliveries (webhook_id, account_id, event, request_id, request_uid, resource_key, body, status,
                                       ${this.queue.sql.insertColumns})
       SELECT w.id, w.account_id, ${e.event}, ${e.requestId}, ${e.requestUid}, ${e.resourceKey},
              CASE w.version WHEN 'v1' THEN ${e.bodies.v1} ELSE ${e.bodies.v2} END, 'pending',
              ${this.queue.sql.dueValues(sql`now()`)}
       FROM webhooks w WHERE w.account_id = ${e.accountId} AND w.is_active AND 'eligibility' = ANY(w.events)
       ON CONFLICT (webhook_id, event, resource_key) WHERE resource_key IS NOT NULL DO NOTHING
       RETURNING id`,
      tx,
    );
    return rows.map((r) => r.id);
  }

  /**
   * The deliveries' part of another module's finishing statement: a CTE named `deliveries` that
   * selects from the statement's CTE `request` (columns id, account_id, uid; a row per request
   * finished) one pending delivery per active webhook of the request's account subscribed to
   * eligibility, with the body of its version, stored leased to `leaseJob` (else due now); the
   * unique key makes a repeated call harmless. `summary`: an expression for the statement's last
   * SELECT (one row per `request` row) answering that request's deliveries as JSON (id,
   * webhook_id, url, secret_sealed, allow_nonstandard_port, version).
   */
  finishing(p: FinishingParams): FinishingSql {
    const cte = sql`deliveries AS (
         INSERT INTO webhook_deliveries (webhook_id, account_id, event, request_id, request_uid, body, status,
                                         ${this.queue.sql.insertColumns})
         SELECT w.id, w.account_id, ${p.event}, request.id, request.uid,
                CASE w.version WHEN 'v1' THEN ${p.bodies.v1} ELSE ${p.bodies.v2} END, 'pending',
                ${this.queue.sql.leasedValues({ job: sql`${p.leaseJob}::text`, leaseMs: sql`${p.leaseMs}`, owner: sql`${p.owner}` })}
         FROM request JOIN webhooks w ON w.account_id = request.account_id
         WHERE w.is_active AND 'eligibility' = ANY(w.events)
         ON CONFLICT (webhook_id, request_id, event) WHERE resource_key IS NULL DO NOTHING
         RETURNING id, webhook_id, request_id)`;
    const summary = sql`(SELECT COALESCE(json_agg(json_build_object('id', d.id, 'webhook_id', d.webhook_id,
           'url', w.url, 'secret_sealed', w.secret_sealed, 'allow_nonstandard_port', w.allow_nonstandard_port,
           'version', w.version)), '[]'::json)
         FROM deliveries d JOIN webhooks w ON w.id = d.webhook_id WHERE d.request_id = request.id)`;
    return { cte, summary };
  }

  // Retention (SECURITY.md, Retention: PHI_RETENTION_DAYS) -------------------------------------

  /** The deliveries of the purged requests `requestIds` carry their purged answer (`bodies`). */
  async purgeRequestBodies(requestIds: string[], bodies: string[], tx?: Tx): Promise<void> {
    await execute(
      this.db,
      sql`UPDATE webhook_deliveries d SET body = p.body
         FROM unnest(${requestIds}::bigint[], ${bodies}::text[]) AS p(id, body)
        WHERE d.request_id = p.id`,
      tx,
    );
  }

  /** The `verification_task.*` deliveries of the tasks `taskIds` carry no body (`{}`). */
  async emptyTaskBodies(taskIds: string[], tx?: Tx): Promise<void> {
    await execute(
      this.db,
      sql`UPDATE webhook_deliveries d SET body = '{}'
        WHERE d.request_uid = ANY(${taskIds}::text[]) AND d.event LIKE 'verification_task.%'`,
      tx,
    );
  }
}
