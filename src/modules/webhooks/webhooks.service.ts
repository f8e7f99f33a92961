import { randomBytes, randomUUID } from 'node:crypto';
import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
import { DataSource, EntityManager, Repository } from 'typeorm';
import { NotFoundError, ValidationFailed } from '@/common/errors';
import { decodeCursor, encodeCursor } from '@/common/keyset-cursor';
import { InjectConfig } from '@/config/config.module';
import type { AppConfig } from '@/config/env';
import { AuditService } from '@/modules/audit/audit.service';
import { type AuditContext, securityEvent } from '@/modules/audit/security-events';
import { resolveTarget, TargetRefused } from './target-guard';
import { type HeldScopes, requireTopicScopes, topicOfEvent } from './webhook-scopes';
import {
  Webhook,
  WebhookAttempt,
  WebhookDelivery,
  WebhookTopic,
  WebhookVersion,
} from './webhook.entity';
import { DeliverySender } from './delivery-sender';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface WebhookInput {
  url?: string;
  secret?: string | null;
  rotateSecret?: boolean;
  isActive?: boolean;
  description?: string | null;
  version?: WebhookVersion;
  events?: WebhookTopic[];
}

/** Who manages a webhook: recorded in the audit trail; an API key's scopes are checked. */
export interface WebhookActor {
  ctx: AuditContext;
  scopes: HeldScopes;
}

export interface DeliveryWithAttempts {
  delivery: WebhookDelivery;
  attempts: WebhookAttempt[];
}

/**
 * Webhooks as an account manages them (API and web application): the webhooks themselves, their
 * delivery log and manual redelivery. Deliveries are recorded by WebhookOutbox and attempted by
 * WebhooksProcessor (DeliveryQueue); DeliverySender makes the POST for both.
 */
