import { Injectable, Logger } from '@nestjs/common';
import { ConflictError, NotFoundError, ValidationFailed } from '@/platform/kernel/errors';
import { hashPassword, verifyPassword } from '@/platform/kernel/passwords';
import { Database, type Tx } from '@/platform/db/database';
import type { UserTokenPurpose } from '../store/user-token.entity';
import type { User } from '../store/user.entity';
import { passwordProblem } from './password-rule';
import type { UserRole } from './user-roles';
import {
  claimToken,
  liveTokenUser,
  mintToken,
  resetLimitReached,
  tokenFits,
  type UserWithToken,
} from './user-tokens';
import {
  isEmailSigningInElsewhere,
  isEmailTaken,
  UsersRepository,
} from '../store/users.repository';
import { UserTokensRepository } from '../store/user-tokens.repository';

/** An invitation to an e-mail another account's user signs in with cannot be accepted. */
export const SIGNS_IN_ELSEWHERE =
  'This e-mail already signs in to Vision Eligibility with another account. Ask whoever invited you to invite another address.';

/** A password change with a wrong current password: a field error, and a security event. */
export class WrongCurrentPassword extends ValidationFailed {
  constructor() {
    super({ current_password: { $: ['The current password is not right.'] } });
  }
}

/** A user as pages and the CLI show it: never the password hash or the TOTP secret. */
export interface UserSummary {
  id: string;
  accountId: string;
  email: string;
  role: UserRole;
  status: 'invited' | 'enabled' | 'disabled';
  twoFactor: boolean;
  createdAt: Date;
  passwordChangedAt: Date | null;
  /** Sessions opened under another epoch have ended. */
  sessionEpoch: number;
}

export function summarize(u: User): UserSummary {
  return {
    id: u.id,
    accountId: u.accountId,
    email: u.email,
    role: u.role,
    status: u.disabledAt ? 'disabled' : u.passwordHash ? 'enabled' : 'invited',
    twoFactor: Boolean(u.totpEnabledAt),
    createdAt: u.createdAt,
    passwordChangedAt: u.passwordChangedAt,
    sessionEpoch: u.sessionEpoch,
  };
}

/**
 * The people of an account (SECURITY.md): invitations, roles, disabling, passwords and the
 * single-use links that set them. Any password change and any disabling raises the user's
 * session epoch, which ends their sessions (the web module compares it on every request).
 * An account always keeps at least one enabled admin who can sign in.
 */
@Injectable()
export class UsersService {
  private readonly logger = new Logger(UsersService.name);

  constructor(
    private readonly database: Database,
    private readonly users: UsersRepository,
    private readonly tokens: UserTokensRepository,
  ) {}

  async list(accountId: string): Promise<UserSummary[]> {
    const users = await this.users.listByAccount(accountId);
    return users.map(summarize);
  }

  async get(accountId: string, userId: string): Promise<UserSummary> {
    return summarize(await this.userOf(accountId, userId));
  }

  /** A user who can sign in at once (the CLI's users:create). */
  async create(
    accountId: string,
    email: string,
    role: UserRole,
    password: string,
  ): Promise<UserSummary> {
    this.checkPassword(password);
    // The CLI's: it waits for a hashing slot rather than fail.
    const passwordHash = await hashPassword(password, 'wait');
    const user = await this.insert(accountId, email, role, passwordHash);
    this.logger.log({ accountId, userId: user.id, role }, 'user created');
    return summarize(user);
  }

  /** A user without a password yet, and the invitation link's token (valid 72 hours). */
  async invite(accountId: string, email: string, role: UserRole): Promise<UserWithToken> {
    const user = await this.insert(accountId, email, role, null);
    const token = await mintToken(this.tokens, user.id, 'invitation');
    this.logger.log({ accountId, userId: user.id, role }, 'user invited');
    return { user: summarize(user), token };
  }

  /** A new invitation link for a user who has not accepted yet; earlier links stop working. */
  async reinvite(accountId: string, userId: string): Promise<UserWithToken> {
    const user = await this.userOf(accountId, userId);
    if (user.passwordHash || user.disabledAt)
      throw new ConflictError(`${user.email} has no open invitation.`);
    const token = await this.database.transaction(async (tx) => {
      await this.tokens.voidUnused(user.id, 'invitation', tx);
      return mintToken(this.tokens, user.id, 'invitation', tx);
    });
    return { user: summarize(user), token };
  }

  /** Whom a link would serve (the page that asks for the new password); null when it cannot. */
  async peekToken(purpose: UserTokenPurpose, token: string): Promise<UserSummary | null> {
    const user = await liveTokenUser(this.tokens, this.users, purpose, token);
    return user ? summarize(user) : null;
  }

  /**
   * Sets the password a link was sent for and uses the link up, in one transaction: the token
   * row is claimed with a conditional UPDATE, so a link works once even when submitted twice at
   * the same moment. Null when the link is unknown, used or expired.
   */
  async redeemToken(
    purpose: UserTokenPurpose,
    token: string,
    password: string,
  ): Promise<UserSummary | null> {
    this.checkPassword(password);
    if (!/^[0-9a-f]{64}$/.test(token)) return null;
    const passwordHash = await hashPassword(password);
    try {
      return await this.database.transaction(async (tx) => {
        const userId = await claimToken(this.tokens, purpose, token, tx);
        if (!userId) return null;
        const user = await this.users.lockById(userId, tx);
        if (!user || !tokenFits(purpose, user)) return null;
        await this.tokens.voidUnused(user.id, purpose, tx);
        const changed = await this.storePassword(user, passwordHash, tx);
        this.logger.log({ userId: user.id, purpose }, 'password set from a link');
        return summarize(changed);
      });
    } catch (e) {
      // Told to the person accepting (the mailbox's owner), never to the admin who invited.
      if (isEmailSigningInElsewhere(e)) throw new ValidationFailed({ $: [SIGNS_IN_ELSEWHERE] });
      throw e;
    }
  }

