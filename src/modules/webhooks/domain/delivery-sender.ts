import { Injectable } from '@nestjs/common';
import { openSecret, sealSecret } from '@/platform/kernel/secret-box';
import { InjectConfig } from '@/platform/config/config.module';
import type { AppConfig } from '@/platform/config/env';
import { inSpan } from '@/platform/tracing/tracing';
import type { Webhook, WebhookAttempt, WebhookDelivery } from '../store/webhook.entity';
import { SendResult, sendDelivery } from './webhook-sender';

/** Where a delivery goes: its webhook's URL, sealed secret and port setting (docs/api.md, Webhooks). */
export interface DeliveryTarget {
  webhookId: string;
  url: string;
  secretSealed: string | null;
  allowNonstandardPort: boolean;
}

/** One POST of a delivery to its webhook (automatic or manual), and the attempt row it leaves. */
@Injectable()
export class DeliverySender {
  constructor(@InjectConfig() private readonly config: AppConfig) {}

  send(webhook: Webhook, delivery: WebhookDelivery): Promise<SendResult> {
    return this.sendTo(
      {
        webhookId: webhook.id,
        url: webhook.url,
        secretSealed: webhook.secretSealed,
        allowNonstandardPort: webhook.allowNonstandardPort,
      },
      delivery,
    );
  }

  /**
   * docs/architecture.md, Tracing: one span per POST, with the event type and the outcome
   * (`delivered`, `http_error` with the status, or `failed`: refused or no answer); never the
   * webhook's URL (its path may hold the receiver's secret) nor the body.
   */
  sendTo(
    target: DeliveryTarget,
    delivery: Pick<WebhookDelivery, 'id' | 'body' | 'event'>,
  ): Promise<SendResult> {
    return inSpan('webhook deliver', { 'webhook.event': delivery.event }, async (span) => {
      const result = await this.post(target, delivery);
      span.set({
        'webhook.outcome': result.ok ? 'delivered' : result.statusCode ? 'http_error' : 'failed',
        ...(result.statusCode ? { 'http.response.status_code': result.statusCode } : {}),
      });
      return result;
    });
  }

  private post(
    target: DeliveryTarget,
    delivery: Pick<WebhookDelivery, 'id' | 'body' | 'event'>,
  ): Promise<SendResult> {
    return sendDelivery({
      url: target.url,
      body: delivery.body,
      deliveryId: delivery.id,
      event: delivery.event,
      secret: target.secretSealed
        ? openSecret(this.config, target.secretSealed, aad(target.webhookId))
        : null,
      timeoutMs: this.config.webhookTimeoutMs,
      allowPrivate: this.config.webhookAllowPrivate,
      allowNonstandardPort: target.allowNonstandardPort,
    });
  }

  attemptRow(deliveryId: string, r: SendResult, manual: boolean): Partial<WebhookAttempt> {
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

  /** The secret sealed for storage, bound to its webhook. */
  seal(webhookId: string, secret: string): string {
    return sealSecret(this.config.encryptionKey, secret, aad(webhookId));
  }
}

const aad = (webhookId: string) => `webhook-secret:${webhookId}`;
