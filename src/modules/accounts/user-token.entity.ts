import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

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

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt: Date;

  @Column({ name: 'used_at', type: 'timestamptz', nullable: true })
  usedAt: Date | null;
}
