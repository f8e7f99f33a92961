import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { managerOf, type Tx } from '@/platform/db/database';

/** A live embedded-session token as stored (by its SHA-256). */
export interface IframeTokenRow {
  account_id: string;
  user_id: string;
  entry_point: string;
  api_key_id: string;
}

export interface NewIframeToken {
  tokenHash: string;
  accountId: string;
  userId: string;
  entryPoint: string;
  apiKeyId: string;
  ttlSeconds: number;
}

/** The `iframe_tokens` table: single-use embedded-session tokens (docs/api.md, Embedded sessions). */
@Injectable()
export class IframeSessionsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async insert(token: NewIframeToken, tx?: Tx): Promise<void> {
    await managerOf(this.db, tx).query(
      `INSERT INTO iframe_tokens (token_hash, account_id, user_id, entry_point, api_key_id, expires_at)
       VALUES ($1, $2, $3, $4, $5, now() + ($6 || ' seconds')::interval)`,
      [
        token.tokenHash,
        token.accountId,
        token.userId,
        token.entryPoint,
        token.apiKeyId,
        String(token.ttlSeconds),
      ],
    );
  }

  /** Drops tokens expired for more than a day (they are useless; keeps the table small). */
  async deleteExpired(tx?: Tx): Promise<void> {
    await managerOf(this.db, tx).query(
      `DELETE FROM iframe_tokens WHERE expires_at < now() - interval '1 day'`,
    );
  }

  /** Marks the live token of this hash used: whom it signs in, or null when it is not live. */
  async redeem(tokenHash: string, tx?: Tx): Promise<IframeTokenRow | null> {
    const rows: IframeTokenRow[] = await managerOf(this.db, tx).query(
      `WITH used AS (
         UPDATE iframe_tokens SET used_at = now()
         WHERE token_hash = $1 AND used_at IS NULL AND expires_at > now() AND api_key_id IS NOT NULL
         RETURNING account_id, user_id, entry_point, api_key_id)
       SELECT * FROM used`,
      [tokenHash],
    );
    return rows[0] ?? null;
  }

  /** The live token of this hash, left unused; null when it is not live. */
  async peek(tokenHash: string, tx?: Tx): Promise<IframeTokenRow | null> {
    const rows: IframeTokenRow[] = await managerOf(this.db, tx).query(
      `SELECT account_id, user_id, entry_point, api_key_id FROM iframe_tokens
       WHERE token_hash = $1 AND used_at IS NULL AND expires_at > now() AND api_key_id IS NOT NULL`,
      [tokenHash],
    );
    return rows[0] ?? null;
  }
}
