import { randomBytes, randomUUID } from 'node:crypto';
import { Injectable, Logger } from '@nestjs/common';
import { NotFoundError, ValidationFailed } from '@/platform/kernel/errors';
import type { KeysetPage } from '@/platform/http/pagination/keyset-paginator';
import { InjectConfig } from '@/platform/config/config.module';
import type { AppConfig } from '@/platform/config/env';
import { Database } from '@/platform/db/database';
import { type AuditContext, AuditService, securityEvent } from '@/modules/audit';
import { resolveTarget, TargetRefused } from './target-guard';
import { type HeldScopes, requireTopicScopes, topicOfEvent } from './webhook-scopes';
import type {
  Webhook,
  WebhookAttempt,
  WebhookDelivery,
  WebhookTopic,
  WebhookVersion,
} from '../store/webhook.entity';
import { DeliverySender } from './delivery-sender';
import { WebhookDeliveriesRepository } from '../store/webhook-deliveries.repository';
import { WebhooksRepository } from '../store/webhooks.repository';
import { isUuid } from '@/platform/kernel/codes';

export interface WebhookInput {
  url?: string;
  secret?: string | null;
  rotateSecret?: boolean;
  isActive?: boolean;
  description?: string | null;
  version?: WebhookVersion;
  events?: WebhookTopic[];
  allowNonstandardPort?: boolean;
}

/** Who manages a webhook: recorded in the audit trail; an API key's scopes are checked. */
export interface WebhookActor {
  ctx: AuditContext;
  scopes: HeldScopes;
}

