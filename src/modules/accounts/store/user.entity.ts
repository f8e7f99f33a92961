import type { UserRole } from '../domain/user-roles';
import { Column, Entity, Index } from 'typeorm';
import { AccountRecord, CreatedAtColumn, TimeColumn } from '@/platform/db/columns';

/** A person who signs in to the web application; belongs to one account. */
@Entity('users')
@Index('users_account_email_key', ['accountId', 'email'], { unique: true })
@Index('users_email_idx', ['email'])
export class User extends AccountRecord {
  /**
   * Stored lower-cased; one user per e-mail in an account, and one user signing in with it
   * across the service (`users_signing_in_email_key`, a partial unique index over the rows with
   * a password, in the migration): invitations to it may wait in other accounts.
   */
  @Column({ type: 'varchar', length: 254 })
  email: string;

  @Column({ type: 'varchar', length: 16 })
  role: UserRole;

  /** scrypt: `scrypt$N$r$p$salt$hash` (base64); null for an invitation not accepted yet. */
  @Column({ name: 'password_hash', type: 'text', nullable: true })
  passwordHash: string | null;

  @TimeColumn('password_changed_at', { nullable: true })
  passwordChangedAt: Date | null;

  /** A disabled user cannot sign in, and their sessions ended when they were disabled. */
  @TimeColumn('disabled_at', { nullable: true })
  disabledAt: Date | null;

  /** A session lives while it carries this number: raising it ends every session of the user. */
  @Column({ name: 'session_epoch', type: 'integer', default: 0 })
  sessionEpoch: number;

  /** TOTP secret sealed under APP_ENCRYPTION_KEY: set at enrolment, in use once enabled. */
  @Column({ name: 'totp_secret_sealed', type: 'text', nullable: true })
  totpSecretSealed: string | null;

  /** Two-factor sign-in is on since then (null: off, or enrolment not confirmed yet). */
  @TimeColumn('totp_enabled_at', { nullable: true })
  totpEnabledAt: Date | null;

  /** The last accepted TOTP time step: a code is accepted once (no replay). */
  @Column({ name: 'totp_last_step', type: 'integer', nullable: true })
  totpLastStep: number | null;

  @CreatedAtColumn()
  createdAt: Date;
}
