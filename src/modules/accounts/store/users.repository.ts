import { isUniqueViolation } from '@/platform/kernel/codes';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, IsNull } from 'typeorm';
import { managerOf, type Tx } from '@/platform/db/database';
import { Account } from './account.entity';
import { User } from './user.entity';

export type NewUser = Pick<
  User,
  'accountId' | 'email' | 'role' | 'passwordHash' | 'passwordChangedAt'
>;

/**
 * The `users` table: the people who sign in, their passwords, session epochs and TOTP state.
 * `twoFactorState` joins the user's row of `accounts` (same module).
 */
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

@Injectable()
export class UsersRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async insert(fields: NewUser, tx?: Tx): Promise<User> {
    const em = managerOf(this.db, tx);
    return em.save(em.create(User, fields));
  }

  findById(id: string, tx?: Tx): Promise<User | null> {
    return managerOf(this.db, tx).getRepository(User).findOne({ where: { id } });
  }

  findInAccount(accountId: string, id: string, tx?: Tx): Promise<User | null> {
    return managerOf(this.db, tx).getRepository(User).findOne({ where: { id, accountId } });
  }

  /** `email` as stored: trimmed and lower-cased by the caller. */
  /**
   * The user who signs in with the e-mail, or else its oldest invitation (an e-mail may be
   * invited in several accounts; one user signs in with it).
   */
  async findByEmail(email: string, tx?: Tx): Promise<User | null> {
    return managerOf(this.db, tx)
      .getRepository(User)
      .createQueryBuilder('u')
      .where('u.email = :email', { email })
      .orderBy('u.password_hash IS NULL', 'ASC')
      .addOrderBy('u.created_at', 'ASC')
      .limit(1)
      .getOne();
  }

  /** The account's first user (the one created with it). */
  firstOfAccount(accountId: string, tx?: Tx): Promise<User | null> {
    return managerOf(this.db, tx)
      .getRepository(User)
      .findOne({ where: { accountId }, order: { createdAt: 'ASC' } });
  }

  listByAccount(accountId: string, tx?: Tx): Promise<User[]> {
    return managerOf(this.db, tx)
      .getRepository(User)
      .find({ where: { accountId }, order: { createdAt: 'ASC', email: 'ASC' } });
  }

  /** The user's row, locked FOR UPDATE until `tx` ends. */
  lockById(id: string, tx: Tx): Promise<User | null> {
    return managerOf(this.db, tx).findOne(User, {
      where: { id },
      lock: { mode: 'pessimistic_write' },
    });
  }

  /** Every user of the account, locked FOR UPDATE (in id order) until `tx` ends. */
  lockAllOfAccount(accountId: string, tx: Tx): Promise<User[]> {
    return managerOf(this.db, tx).find(User, {
      where: { accountId },
      order: { id: 'ASC' },
      lock: { mode: 'pessimistic_write' },
    });
  }

  async updateAccess(
    user: Pick<User, 'id' | 'accountId' | 'role' | 'disabledAt' | 'sessionEpoch'>,
    tx?: Tx,
  ): Promise<void> {
    await managerOf(this.db, tx).update(
      User,
      { id: user.id, accountId: user.accountId },
      { role: user.role, disabledAt: user.disabledAt, sessionEpoch: user.sessionEpoch },
    );
  }

  /** The hash alone (a rehash at today's cost): sessions go on. */
  async updatePasswordHash(id: string, passwordHash: string, tx?: Tx): Promise<void> {
    await managerOf(this.db, tx).getRepository(User).update({ id }, { passwordHash });
  }

  /** A new password and a new epoch (the user's sessions end): what the row now holds. */
  async storePassword(
    id: string,
    passwordHash: string,
    tx?: Tx,
  ): Promise<{ session_epoch: number; password_changed_at: Date }> {
    // An UPDATE's answer through TypeORM is [rows, count].
    const [rows]: [{ session_epoch: number; password_changed_at: Date }[], number] =
      await managerOf(this.db, tx).query(
        `UPDATE users SET password_hash = $2, password_changed_at = now(),
         session_epoch = session_epoch + 1
       WHERE id = $1 RETURNING session_epoch, password_changed_at`,
        [id, passwordHash],
      );
    return rows[0];
  }

  /** Raises the epoch (every session of the user ends): the new one, null for no such user. */
  async raiseSessionEpoch(id: string, tx?: Tx): Promise<number | null> {
    const [rows]: [{ session_epoch: number }[], number] = await managerOf(this.db, tx).query(
      `UPDATE users SET session_epoch = session_epoch + 1 WHERE id = $1 RETURNING session_epoch`,
      [id],
    );
    return rows.length === 0 ? null : rows[0].session_epoch;
  }

  // Two-factor ----------------------------------------------------------------------------

  /** Whether the user has two-factor on, and whether their account requires it; in one query. */
  twoFactorState(
    userId: string,
    tx?: Tx,
  ): Promise<{ enabled: boolean; required: boolean } | undefined> {
    return managerOf(this.db, tx)
      .getRepository(User)
      .createQueryBuilder('u')
      .innerJoin(Account, 'a', 'a.id = u.account_id')
      .select('u.totp_enabled_at IS NOT NULL', 'enabled')
      .addSelect('a.require_two_factor', 'required')
      .where('u.id = :userId', { userId })
      .getRawOne<{ enabled: boolean; required: boolean }>();
  }

  /** Keeps the sealed enrolment secret of a user who has not turned two-factor on. */
  async setTotpSecret(userId: string, sealed: string, tx?: Tx): Promise<void> {
    await managerOf(this.db, tx)
      .getRepository(User)
      .update(
        { id: userId, totpEnabledAt: IsNull() },
        { totpSecretSealed: sealed, totpLastStep: null },
      );
  }

  /** Turns two-factor on if the enrolment secret is still `sealed`; whether it did. */
  async enableTotp(userId: string, sealed: string, step: number, tx?: Tx): Promise<boolean> {
    const result = await managerOf(this.db, tx)
      .createQueryBuilder()
      .update(User)
      .set({ totpEnabledAt: () => 'now()', totpLastStep: step })
      .where('id = :userId AND totp_enabled_at IS NULL AND totp_secret_sealed = :sealed', {
        userId,
        sealed,
      })
      .execute();
    return Boolean(result.affected);
  }

  /** Records the accepted time step if newer than the stored one: whether it was. */
  async advanceTotpStep(userId: string, step: number, tx?: Tx): Promise<boolean> {
    const result = await managerOf(this.db, tx)
      .getRepository(User)
      .createQueryBuilder()
      .update(User)
      .set({ totpLastStep: step })
      .where('id = :userId AND (totp_last_step IS NULL OR totp_last_step < :step)', {
        userId,
        step,
      })
      .execute();
    return Boolean(result.affected);
  }

  async clearTotp(userId: string, tx?: Tx): Promise<void> {
    await managerOf(this.db, tx).update(
      User,
      { id: userId },
      { totpSecretSealed: null, totpEnabledAt: null, totpLastStep: null },
    );
  }
}