interface DeliveryWithAttempts {
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
    private readonly database: Database,
    private readonly webhooks: WebhooksRepository,
    private readonly deliveries: WebhookDeliveriesRepository,
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
    this.checkSecret(input.secret);
    await this.checkUrl(input.url!, input.allowNonstandardPort ?? false);
    // Production: every webhook is signed (SECURITY.md); without a secret of its own it gets one.
    const generate = input.rotateSecret || (this.config.isProduction && !input.secret);
    const secret = generate ? generateSecret() : (input.secret ?? null);
    const id = randomUUID();
    const saved = await this.webhooks.create({
      id,
      accountId,
      url: input.url!,
      isActive: input.isActive ?? true,
      description: input.description ?? '',
      version: input.version ?? 'v2',
      events: input.events ?? ['eligibility'],
      secretSealed: secret ? this.sender.seal(id, secret) : null,
      allowNonstandardPort: input.allowNonstandardPort ?? false,
    });
    await this.audit.record(securityEvent(by.ctx, 'webhook', 'create', saved.id));
    this.logger.log({ webhookId: saved.id, accountId }, 'webhook created');
    return { webhook: saved, secret };
  }

  list(accountId: string): Promise<Webhook[]> {
    return this.webhooks.listOfAccount(accountId);
  }

  async get(accountId: string, id: string): Promise<Webhook> {
    const webhook = isUuid(id) ? await this.webhooks.findOfAccount(accountId, id) : null;
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
    // Setting, rotating or removing the secret decides which deliveries the receiver trusts (and
    // a rotation shows the new secret): who can sign for the webhook's data needs its read scopes
    // too, as for pointing it somewhere.
    const retargeted =
      (input.url !== undefined && input.url !== webhook.url) ||
      (input.events !== undefined && !sameTopics(input.events, webhook.events)) ||
      input.secret !== undefined ||
      input.rotateSecret === true;
    if (retargeted) requireTopicScopes(by.scopes, input.events ?? webhook.events);
    this.checkSecret(input.secret);
    if (input.secret === null && this.config.isProduction) {
      throw ValidationFailed.field(
        'secret',
        'Webhooks are signed in production: rotate the secret instead.',
      );
    }
    const allowPort = input.allowNonstandardPort ?? webhook.allowNonstandardPort;
    if (input.url !== undefined && input.url !== webhook.url) {
      await this.checkUrl(input.url, allowPort);
      webhook.url = input.url;
    } else if (allowPort !== webhook.allowNonstandardPort) {
      // Turning the setting off must not leave a webhook its URL no longer allows.
      await this.checkUrl(webhook.url, allowPort);
    }
    webhook.allowNonstandardPort = allowPort;
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
    const saved = await this.database.transaction(async (tx) => {
      const row = await this.webhooks.save(webhook, tx);
      // A deactivated webhook takes no more deliveries: its pending ones end now (redeliver stays).
      if (!row.isActive) await this.deliveries.endPendingOfWebhook(row.id, tx);
      return row;
    });
    await this.audit.record(securityEvent(by.ctx, 'webhook', 'update', id));
    this.logger.log({ webhookId: id, accountId }, 'webhook updated');
    return { webhook: saved, secret: shown };
  }

  async remove(by: WebhookActor, id: string): Promise<void> {
    const accountId = by.ctx.actor.accountId;
    const webhook = await this.get(accountId, id);
    await this.webhooks.delete(accountId, webhook.id);
    await this.audit.record(securityEvent(by.ctx, 'webhook', 'delete', id));
    this.logger.log({ webhookId: id, accountId }, 'webhook deleted');
  }

  /**
   * A webhook's deliveries, newest first, each with its attempts; keyset-paginated (`cursor`:
   * the previous page's `next_cursor`; a malformed one is a 400 on `cursor`).
   */
  async listDeliveries(
    accountId: string,
    webhookId: string,
    limit = 50,
    cursor?: string,
  ): Promise<KeysetPage<DeliveryWithAttempts>> {
    await this.get(accountId, webhookId);
    const page = await this.deliveries.pageOfWebhook(accountId, webhookId, { limit, cursor });
    const attempts = await this.deliveries.attemptsOf(page.result.map((d) => d.id));
    return {
      result: page.result.map((delivery) => ({
        delivery,
        attempts: attempts.get(delivery.id) ?? [],
      })),
      next_cursor: page.next_cursor,
    };
  }

  async getDelivery(
    accountId: string,
    webhookId: string,
    deliveryId: string,
  ): Promise<DeliveryWithAttempts> {
    const delivery =
      isUuid(deliveryId) && isUuid(webhookId)
        ? await this.deliveries.findOfWebhook(accountId, webhookId, deliveryId)
        : null;
    if (!delivery) throw new NotFoundError(`Delivery ${deliveryId} not found.`);
    const attempts = await this.deliveries.attemptsOf([delivery.id]);
    return { delivery, attempts: attempts.get(delivery.id) ?? [] };
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
    await this.database.transaction(async (tx) => {
      await this.deliveries.insertAttempt(this.sender.attemptRow(delivery.id, result, true), tx);
      if (result.ok) await this.deliveries.succeed(delivery.id, new Date(), tx);
    });
    this.logger.log(
      { deliveryId, webhookId, ok: result.ok, statusCode: result.statusCode },
      'manual redelivery',
    );
    return this.getDelivery(accountId, webhookId, deliveryId);
  }

  // Internals -------------------------------------------------------------------------------

  private checkSecret(secret: string | null | undefined): void {
    if (this.config.isProduction && secret && secret.length < MIN_PRODUCTION_SECRET)
      throw ValidationFailed.field(
        'secret',
        `Use at least ${MIN_PRODUCTION_SECRET} characters in production, or let the service generate one.`,
      );
  }

  private async checkUrl(url: string, allowNonstandardPort: boolean): Promise<void> {
    // Production: PHI travels to receivers only over TLS (SECURITY.md), unless the operator
    // said the deployment runs without TLS (ALLOW_INSECURE_HTTP=true: a loopback trial, the bench).
    if (this.config.isProduction && !this.config.allowInsecureHttp && !/^https:\/\//i.test(url)) {
      throw ValidationFailed.field('url', 'Use an https URL: webhooks are sent over TLS only.');
    }
    try {
      await resolveTarget(url, this.config.webhookAllowPrivate, allowNonstandardPort);
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
/**
 * In production a secret of its own is at least as long as a generated one's key (32 bytes):
 * an HMAC-SHA256 key shorter than the hash's output gives forgers less to guess.
 */
const MIN_PRODUCTION_SECRET = 32;

function generateSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}
