import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/** An API key; the key itself is never stored, only its SHA-256. */
@Entity('api_keys')
@Index('api_keys_account_idx', ['accountId', 'createdAt'])
export class ApiKey {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ name: 'account_id', type: 'uuid' })
  accountId: string;

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

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @Column({ name: 'last_used_at', type: 'timestamptz', nullable: true })
  lastUsedAt: Date | null;

  @Column({ name: 'revoked_at', type: 'timestamptz', nullable: true })
  revokedAt: Date | null;
}
