import { createHash, randomBytes } from 'node:crypto';
import type { Tx } from '@/platform/db/database';
import type { UserTokenPurpose } from '../store/user-token.entity';
import type { User } from '../store/user.entity';
import type { UsersRepository } from '../store/users.repository';
import type { UserTokensRepository } from '../store/user-tokens.repository';
import type { UserSummary } from './users.service';

/** A user with the link token just minted for them (the token is mailed, never stored). */
export interface UserWithToken {
  user: UserSummary;
  token: string;
}

/** SECURITY.md: how long each kind of link works. */
export const TOKEN_LIFETIME_MS: Record<UserTokenPurpose, number> = {
  invitation: 72 * 3600_000,
  password_reset: 3600_000,
};

/** At most this many reset links per user and hour: "forgot password" cannot flood a mailbox. */
const RESETS_PER_HOUR = 3;

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

/** An invitation serves a user who has no password yet; a reset, one who has. Never disabled. */
export function tokenFits(purpose: UserTokenPurpose, user: User): boolean {
  if (user.disabledAt) return false;
  return purpose === 'invitation' ? !user.passwordHash : Boolean(user.passwordHash);
}

export async function mintToken(
  tokens: UserTokensRepository,
  userId: string,
  purpose: UserTokenPurpose,
  tx?: Tx,
): Promise<string> {
  const token = randomBytes(32).toString('hex');
  await tokens.insert(
    {
      tokenHash: hashToken(token),
      userId,
      purpose,
      expiresAt: new Date(Date.now() + TOKEN_LIFETIME_MS[purpose]),
    },
    tx,
  );
  return token;
}

/** Whom a link would serve (unused, unexpired, and fitting the user); null when it cannot. */
export async function liveTokenUser(
  tokens: UserTokensRepository,
  users: UsersRepository,
  purpose: UserTokenPurpose,
  token: string,
): Promise<User | null> {
  if (!/^[0-9a-f]{64}$/.test(token)) return null;
  const row = await tokens.findLive(hashToken(token), purpose);
  const user = row ? await users.findById(row.userId) : null;
  return user && tokenFits(purpose, user) ? user : null;
}

/**
 * Uses a link up with a conditional UPDATE, so it works once even when submitted twice at the
 * same moment: the id of the user it was for, or null when the link is unknown, used or expired.
 */
export function claimToken(
  tokens: UserTokensRepository,
  purpose: UserTokenPurpose,
  token: string,
  tx: Tx,
): Promise<string | null> {
  return tokens.claim(hashToken(token), purpose, tx);
}

/** Whether the user has had as many reset links this hour as they may. */
export async function resetLimitReached(
  tokens: UserTokensRepository,
  userId: string,
): Promise<boolean> {
  const recent = await tokens.countResetsSince(userId, new Date(Date.now() - 3600_000));
  return recent >= RESETS_PER_HOUR;
}
