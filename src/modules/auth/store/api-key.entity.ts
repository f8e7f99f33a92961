import { Column, Entity, Index } from 'typeorm';
import { AccountRecord, CreatedAtColumn, TimeColumn } from '@/platform/db/columns';

/** An API key; the key itself is never stored, only its SHA-256. */
@Entity('api_keys')
@Index('api_keys_account_idx', ['accountId', 'createdAt'])
export class ApiKey extends AccountRecord {
  @Column({ type: 'varchar', length: 100 })
  name: string;

  /** First characters of the key, shown in lists so people can tell keys apart. */
  @Column({ type: 'varchar', length: 16 })
  prefix: string;

  /** SECURITY.md: what the key may do (scopes.ts), one per area, `write` including `read`. */
  @Column({ type: 'text', array: true })
  scopes: string[];

  @Column({ name: 'key_hash', type: 'char', length: 64, unique: true })
  keyHash: string;

  @CreatedAtColumn()
  createdAt: Date;

  @TimeColumn('last_used_at', { nullable: true })
  lastUsedAt: Date | null;

  @TimeColumn('revoked_at', { nullable: true })
  revokedAt: Date | null;
}
