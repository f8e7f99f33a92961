import { Column, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import {
  AccountRecord,
  CreatedAtColumn,
  TimeColumn,
  UuidIdColumn,
  OwnerIdColumn,
} from '@/platform/db/columns';
import type { WebhookTopic } from '../domain/webhook-topics';

export { WEBHOOK_TOPICS, type WebhookTopic } from '../domain/webhook-topics';

export type WebhookVersion = 'v1' | 'v2';
export type DeliveryStatus = 'pending' | 'succeeded' | 'failed';

/** An account's endpoint that receives eligibility results. */
@Entity('webhooks')
export class Webhook extends AccountRecord {
  @Column({ type: 'text' })
  url: string;

  /** AES-256-GCM (secret-box) of the signing secret; null when the webhook has none. */
  @Column({ name: 'secret_sealed', type: 'text', nullable: true })
  secretSealed: string | null;

  @Column({ name: 'is_active', type: 'boolean', default: true })
  isActive: boolean;

  @Column({ type: 'varchar', length: 500, default: '' })
  description: string;

  @Column({ type: 'varchar', length: 2, default: 'v2' })
  version: WebhookVersion;

  @Column({ type: 'text', array: true, default: () => "'{eligibility}'" })
  events: WebhookTopic[];

  /** docs/api.md, Webhooks: the URL may name a port other than 443 and 80 of a public address. */
  @Column({ name: 'allow_nonstandard_port', type: 'boolean', default: false })
  allowNonstandardPort: boolean;

  @CreatedAtColumn()
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}

/** One result sent to one webhook: the body is fixed at creation, so every attempt sends the same bytes. */
@Entity('webhook_deliveries')
export class WebhookDelivery {
  @UuidIdColumn()
  id: string;

  @Column({ name: 'webhook_id', type: 'uuid' })
  webhookId: string;

  @OwnerIdColumn('account')
  accountId: string;

  @Column({ type: 'varchar', length: 64 })
  event: string;

  /** The eligibility request delivered; null for a claim or batch delivery (see resourceKey). */
  @Column({ name: 'request_id', type: 'bigint', nullable: true })
  requestId: string | null;

  /** What the delivery is about, as its client knows it: request uid, claim code or batch uid. */
  @Column({ name: 'request_uid', type: 'varchar', length: 256 })
  requestUid: string;

  /** De-duplication key of a claim or batch delivery (one per webhook, event and key). */
  @Column({ name: 'resource_key', type: 'varchar', length: 200, nullable: true })
  resourceKey: string | null;

  @Column({ type: 'text' })
  body: string;

  @Column({ type: 'varchar', length: 16 })
  status: DeliveryStatus;

  /** Automatic attempts made so far (manual redeliveries are not counted). */
  @Column({ name: 'attempt_count', type: 'integer', default: 0 })
  attemptCount: number;

  @TimeColumn('next_attempt_at', { nullable: true })
  nextAttemptAt: Date | null;

  /** Millisecond precision (the column's type); the keyset paginator's cursor is exact at any. */
  @CreatedAtColumn({ ms: true })
  createdAt: Date;

  @TimeColumn('completed_at', { nullable: true })
  completedAt: Date | null;
}

@Entity('webhook_attempts')
export class WebhookAttempt {
  @PrimaryGeneratedColumn({ type: 'bigint' })
  id: string;

  @Column({ name: 'delivery_id', type: 'uuid' })
  deliveryId: string;

  @TimeColumn('started_at')
  startedAt: Date;

  @Column({ name: 'status_code', type: 'integer', nullable: true })
  statusCode: number | null;

  @Column({ name: 'duration_ms', type: 'integer' })
  durationMs: number;

  @Column({ type: 'text', nullable: true })
  error: string | null;

  /** The first 1 KiB of the receiver's answer. */
  @Column({ name: 'response_body', type: 'text', nullable: true })
  responseBody: string | null;

  @Column({ type: 'boolean', default: false })
  manual: boolean;
}
