import { createHmac, hkdfSync, randomInt } from 'node:crypto';
import { Injectable, Logger } from '@nestjs/common';
import { Secret, TOTP } from 'otpauth';
import { NotFoundError, ValidationFailed } from '@/platform/kernel/errors';
import { openSecret, sealSecret } from '@/platform/kernel/secret-box';
import { InjectConfig } from '@/platform/config/config.module';
import type { AppConfig } from '@/platform/config/env';
import { Database } from '@/platform/db/database';
import { AccountsRepository } from '../store/accounts.repository';
import { RecoveryCodesRepository } from '../store/recovery-codes.repository';
import type { User } from '../store/user.entity';
import { UsersRepository } from '../store/users.repository';

export const TOTP_ISSUER = 'Vision Eligibility';
export const RECOVERY_CODE_COUNT = 10;
const PERIOD_SECONDS = 30;
/** One time step either side: clocks of phones drift, and a code typed at :29 arrives at :31. */
const WINDOW_STEPS = 1;
/** Crockford's base32 alphabet (no i, l, o, u): 10 characters are 50 random bits. */
const RECOVERY_ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';

export interface TwoFactorState {
  /** The user signs in with a code after the password. */
  enabled: boolean;
  /** The user's account requires two-factor sign-in of all its users. */
  required: boolean;
}

export interface TwoFactorStatus extends TwoFactorState {
  enabledAt: Date | null;
  recoveryCodesLeft: number;
}

export interface Enrolment {
  /** Base32, as authenticator apps take it when typed. */
  secret: string;
  /** `otpauth://totp/...`, what the QR code holds. */
  uri: string;
}

/** Which kind of code proved the second factor, or null when it was not right. */
export type CodeKind = 'totp' | 'recovery' | null;

/**
 * TOTP two-factor sign-in of web users (SECURITY.md). Secrets are sealed with AES-256-GCM under
 * APP_ENCRYPTION_KEY and bound to their user; recovery codes are stored as keyed hashes and are
 * spent by one conditional UPDATE, so a code works once even under concurrent submissions.
 * Codes and secrets are never logged.
 */
@Injectable()
export class TwoFactorService {
  private readonly logger = new Logger(TwoFactorService.name);
  private readonly recoveryKey: Buffer;
  /** SECURITY.md, Keys: codes issued before a key rotation were hashed under the previous key. */
  private readonly previousRecoveryKey: Buffer | null;

  constructor(
    private readonly database: Database,
    @InjectConfig() private readonly config: AppConfig,
    private readonly users: UsersRepository,
    private readonly accounts: AccountsRepository,
    private readonly recoveryCodes: RecoveryCodesRepository,
  ) {
    this.recoveryKey = recoveryKeyOf(config.encryptionKey);
    this.previousRecoveryKey = config.encryptionKeyPrevious
      ? recoveryKeyOf(config.encryptionKeyPrevious)
      : null;
  }

  /** What the sign-in gate needs, in one query. */
  async state(userId: string): Promise<TwoFactorState> {
    const row = await this.users.twoFactorState(userId);
    if (!row) throw new NotFoundError(`User ${userId} not found.`);
    return { enabled: row.enabled, required: row.required };
  }

  async status(userId: string): Promise<TwoFactorStatus> {
    const user = await this.user(userId);
    const account = await this.accounts.findByIdOrFail(user.accountId);
    const recoveryCodesLeft = user.totpEnabledAt ? await this.recoveryCodes.countUnused(userId) : 0;
    return {
      enabled: user.totpEnabledAt !== null,
      required: account.requireTwoFactor,
      enabledAt: user.totpEnabledAt,
      recoveryCodesLeft,
    };
  }

  /**
   * The secret to enrol, kept (sealed) until confirmed with a code: reloading the page shows the
   * same secret, so a QR code already scanned stays good.
   */
  async startEnrolment(userId: string): Promise<Enrolment> {
    const user = await this.user(userId);
    if (user.totpEnabledAt) throw ValidationFailed.request('Two-factor sign-in is already on.');
    let secret = user.totpSecretSealed ? this.open(user) : null;
    if (!secret) {
      secret = new Secret({ size: 20 }).base32;
      await this.users.setTotpSecret(userId, this.seal(userId, secret));
    }
    const totp = new TOTP({
      issuer: TOTP_ISSUER,
      label: user.email,
      secret,
      period: PERIOD_SECONDS,
    });
    return { secret, uri: totp.toString() };
  }

  /**
   * Turns two-factor on when the code matches the enrolment secret, and returns the recovery
   * codes (the only time they exist in plain text); null when the code is not right.
   */
  async confirmEnrolment(userId: string, code: string): Promise<string[] | null> {
    const user = await this.user(userId);
    if (user.totpEnabledAt) throw ValidationFailed.request('Two-factor sign-in is already on.');
    if (!user.totpSecretSealed) throw ValidationFailed.request('Start the set-up again.');
    const step = this.matchTotp(this.open(user), code, null);
    if (step === null) return null;
    const raw = Array.from({ length: RECOVERY_CODE_COUNT }, () => newRecoveryCode());
    const sealed = user.totpSecretSealed;
    const enabled = await this.database.transaction(async (tx) => {
      if (!(await this.users.enableTotp(userId, sealed, step, tx))) return false;
      await this.recoveryCodes.deleteAllOf(userId, tx);
      await this.recoveryCodes.insertMany(
        userId,
        raw.map((c) => this.hashRecoveryCode(c)),
        tx,
      );
      return true;
    });
    if (!enabled) throw ValidationFailed.request('Start the set-up again.');
    this.logger.log({ userId }, 'two-factor sign-in enabled');
    return raw.map((c) => `${c.slice(0, 5)}-${c.slice(5)}`);
  }

