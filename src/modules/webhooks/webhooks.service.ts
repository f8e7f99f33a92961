import { randomBytes, randomUUID } from 'node:crypto';
import { InjectQueue } from '@nestjs/bull';
import { Injectable, Logger } from '@nestjs/common';
import { OnEvent } from '@nestjs/event-emitter';
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
import type { Queue } from 'bull';
import { DataSource, Repository } from 'typeorm';
import { NotFoundError, ValidationFailed } from '@/common/errors';
import { decodeCursor, encodeCursor } from '@/common/keyset-cursor';
import { openSecret, sealSecret } from '@/common/secret-box';
import { InjectConfig } from '@/config/config.module';
import type { AppConfig } from '@/config/env';
import {
  ELIGIBILITY_FINISHED,
  ELIGIBILITY_FINISHED_COMMITTED,
  EligibilityFinishedCommittedEvent,
  EligibilityFinishedEvent,
} from '@/modules/eligibility/eligibility.events';
import { resolveTarget, TargetRefused } from './target-guard';
import {
  DeliveryStatus,
  Webhook,
  WebhookAttempt,
  WebhookDelivery,
  WebhookVersion,
} from './webhook.entity';
import { SendResult, sendDelivery } from './webhook-sender';
import { DELIVERY_JOB, DELIVERY_QUEUE, DeliveryJobData } from './webhooks.queue';

export const EVENT_ELIGIBILITY_FINISHED = 'eligibility.finished';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** How long a claimed attempt may take before the sweeper assumes its worker died. */
const LEASE_EXTRA_MS = 30_000;

export interface WebhookInput {
  url?: string;
  secret?: string | null;
  rotateSecret?: boolean;
  isActive?: boolean;
  description?: string | null;
  version?: WebhookVersion;
}

export interface DeliveryWithAttempts {
  delivery: WebhookDelivery;
  attempts: WebhookAttempt[];
}

