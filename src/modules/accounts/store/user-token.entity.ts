import { Column, Entity, PrimaryColumn } from 'typeorm';
import { CreatedAtColumn, TimeColumn } from '@/platform/db/columns';

export type UserTokenPurpose = 'invitation' | 'password_reset';

/** A single-use invitation or password-reset link: only the SHA-256 of its token is stored. */
@Entity('user_tokens')
export class UserToken {
  @PrimaryColumn({ name: 'token_hash', type: 'char', length: 64 })
  tokenHash: string;

  @Column({ name: 'user_id', type: 'uuid' })
  userId: string;

  @Column({ type: 'varchar', length: 16 })
  purpose: UserTokenPurpose;

  @CreatedAtColumn()
  createdAt: Date;

  @TimeColumn('expires_at')
  expiresAt: Date;

  @TimeColumn('used_at', { nullable: true })
  usedAt: Date | null;
}
