import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** A person who signs in to the web application; belongs to one account. */
@Entity('users')
export class User {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ name: 'account_id', type: 'uuid' })
  accountId: string;

  /** Stored lower-cased; unique across the service. */
  @Column({ type: 'varchar', length: 254, unique: true })
  email: string;

  /** scrypt: `scrypt$N$r$p$salt$hash` (base64). */
  @Column({ name: 'password_hash', type: 'text' })
  passwordHash: string;

  /** TOTP secret sealed under APP_ENCRYPTION_KEY: set at enrolment, in use once enabled. */
  @Column({ name: 'totp_secret_sealed', type: 'text', nullable: true })
  totpSecretSealed: string | null;

  /** Two-factor sign-in is on since then (null: off, or enrolment not confirmed yet). */
  @Column({ name: 'totp_enabled_at', type: 'timestamptz', nullable: true })
  totpEnabledAt: Date | null;

  /** The last accepted TOTP time step: a code is accepted once (no replay). */
  @Column({ name: 'totp_last_step', type: 'integer', nullable: true })
  totpLastStep: number | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