@Injectable()
export class WebhooksService {
  private readonly logger = new Logger(WebhooksService.name);

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    @InjectRepository(Webhook) private readonly webhooks: Repository<Webhook>,
    @InjectRepository(WebhookDelivery) private readonly deliveries: Repository<WebhookDelivery>,
    @InjectRepository(WebhookAttempt) private readonly attempts: Repository<WebhookAttempt>,
    @InjectQueue(DELIVERY_QUEUE) private readonly queue: Queue<DeliveryJobData>,
    @InjectConfig() private readonly config: AppConfig,
  ) {}

  // Management ------------------------------------------------------------------------------

  /** Creates a webhook; `secret` in the answer is the only time it is shown. */
  async create(
    accountId: string,
    input: WebhookInput,
  ): Promise<{ webhook: Webhook; secret: string | null }> {
    await this.checkUrl(input.url!);
    const secret = input.rotateSecret ? generateSecret() : (input.secret ?? null);
    const webhook = this.webhooks.create({
      accountId,
      url: input.url!,
      isActive: input.isActive ?? true,
      description: input.description ?? '',
      version: input.version ?? 'v2',
      secretSealed: null,
    });
    webhook.id = randomUUID();
    webhook.secretSealed = secret ? this.seal(webhook.id, secret) : null;
    const saved = await this.webhooks.save(webhook);
    this.logger.log({ webhookId: saved.id, accountId }, 'webhook created');
    return { webhook: saved, secret };
  }

  list(accountId: string): Promise<Webhook[]> {
    return this.webhooks.find({ where: { accountId }, order: { createdAt: 'ASC', id: 'ASC' } });
  }

  async get(accountId: string, id: string): Promise<Webhook> {
    const webhook = UUID.test(id)
      ? await this.webhooks.findOne({ where: { id, accountId } })
      : null;
    if (!webhook) throw new NotFoundError(`Webhook ${id} not found.`);
    return webhook;
  }

  /** Partial update. `secret: null` removes the secret; `rotateSecret` generates a new one (returned once). */
  async update(
    accountId: string,
    id: string,
    input: WebhookInput,
  ): Promise<{ webhook: Webhook; secret: string | null }> {
    const webhook = await this.get(accountId, id);
    if (input.url !== undefined && input.url !== webhook.url) {
      await this.checkUrl(input.url);
      webhook.url = input.url;
    }
    if (input.isActive !== undefined) webhook.isActive = input.isActive;
    if (input.description !== undefined) webhook.description = input.description ?? '';
    if (input.version !== undefined) webhook.version = input.version;
    let shown: string | null = null;
    if (input.rotateSecret) {
      shown = generateSecret();
      webhook.secretSealed = this.seal(webhook.id, shown);
    } else if (input.secret !== undefined) {
      shown = input.secret;
      webhook.secretSealed = input.secret === null ? null : this.seal(webhook.id, input.secret);
    }
    const saved = await this.webhooks.save(webhook);
    this.logger.log({ webhookId: id, accountId }, 'webhook updated');
    return { webhook: saved, secret: shown };
  }

  async remove(accountId: string, id: string): Promise<void> {
    const webhook = await this.get(accountId, id);
    await this.webhooks.delete({ id: webhook.id, accountId });
    this.logger.log({ webhookId: id, accountId }, 'webhook deleted');
  }

  /** A webhook's deliveries, newest first, each with its attempts; keyset-paginated. */
  async listDeliveries(
    accountId: string,
    webhookId: string,
    limit = 50,
    cursor?: string,
  ): Promise<{ result: DeliveryWithAttempts[]; nextCursor: string | null }> {
    await this.get(accountId, webhookId);
    const qb = this.deliveries
      .createQueryBuilder('d')
      .where('d.webhook_id = :webhookId AND d.account_id = :accountId', { webhookId, accountId })
      .orderBy('d.created_at', 'DESC')
      .addOrderBy('d.id', 'DESC')
      .take(limit + 1);
    if (cursor) {
      const position = decodeCursor(cursor);
      qb.andWhere('(d.created_at, d.id) < (:createdAt, :id)', position);
    }
    const rows = await qb.getMany();
    const page = rows.slice(0, limit);
    const attempts = await this.attemptsOf(page.map((d) => d.id));
    const last = page[page.length - 1];
    return {
      result: page.map((delivery) => ({ delivery, attempts: attempts.get(delivery.id) ?? [] })),
      nextCursor:
        rows.length > limit && last
          ? encodeCursor({ createdAt: last.createdAt, id: last.id })
          : null,
    };
  }

  async getDelivery(
    accountId: string,
    webhookId: string,
    deliveryId: string,
  ): Promise<DeliveryWithAttempts> {
    const delivery =
      UUID.test(deliveryId) && UUID.test(webhookId)
        ? await this.deliveries.findOne({ where: { id: deliveryId, webhookId, accountId } })
        : null;
    if (!delivery) throw new NotFoundError(`Delivery ${deliveryId} not found.`);
    return { delivery, attempts: (await this.attemptsOf([delivery.id])).get(delivery.id) ?? [] };
  }

  /** One new attempt of the same delivery, made now; a success ends the delivery `succeeded`. */
  async redeliver(
    accountId: string,
    webhookId: string,
    deliveryId: string,
  ): Promise<DeliveryWithAttempts> {
    const webhook = await this.get(accountId, webhookId);
    const { delivery } = await this.getDelivery(accountId, webhookId, deliveryId);
    const result = await this.send(webhook, delivery);
    await this.db.transaction(async (em) => {
      await em.insert(WebhookAttempt, this.attemptRow(delivery.id, result, true));
      if (result.ok) {
        await em.update(
          WebhookDelivery,
          { id: delivery.id },
          { status: 'succeeded', completedAt: new Date(), nextAttemptAt: null },
        );
      }
    });
    this.logger.log(
      { deliveryId, webhookId, ok: result.ok, statusCode: result.statusCode },
      'manual redelivery',
    );
    return this.getDelivery(accountId, webhookId, deliveryId);
  }

  // Deliveries ------------------------------------------------------------------------------

  /**
   * In the transaction that finished the request: one pending delivery per active webhook,
   * carrying the body of the webhook's version. The unique key makes a repeated event harmless.
   */
  @OnEvent(ELIGIBILITY_FINISHED, { async: false, promisify: true, suppressErrors: false })
  async onEligibilityFinished(event: EligibilityFinishedEvent): Promise<void> {
    await event.manager.query(
      `INSERT INTO webhook_deliveries (webhook_id, account_id, event, request_id, request_uid, body, status, next_attempt_at)
       SELECT w.id, w.account_id, $3, $2, $4, CASE w.version WHEN 'v1' THEN $5 ELSE $6 END, 'pending', now()
       FROM webhooks w WHERE w.account_id = $1 AND w.is_active
       ON CONFLICT (webhook_id, request_id, event) DO NOTHING`,
      [
        event.accountId,
        event.requestId,
        EVENT_ELIGIBILITY_FINISHED,
        event.uid,
        event.bodyV1,
        event.bodyV2,
      ],
    );
  }

  /** After commit: queue the first attempt of each new delivery (the sweeper covers a crash here). */
  @OnEvent(ELIGIBILITY_FINISHED_COMMITTED, { async: true, promisify: true })
  async onEligibilityCommitted(event: EligibilityFinishedCommittedEvent): Promise<void> {
    const rows: { id: string }[] = await this.db.query(
      `SELECT id FROM webhook_deliveries WHERE request_id = $1 AND status = 'pending' AND attempt_count = 0`,
      [event.requestId],
    );
    for (const { id } of rows) await this.enqueue(id, 0, 'a1');
  }

  async enqueue(deliveryId: string, delayMs: number, tag: string): Promise<void> {
    try {
      await this.queue.add(
        DELIVERY_JOB,
        { deliveryId },
        {
          jobId: `delivery:${deliveryId}:${tag}`,
          delay: delayMs,
          attempts: 1,
          removeOnComplete: true,
          removeOnFail: 1000,
        },
      );
    } catch (e) {
      this.logger.warn(
        { deliveryId, err: (e as Error).message },
        'delivery job not enqueued; the sweeper will retry',
      );
    }
  }

  /**
   * One automatic attempt (queue worker). The claim sets a lease in next_attempt_at, so a duplicate
   * job skips a delivery that is in flight, and a worker that dies mid-attempt is noticed later.
   */
  async attempt(deliveryId: string): Promise<void> {
    const leaseMs = this.config.webhookTimeoutMs + LEASE_EXTRA_MS;
    const claimed: { attempt_count: number }[] = await this.db.query(
      `WITH claimed AS (
         UPDATE webhook_deliveries
         SET attempt_count = attempt_count + 1, next_attempt_at = now() + ($2 || ' milliseconds')::interval
         WHERE id = $1 AND status = 'pending' AND (next_attempt_at IS NULL OR next_attempt_at <= now() + interval '1 second')
         RETURNING attempt_count)
       SELECT attempt_count FROM claimed`,
      [deliveryId, String(leaseMs)],
    );
    if (claimed.length === 0) return;
    const attemptNo = claimed[0].attempt_count;
    const delivery = await this.deliveries.findOne({ where: { id: deliveryId } });
    const webhook = delivery
      ? await this.webhooks.findOne({ where: { id: delivery.webhookId } })
      : null;
    if (!delivery || !webhook) return; // deleted meanwhile (deliveries cascade)

    const result = await this.send(webhook, delivery);
    const schedule = this.config.webhookRetrySchedule;
    let status: DeliveryStatus = 'pending';
    let nextAttemptAt: Date | null = null;
    if (result.ok) status = 'succeeded';
    else if (attemptNo > schedule.length) status = 'failed';
    else nextAttemptAt = new Date(Date.now() + schedule[attemptNo - 1] * 1000);

    await this.db.transaction(async (em) => {
      await em.insert(WebhookAttempt, this.attemptRow(deliveryId, result, false));
      // A manual redelivery may have succeeded meanwhile: never move a finished delivery back.
      await em.query(
        `UPDATE webhook_deliveries SET status = $2::text, next_attempt_at = $3, completed_at = CASE WHEN $2::text = 'pending' THEN NULL ELSE now() END
         WHERE id = $1 AND status = 'pending'`,
        [deliveryId, status, nextAttemptAt],
      );
    });
    this.logger.log(
      {
        deliveryId,
        webhookId: webhook.id,
        attempt: attemptNo,
        statusCode: result.statusCode,
        outcome: status,
      },
      'webhook attempt',
    );
    if (status === 'pending')
      await this.enqueue(deliveryId, nextAttemptAt!.getTime() - Date.now(), `a${attemptNo + 1}`);
  }

  /** Re-enqueues pending deliveries whose attempt is overdue (lost job, dead worker). */
  async requeueOverdue(graceSeconds = 30, limit = 500): Promise<number> {
    const rows: { id: string }[] = await this.db.query(
      `WITH due AS (
         UPDATE webhook_deliveries SET next_attempt_at = now()
         WHERE id IN (
           SELECT id FROM webhook_deliveries
           WHERE status = 'pending' AND next_attempt_at < now() - ($1 || ' seconds')::interval
           ORDER BY next_attempt_at LIMIT $2 FOR UPDATE SKIP LOCKED)
         RETURNING id)
       SELECT id FROM due`,
      [String(graceSeconds), limit],
    );
    for (const { id } of rows) await this.enqueue(id, 0, `q${Date.now()}`);
    if (rows.length > 0)
      this.logger.warn({ count: rows.length }, 'overdue webhook deliveries re-enqueued');
    return rows.length;
  }

  // Internals -------------------------------------------------------------------------------

  private async send(webhook: Webhook, delivery: WebhookDelivery): Promise<SendResult> {
    return sendDelivery({
      url: webhook.url,
      body: delivery.body,
      deliveryId: delivery.id,
      secret: webhook.secretSealed
        ? openSecret(this.config.encryptionKey, webhook.secretSealed, aad(webhook.id))
        : null,
      timeoutMs: this.config.webhookTimeoutMs,
      allowPrivate: this.config.webhookAllowPrivate,
    });
  }

  private attemptRow(deliveryId: string, r: SendResult, manual: boolean): Partial<WebhookAttempt> {
    return {
      deliveryId,
      startedAt: r.startedAt,
      statusCode: r.statusCode,
      durationMs: r.durationMs,
      error: r.error ? r.error.slice(0, 1000) : null,
      responseBody: r.responseBody,
      manual,
    };
  }

  private async attemptsOf(deliveryIds: string[]): Promise<Map<string, WebhookAttempt[]>> {
    const map = new Map<string, WebhookAttempt[]>();
    if (deliveryIds.length === 0) return map;
    const rows = await this.attempts
      .createQueryBuilder('a')
      .where('a.delivery_id IN (:...ids)', { ids: deliveryIds })
      .orderBy('a.started_at', 'ASC')
      .addOrderBy('a.id', 'ASC')
      .getMany();
    for (const row of rows) map.set(row.deliveryId, [...(map.get(row.deliveryId) ?? []), row]);
    return map;
  }

  private async checkUrl(url: string): Promise<void> {
    try {
      await resolveTarget(url, this.config.webhookAllowPrivate);
    } catch (e) {
      if (e instanceof TargetRefused) throw ValidationFailed.field('url', e.message);
      throw e;
    }
  }

  private seal(webhookId: string, secret: string): string {
    return sealSecret(this.config.encryptionKey, secret, aad(webhookId));
  }
}

const aad = (webhookId: string) => `webhook-secret:${webhookId}`;

/** `whsec_` + 32 random bytes in base64: usable as-is with Standard Webhooks libraries. */
export function generateSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}