  /**
   * A password-reset link for the e-mail, or null when no enabled user with a password has it
   * (or too many were sent this hour): the caller answers the same either way.
   */
  async requestPasswordReset(email: string): Promise<UserWithToken | null> {
    const user = await this.users.findByEmail(email.trim().toLowerCase());
    if (!user || !tokenFits('password_reset', user)) return null;
    if (await resetLimitReached(this.tokens, user.id)) {
      this.logger.warn({ userId: user.id }, 'password reset not sent: hourly limit');
      return null;
    }
    const token = await mintToken(this.tokens, user.id, 'password_reset');
    return { user: summarize(user), token };
  }

  /** The signed-in user's change: the current password is required. */
  async changePassword(userId: string, current: string, next: string): Promise<UserSummary> {
    this.checkPassword(next, 'new_password');
    const user = await this.users.findById(userId);
    if (!user?.passwordHash || !(await verifyPassword(current, user.passwordHash)))
      throw new WrongCurrentPassword();
    // Past the gate once already: the new hash waits its turn rather than fail the change.
    const passwordHash = await hashPassword(next, 'wait');
    return summarize(
      await this.database.transaction((tx) => this.storePassword(user, passwordHash, tx)),
    );
  }

  /** The operator's reset (CLI users:reset-password): no current password, sessions end. */
  async setPassword(email: string, password: string): Promise<UserSummary> {
    this.checkPassword(password);
    const user = await this.users.findByEmail(email.trim().toLowerCase());
    if (!user) throw new NotFoundError(`No user with e-mail ${email.trim().toLowerCase()}.`);
    const passwordHash = await hashPassword(password, 'wait');
    return summarize(
      await this.database.transaction((tx) => this.storePassword(user, passwordHash, tx)),
    );
  }

  async changeRole(accountId: string, userId: string, role: UserRole): Promise<UserSummary> {
    return this.changeWithAdminLeft(accountId, userId, (user) => {
      user.role = role;
    });
  }

  /** Disabling ends the user's sessions at once (the epoch); enabling lets them sign in again. */
  async setDisabled(accountId: string, userId: string, disabled: boolean): Promise<UserSummary> {
    return this.changeWithAdminLeft(accountId, userId, (user) => {
      if (disabled && !user.disabledAt) {
        user.disabledAt = new Date();
        user.sessionEpoch += 1;
      } else if (!disabled) user.disabledAt = null;
    });
  }

  /**
   * Raises the epoch: every session of the user ends ("sign out everywhere"), and every reset
   * link still open dies with them (someone who read the mailbox must not sign back in).
   */
  async endAllSessions(userId: string): Promise<number> {
    return this.database.transaction(async (tx) => {
      await this.tokens.voidUnused(userId, 'password_reset', tx);
      const epoch = await this.users.raiseSessionEpoch(userId, tx);
      if (epoch === null) throw new NotFoundError('User not found.');
      return epoch;
    });
  }

  /**
   * Applies a change to one user of the account with every user of the account locked, then
   * refuses it if no enabled admin who can sign in would be left: two admins demoting each
   * other at the same moment are serialised, and the second is refused.
   */
  private async changeWithAdminLeft(
    accountId: string,
    userId: string,
    change: (user: User) => void,
  ): Promise<UserSummary> {
    return this.database.transaction(async (tx) => {
      const all = await this.users.lockAllOfAccount(accountId, tx);
      const user = all.find((u) => u.id === userId);
      if (!user) throw new NotFoundError('User not found.');
      change(user);
      const admins = all.filter((u) => u.role === 'admin' && !u.disabledAt && u.passwordHash);
      if (admins.length === 0)
        throw new ConflictError('An account keeps at least one enabled admin.');
      await this.users.updateAccess(user, tx);
      this.logger.log({ accountId, userId, role: user.role }, 'user changed');
      return summarize(user);
    });
  }

  private async userOf(accountId: string, userId: string): Promise<User> {
    const user = /^[0-9a-f-]{36}$/.test(userId)
      ? await this.users.findInAccount(accountId, userId)
      : null;
    if (!user) throw new NotFoundError('User not found.');
    return user;
  }

  private async insert(
    accountId: string,
    email: string,
    role: UserRole,
    passwordHash: string | null,
  ): Promise<User> {
    try {
      return await this.users.insert({
        accountId,
        email: email.trim().toLowerCase(),
        role,
        passwordHash,
        passwordChangedAt: passwordHash ? new Date() : null,
      });
    } catch (e) {
      if (isEmailTaken(e))
        throw ValidationFailed.field('email', 'A user with this e-mail already exists.');
      throw e;
    }
  }

  /**
   * The new password, and a new epoch: the user's other sessions end, and so does every reset
   * link still open (one mailed before the change must not undo it).
   */
  private async storePassword(user: User, passwordHash: string, tx: Tx): Promise<User> {
    await this.tokens.voidUnused(user.id, 'password_reset', tx);
    const row = await this.users.storePassword(user.id, passwordHash, tx);
    user.passwordHash = passwordHash;
    user.sessionEpoch = row.session_epoch;
    user.passwordChangedAt = row.password_changed_at;
    return user;
  }

  private checkPassword(password: string, field = 'password'): void {
    const problem = passwordProblem(password);
    if (problem) throw ValidationFailed.field(field, problem);
  }
}
