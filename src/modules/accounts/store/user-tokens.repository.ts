import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { Tx } from '@/platform/db/database';
import { entityColumns } from '@/platform/db/entity-columns';
import { execute, queryOne, sql } from '@/platform/db/sql';
import { UserToken, type UserTokenPurpose } from './user-token.entity';

/** The `user_tokens` table: single-use invitation and password-reset links, by SHA-256. */
@Injectable()
export class UserTokensRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async insert(
    f: Pick<UserToken, 'tokenHash' | 'userId' | 'purpose' | 'expiresAt'>,
    tx?: Tx,
  ): Promise<void> {
    await execute(
      this.db,
      sql`INSERT INTO user_tokens (token_hash, user_id, purpose, expires_at)
       VALUES (${f.tokenHash}, ${f.userId}, ${f.purpose}, ${f.expiresAt})`,
      tx,
    );
  }

  /** Ends every unused link of the purpose the user has. */
  async voidUnused(userId: string, purpose: UserTokenPurpose, tx?: Tx): Promise<void> {
    await execute(
      this.db,
      sql`UPDATE user_tokens SET used_at = ${new Date()}
       WHERE user_id = ${userId} AND purpose = ${purpose} AND used_at IS NULL`,
      tx,
    );
  }

  /** The unused, unexpired link of this hash and purpose. */
  findLive(tokenHash: string, purpose: UserTokenPurpose, tx?: Tx): Promise<UserToken | null> {
    return queryOne(
      this.db,
      sql`SELECT ${entityColumns(this.db, UserToken, 't')} FROM user_tokens t
       WHERE t.token_hash = ${tokenHash} AND t.purpose = ${purpose} AND t.used_at IS NULL
         AND t.expires_at > ${new Date()}`,
      tx,
    );
  }

  /**
   * Uses a link up with a conditional UPDATE, so it works once even when submitted twice at the
   * same moment: the id of the user it was for, or null when it is unknown, used or expired.
   */
  async claim(tokenHash: string, purpose: UserTokenPurpose, tx?: Tx): Promise<string | null> {
    const claimed = await queryOne<{ user_id: string }>(
      this.db,
      sql`UPDATE user_tokens SET used_at = now()
      WHERE token_hash = ${tokenHash} AND purpose = ${purpose} AND used_at IS NULL AND expires_at > now()
      RETURNING user_id`,
      tx,
    );
    return claimed?.user_id ?? null;
  }

  /** How many reset links the user was sent since `since`. */
  async countResetsSince(userId: string, since: Date, tx?: Tx): Promise<number> {
    const row = await queryOne<{ count: number }>(
      this.db,
      sql`SELECT count(*)::int AS count FROM user_tokens
       WHERE user_id = ${userId} AND purpose = 'password_reset' AND created_at > ${since}`,
      tx,
    );
    return row!.count;
  }
}
