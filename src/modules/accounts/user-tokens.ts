import { createHash, randomBytes } from 'node:crypto';
import { EntityManager, IsNull, MoreThan, Repository } from 'typeorm';
import { UserToken, type UserTokenPurpose } from './user-token.entity';
import { User } from './user.entity';
import type { UserSummary } from './users.service';

/** A user with the link token just minted for them (the token is mailed, never stored). */
export interface UserWithToken {
  user: UserSummary;
  token: string;
}

/** CONTRACT §20: how long each kind of link works. */
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
  em: EntityManager,
  userId: string,
  purpose: UserTokenPurpose,
): Promise<string> {
  const token = randomBytes(32).toString('hex');
  await em.insert(UserToken, {
    tokenHash: hashToken(token),
    userId,
    purpose,
    expiresAt: new Date(Date.now() + TOKEN_LIFETIME_MS[purpose]),
  });
  return token;
}

export async function voidTokens(em: EntityManager, userId: string, purpose: UserTokenPurpose) {
  await em.update(UserToken, { userId, purpose, usedAt: IsNull() }, { usedAt: new Date() });
}

/** Whom a link would serve (unused, unexpired, and fitting the user); null when it cannot. */
export async function liveTokenUser(
  tokens: Repository<UserToken>,
  users: Repository<User>,
  purpose: UserTokenPurpose,
  token: string,
): Promise<User | null> {
  if (!/^[0-9a-f]{64}$/.test(token)) return null;
  const row = await tokens.findOne({
    where: {
      tokenHash: hashToken(token),
      purpose,
      usedAt: IsNull(),
      expiresAt: MoreThan(new Date()),
    },
  });
  const user = row ? await users.findOne({ where: { id: row.userId } }) : null;
  return user && tokenFits(purpose, user) ? user : null;
}

/**
 * Uses a link up with a conditional UPDATE, so it works once even when submitted twice at the
 * same moment: the id of the user it was for, or null when the link is unknown, used or expired.
 */
export async function claimToken(
  em: EntityManager,
  purpose: UserTokenPurpose,
  token: string,
): Promise<string | null> {
  // An UPDATE's answer through TypeORM is [rows, count].
  const [claimed]: [{ user_id: string }[], number] = await em.query(
    `UPDATE user_tokens SET used_at = now()
      WHERE token_hash = $1 AND purpose = $2 AND used_at IS NULL AND expires_at > now()
      RETURNING user_id`,
    [hashToken(token), purpose],
  );
  return claimed.length === 0 ? null : claimed[0].user_id;
}

/** Whether the user has had as many reset links this hour as they may. */
export async function resetLimitReached(
  tokens: Repository<UserToken>,
  userId: string,
): Promise<boolean> {
  const recent = await tokens.count({
    where: {
      userId,
      purpose: 'password_reset',
      createdAt: MoreThan(new Date(Date.now() - 3600_000)),
    },
  });
  return recent >= RESETS_PER_HOUR;
}
