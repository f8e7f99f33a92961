import { isUniqueViolation } from '@/platform/kernel/codes';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { Tx } from '@/platform/db/database';
import { entityColumns } from '@/platform/db/entity-columns';
import { execute, query, queryOne, sql, type Sql } from '@/platform/db/sql';
import { User } from './user.entity';

export type NewUser = Pick<
  User,
  'accountId' | 'email' | 'role' | 'passwordHash' | 'passwordChangedAt'
>;

/**
 * The e-mail is taken: by a user of the same account, or by a user who signs in with it
 * (constraints of InvitationsAcrossAccounts1795567400000).
 */
export function isEmailTaken(e: unknown): boolean {
  return (
    isUniqueViolation(e, 'users_account_email_key') ||
    isUniqueViolation(e, 'users_signing_in_email_key')
  );
}

/** Someone else signs in with this e-mail already: an invitation to it cannot be accepted. */
export function isEmailSigningInElsewhere(e: unknown): boolean {
  return isUniqueViolation(e, 'users_signing_in_email_key');
}

/**
 * The `users` table: the people who sign in, their passwords, session epochs and TOTP state.
 * `twoFactorState` joins the user's row of `accounts` (same module).
 */
@Injectable()
export class UsersRepository {
  private readonly columns: Sql;

  constructor(@InjectDataSource() private readonly db: DataSource) {
    this.columns = entityColumns(db, User, 'u');
  }

  async insert(f: NewUser, tx?: Tx): Promise<User> {
    const user = await queryOne<User>(
      this.db,
      sql`INSERT INTO users AS u (account_id, email, role, password_hash, password_changed_at)
       VALUES (${f.accountId}, ${f.email}, ${f.role}, ${f.passwordHash}, ${f.passwordChangedAt})
       RETURNING ${this.columns}`,
      tx,
    );
    return user!;
  }

  /** The users matching `where`; `tail` follows it (the order, a limit, a lock). */
  private select(where: Sql, tail: Sql, tx?: Tx): Promise<User[]> {
    return query(this.db, sql`SELECT ${this.columns} FROM users u WHERE ${where} ${tail}`, tx);
  }

  async findById(id: string, tx?: Tx): Promise<User | null> {
    return (await this.select(sql`u.id = ${id}`, sql.empty, tx))[0] ?? null;
  }

  async findInAccount(accountId: string, id: string, tx?: Tx): Promise<User | null> {
    const where = sql`u.id = ${id} AND u.account_id = ${accountId}`;
    return (await this.select(where, sql.empty, tx))[0] ?? null;
  }

  /**
   * The user who signs in with the e-mail (`email` as stored: trimmed and lower-cased by the
   * caller), or else its oldest invitation (an e-mail may be invited in several accounts; one
   * user signs in with it).
   */
  async findByEmail(email: string, tx?: Tx): Promise<User | null> {
    const order = sql`ORDER BY u.password_hash IS NULL ASC, u.created_at ASC LIMIT 1`;
    return (await this.select(sql`u.email = ${email}`, order, tx))[0] ?? null;
  }

  /** The account's first user (the one created with it). */
  async firstOfAccount(accountId: string, tx?: Tx): Promise<User | null> {
    const order = sql`ORDER BY u.created_at ASC LIMIT 1`;
    return (await this.select(sql`u.account_id = ${accountId}`, order, tx))[0] ?? null;
  }

  listByAccount(accountId: string, tx?: Tx): Promise<User[]> {
    const order = sql`ORDER BY u.created_at ASC, u.email ASC`;
    return this.select(sql`u.account_id = ${accountId}`, order, tx);
  }

  /** The user's row, locked FOR UPDATE until `tx` ends. */
  async lockById(id: string, tx: Tx): Promise<User | null> {
    return (await this.select(sql`u.id = ${id}`, sql`FOR UPDATE`, tx))[0] ?? null;
  }

  /** Every user of the account, locked FOR UPDATE (in id order) until `tx` ends. */
  lockAllOfAccount(accountId: string, tx: Tx): Promise<User[]> {
    return this.select(sql`u.account_id = ${accountId}`, sql`ORDER BY u.id ASC FOR UPDATE`, tx);
  }