  /**
   * Checks the second factor of an enabled user: an authenticator code (each accepted once) or
   * an unused recovery code (then spent).
   */
  async verifyCode(userId: string, code: string): Promise<CodeKind> {
    const user = await this.user(userId);
    if (!user.totpEnabledAt || !user.totpSecretSealed) return null;
    const compact = code.replace(/[\s-]/g, '');
    if (/^\d{6}$/.test(compact)) {
      const step = this.matchTotp(this.open(user), compact, user.totpLastStep);
      if (step === null) return null;
      // Conditional on the stored step: two requests with the same code cannot both pass.
      return (await this.users.advanceTotpStep(userId, step)) ? 'totp' : null;
    }
    const normalised = normaliseRecoveryCode(compact);
    if (!normalised) return null;
    const spent =
      (await this.recoveryCodes.spend(userId, this.hashRecoveryCode(normalised))) ||
      (this.previousRecoveryKey !== null &&
        (await this.recoveryCodes.spend(
          userId,
          this.hashRecoveryCode(normalised, this.previousRecoveryKey),
        )));
    if (!spent) return null;
    this.logger.log({ userId }, 'two-factor recovery code used');
    return 'recovery';
  }

  /** Turns two-factor off after a current code (or a recovery code); false when not right. */
  async disable(userId: string, code: string): Promise<boolean> {
    if (!(await this.verifyCode(userId, code))) return false;
    await this.database.transaction(async (tx) => {
      await this.users.clearTotp(userId, tx);
      await this.recoveryCodes.deleteAllOf(userId, tx);
    });
    this.logger.log({ userId }, 'two-factor sign-in disabled');
    return true;
  }

  /**
   * The account-wide requirement. Whoever turns it on must use two-factor themselves, so the
   * setting cannot be turned on by someone it would lock out, nor from a session without it.
   */
  async setRequired(accountId: string, userId: string, required: boolean): Promise<void> {
    const user = await this.user(userId);
    if (user.accountId !== accountId) throw new NotFoundError(`User ${userId} not found.`);
    if (required && !user.totpEnabledAt) {
      throw ValidationFailed.field(
        'require_two_factor',
        'Turn on two-factor sign-in for yourself before requiring it of everyone.',
      );
    }
    await this.accounts.update(accountId, { requireTwoFactor: required });
    this.logger.log({ accountId, userId, required }, 'two-factor requirement changed');
  }

  private async user(userId: string): Promise<User> {
    const user = await this.users.findById(userId);
    if (!user) throw new NotFoundError(`User ${userId} not found.`);
    return user;
  }

  /** The time step the code belongs to, when it is right and newer than `after`; else null. */
  private matchTotp(secret: string, code: string, after: number | null): number | null {
    const token = code.replace(/[\s-]/g, '');
    if (!/^\d{6}$/.test(token)) return null;
    const timestamp = Date.now();
    const delta = TOTP.validate({
      token,
      secret: Secret.fromBase32(secret),
      period: PERIOD_SECONDS,
      timestamp,
      window: WINDOW_STEPS,
    });
    if (delta === null) return null;
    const step = TOTP.counter({ period: PERIOD_SECONDS, timestamp }) + delta;
    return after !== null && step <= after ? null : step;
  }

  private seal(userId: string, secret: string): string {
    return sealSecret(this.config.encryptionKey, secret, `totp:${userId}`);
  }

  private open(user: User): string {
    return openSecret(this.config, user.totpSecretSealed ?? '', `totp:${user.id}`);
  }

  private hashRecoveryCode(normalised: string, key = this.recoveryKey): string {
    return createHmac('sha256', key).update(normalised).digest('hex');
  }
}

/** Ten characters of Crockford's alphabet (shown as `xxxxx-xxxxx`). */
function newRecoveryCode(): string {
  return Array.from({ length: 10 }, () => RECOVERY_ALPHABET[randomInt(32)]).join('');
}

/** Case, dashes and the letters read as digits (o→0, i/l→1) do not matter; null if malformed. */
export function normaliseRecoveryCode(input: string): string | null {
  const s = input.toLowerCase().replace(/[\s-]/g, '').replace(/o/g, '0').replace(/[il]/g, '1');
  return s.length === 10 && [...s].every((c) => RECOVERY_ALPHABET.includes(c)) ? s : null;
}

const recoveryKeyOf = (encryptionKey: Buffer) =>
  Buffer.from(hkdfSync('sha256', encryptionKey, Buffer.alloc(0), 'vision:recovery-codes', 32));
