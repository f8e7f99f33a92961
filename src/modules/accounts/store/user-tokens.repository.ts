import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, IsNull, MoreThan } from 'typeorm';
import { managerOf, type Tx } from '@/platform/db/database';
import { UserToken, type UserTokenPurpose } from './user-token.entity';

/** The `user_tokens` table: single-use invitation and password-reset links, by SHA-256. */
@Injectable()
export class UserTokensRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async insert(
    fields: Pick<UserToken, 'tokenHash' | 'userId' | 'purpose' | 'expiresAt'>,
    tx?: Tx,
  ): Promise<void> {
    await managerOf(this.db, tx).insert(UserToken, fields);
  }

  /** Ends every unused link of the purpose the user has. */
  async voidUnused(userId: string, purpose: UserTokenPurpose, tx?: Tx): Promise<void> {
    await managerOf(this.db, tx).update(
      UserToken,
      { userId, purpose, usedAt: IsNull() },
      { usedAt: new Date() },
    );
  }

  /** The unused, unexpired link of this hash and purpose. */
  findLive(tokenHash: string, purpose: UserTokenPurpose, tx?: Tx): Promise<UserToken | null> {
    return managerOf(this.db, tx)
      .getRepository(UserToken)
      .findOne({
        where: { tokenHash, purpose, usedAt: IsNull(), expiresAt: MoreThan(new Date()) },
      });
  }

  /**
   * Uses a link up with a conditional UPDATE, so it works once even when submitted twice at the
   * same moment: the id of the user it was for, or null when it is unknown, used or expired.
   */
  async claim(tokenHash: string, purpose: UserTokenPurpose, tx?: Tx): Promise<string | null> {
    // An UPDATE's answer through TypeORM is [rows, count].
    const [claimed]: [{ user_id: string }[], number] = await managerOf(this.db, tx).query(
      `UPDATE user_tokens SET used_at = now()
      WHERE token_hash = $1 AND purpose = $2 AND used_at IS NULL AND expires_at > now()
      RETURNING user_id`,
      [tokenHash, purpose],
    );
    return claimed.length === 0 ? null : claimed[0].user_id;
  }

  /** How many reset links the user was sent since `since`. */
  countResetsSince(userId: string, since: Date, tx?: Tx): Promise<number> {
    return managerOf(this.db, tx)
      .getRepository(UserToken)
      .count({ where: { userId, purpose: 'password_reset', createdAt: MoreThan(since) } });
  }
}