  async updateAccess(
    user: Pick<User, 'id' | 'accountId' | 'role' | 'disabledAt' | 'sessionEpoch'>,
    tx?: Tx,
  ): Promise<void> {
    await execute(
      this.db,
      sql`UPDATE users SET role = ${user.role}, disabled_at = ${user.disabledAt},
         session_epoch = ${user.sessionEpoch}
       WHERE id = ${user.id} AND account_id = ${user.accountId}`,
      tx,
    );
  }

  /** The hash alone (a rehash at today's cost): sessions go on. */
  async updatePasswordHash(id: string, passwordHash: string, tx?: Tx): Promise<void> {
    await execute(
      this.db,
      sql`UPDATE users SET password_hash = ${passwordHash} WHERE id = ${id}`,
      tx,
    );
  }

  /** A new password and a new epoch (the user's sessions end): what the row now holds. */
  async storePassword(
    id: string,
    passwordHash: string,
    tx?: Tx,
  ): Promise<{ session_epoch: number; password_changed_at: Date }> {
    const row = await queryOne<{ session_epoch: number; password_changed_at: Date }>(
      this.db,
      sql`UPDATE users SET password_hash = ${passwordHash}, password_changed_at = now(),
         session_epoch = session_epoch + 1
       WHERE id = ${id} RETURNING session_epoch, password_changed_at`,
      tx,
    );
    return row!;
  }

  /** Raises the epoch (every session of the user ends): the new one, null for no such user. */
  async raiseSessionEpoch(id: string, tx?: Tx): Promise<number | null> {
    const row = await queryOne<{ session_epoch: number }>(
      this.db,
      sql`UPDATE users SET session_epoch = session_epoch + 1 WHERE id = ${id} RETURNING session_epoch`,
      tx,
    );
    return row?.session_epoch ?? null;
  }

  // Two-factor ----------------------------------------------------------------------------

  /** Whether the user has two-factor on, and whether their account requires it; in one query. */
  async twoFactorState(
    userId: string,
    tx?: Tx,
  ): Promise<{ enabled: boolean; required: boolean } | undefined> {
    const row = await queryOne<{ enabled: boolean; required: boolean }>(
      this.db,
      sql`SELECT u.totp_enabled_at IS NOT NULL AS enabled, a.require_two_factor AS required
       FROM users u INNER JOIN accounts a ON a.id = u.account_id WHERE u.id = ${userId}`,
      tx,
    );
    return row ?? undefined;
  }

  /** Keeps the sealed enrolment secret of a user who has not turned two-factor on. */
  async setTotpSecret(userId: string, sealed: string, tx?: Tx): Promise<void> {
    await execute(
      this.db,
      sql`UPDATE users SET totp_secret_sealed = ${sealed}, totp_last_step = NULL
       WHERE id = ${userId} AND totp_enabled_at IS NULL`,
      tx,
    );
  }

  /** Turns two-factor on if the enrolment secret is still `sealed`; whether it did. */
  async enableTotp(userId: string, sealed: string, step: number, tx?: Tx): Promise<boolean> {
    const changed = await execute(
      this.db,
      sql`UPDATE users SET totp_enabled_at = now(), totp_last_step = ${step}
       WHERE id = ${userId} AND totp_enabled_at IS NULL AND totp_secret_sealed = ${sealed}`,
      tx,
    );
    return changed > 0;
  }

  /** Records the accepted time step if newer than the stored one: whether it was. */
  async advanceTotpStep(userId: string, step: number, tx?: Tx): Promise<boolean> {
    const changed = await execute(
      this.db,
      sql`UPDATE users SET totp_last_step = ${step}
       WHERE id = ${userId} AND (totp_last_step IS NULL OR totp_last_step < ${step})`,
      tx,
    );
    return changed > 0;
  }

  async clearTotp(userId: string, tx?: Tx): Promise<void> {
    await execute(
      this.db,
      sql`UPDATE users SET totp_secret_sealed = NULL, totp_enabled_at = NULL, totp_last_step = NULL
       WHERE id = ${userId}`,
      tx,
    );
  }
}