@Injectable()
export class WebhooksService {
  private readonly logger = new Logger(WebhooksService.name);

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    @InjectRepository(Webhook) private readonly webhooks: Repository<Webhook>,
    @InjectRepository(WebhookDelivery) private readonly deliveries: Repository<WebhookDelivery>,
    @InjectRepository(WebhookAttempt) private readonly attempts: Repository<WebhookAttempt>,
    private readonly sender: DeliverySender,
    @InjectConfig() private readonly config: AppConfig,
    private readonly audit: AuditService,
  ) {}

  // Management ------------------------------------------------------------------------------

  /** Creates a webhook; `secret` in the answer is the only time it is shown. */
  async create(
    by: WebhookActor,
    input: WebhookInput,
  ): Promise<{ webhook: Webhook; secret: string | null }> {
    const accountId = by.ctx.actor.accountId;
    requireTopicScopes(by.scopes, input.events ?? ['eligibility']);
    await this.checkUrl(input.url!);
    // Production: every webhook is signed (CONTRACT §20); without a secret of its own it gets one.
    const generate = input.rotateSecret || (this.config.isProduction && !input.secret);
    const secret = generate ? generateSecret() : (input.secret ?? null);
    const webhook = this.webhooks.create({
      accountId,
      url: input.url!,
      isActive: input.isActive ?? true,
      description: input.description ?? '',
      version: input.version ?? 'v2',
      events: input.events ?? ['eligibility'],
      secretSealed: null,
    });
    webhook.id = randomUUID();
    webhook.secretSealed = secret ? this.sender.seal(webhook.id, secret) : null;
    const saved = await this.webhooks.save(webhook);
    await this.audit.record(securityEvent(by.ctx, 'webhook', 'create', saved.id));
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
    by: WebhookActor,
    id: string,
    input: WebhookInput,
  ): Promise<{ webhook: Webhook; secret: string | null }> {
    const accountId = by.ctx.actor.accountId;
    const webhook = await this.get(accountId, id);
    const retargeted =
      (input.url !== undefined && input.url !== webhook.url) ||
      (input.events !== undefined && !sameTopics(input.events, webhook.events));
    if (retargeted) requireTopicScopes(by.scopes, input.events ?? webhook.events);
    if (input.secret === null && this.config.isProduction) {
      throw ValidationFailed.field(
        'secret',
        'Webhooks are signed in production: rotate the secret instead.',
      );
    }
    if (input.url !== undefined && input.url !== webhook.url) {
      await this.checkUrl(input.url);
      webhook.url = input.url;
    }
    if (input.isActive !== undefined) webhook.isActive = input.isActive;
    if (input.description !== undefined) webhook.description = input.description ?? '';
    if (input.version !== undefined) webhook.version = input.version;
    if (input.events !== undefined) webhook.events = input.events;
    let shown: string | null = null;
    if (input.rotateSecret) {
      shown = generateSecret();
      webhook.secretSealed = this.sender.seal(webhook.id, shown);
    } else if (input.secret !== undefined) {
      shown = input.secret;
      webhook.secretSealed =
        input.secret === null ? null : this.sender.seal(webhook.id, input.secret);
    }
    const saved = await this.db.transaction(async (em) => {
      const row = await em.save(webhook);
      // A deactivated webhook takes no more deliveries: its pending ones end now (redeliver stays).
      if (!row.isActive) await endPending(em, row.id);
      return row;
    });
    await this.audit.record(securityEvent(by.ctx, 'webhook', 'update', id));
    this.logger.log({ webhookId: id, accountId }, 'webhook updated');
    return { webhook: saved, secret: shown };
  }

  async remove(by: WebhookActor, id: string): Promise<void> {
    const accountId = by.ctx.actor.accountId;
    const webhook = await this.get(accountId, id);
    await this.webhooks.delete({ id: webhook.id, accountId });
    await this.audit.record(securityEvent(by.ctx, 'webhook', 'delete', id));
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
    by: WebhookActor,
    webhookId: string,
    deliveryId: string,
  ): Promise<DeliveryWithAttempts> {
    const accountId = by.ctx.actor.accountId;
    const webhook = await this.get(accountId, webhookId);
    const { delivery } = await this.getDelivery(accountId, webhookId, deliveryId);
    // The body goes out again to the webhook's URL as it is now: the caller must be allowed to read it.
    requireTopicScopes(by.scopes, [topicOfEvent(delivery.event)]);
    await this.audit.record(securityEvent(by.ctx, 'webhook', 'redeliver', webhookId));
    const result = await this.sender.send(webhook, delivery);
    await this.db.transaction(async (em) => {
      await em.insert(WebhookAttempt, this.sender.attemptRow(delivery.id, result, true));
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

  // Internals -------------------------------------------------------------------------------

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
    // Production: PHI travels to receivers only over TLS (CONTRACT §20), unless the operator
    // said the deployment runs without TLS (ALLOW_INSECURE_HTTP=true: a loopback trial, the bench).
    if (this.config.isProduction && !this.config.allowInsecureHttp && !/^https:\/\//i.test(url)) {
      throw ValidationFailed.field('url', 'Use an https URL: webhooks are sent over TLS only.');
    }
    try {
      await resolveTarget(url, this.config.webhookAllowPrivate);
    } catch (e) {
      if (e instanceof TargetRefused) throw ValidationFailed.field('url', e.message);
      throw e;
    }
  }
}

function sameTopics(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((t) => b.includes(t));
}

/** `whsec_` + 32 random bytes in base64: usable as-is with Standard Webhooks libraries. */
export function generateSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

/** Ends a webhook's pending deliveries as `failed`; their jobs then find nothing to do. */
async function endPending(em: EntityManager, webhookId: string): Promise<void> {
  await em.query(
    `UPDATE webhook_deliveries SET status = 'failed', next_attempt_at = NULL, lease_job = NULL, completed_at = now()
     WHERE webhook_id = $1 AND status = 'pending'`,
    [webhookId],
  );
}
