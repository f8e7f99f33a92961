import { Column, Entity } from 'typeorm';
import { UuidIdColumn, CreatedAtColumn, TimeColumn } from '@/platform/db/columns';

/** A two-factor recovery code of a user: only its keyed hash is stored; usable once. */
@Entity('user_recovery_codes')
export class RecoveryCode {
  @UuidIdColumn()
  id: string;

  @Column({ name: 'user_id', type: 'uuid' })
  userId: string;

  /** Hex HMAC-SHA256 of the normalised code under a key derived from APP_ENCRYPTION_KEY. */
  @Column({ name: 'code_hash', type: 'char', length: 64 })
  codeHash: string;

  @CreatedAtColumn()
  createdAt: Date;

  @TimeColumn('used_at', { nullable: true })
  usedAt: Date | null;
}
