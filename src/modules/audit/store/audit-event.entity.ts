import { Column, Entity } from 'typeorm';
import { AccountRecord, CreatedAtColumn } from '@/platform/db/columns';

export type AuditActorType = 'api_key' | 'user' | 'embedded' | 'operator' | 'system';

/** One read or change of patient data (SECURITY.md). The table refuses UPDATE and DELETE. */
@Entity('audit_events')
export class AuditEvent extends AccountRecord {
  @CreatedAtColumn()
  createdAt: Date;

  @Column({ name: 'actor_type', type: 'varchar', length: 16 })
  actorType: AuditActorType;

  /** The API key's display prefix, or the web user's e-mail. */
  @Column({ type: 'varchar', length: 320 })
  actor: string;

  @Column({ name: 'api_key_id', type: 'uuid', nullable: true })
  apiKeyId: string | null;

  @Column({ name: 'user_id', type: 'uuid', nullable: true })
  userId: string | null;

  @Column({ type: 'varchar', length: 32 })
  action: string;

  @Column({ name: 'resource_type', type: 'varchar', length: 32 })
  resourceType: string;

  @Column({ name: 'resource_id', type: 'varchar', length: 256, nullable: true })
  resourceId: string | null;

  @Column({ name: 'request_id', type: 'varchar', length: 128, nullable: true })
  requestId: string | null;

  @Column({ type: 'varchar', length: 64, nullable: true })
  ip: string | null;
}
