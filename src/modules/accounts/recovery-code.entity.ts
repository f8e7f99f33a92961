import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** A two-factor recovery code of a user: only its keyed hash is stored; usable once. */
@Entity('user_recovery_codes')
export class RecoveryCode {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ name: 'user_id', type: 'uuid' })
  userId: string;

  /** Hex HMAC-SHA256 of the normalised code under a key derived from APP_ENCRYPTION_KEY. */
  @Column({ name: 'code_hash', type: 'char', length: 64 })
  codeHash: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @Column({ name: 'used_at', type: 'timestamptz', nullable: true })
  usedAt: Date | null;
}
