import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { Tx } from '@/platform/db/database';
import { execute, queryOne, sql } from '@/platform/db/sql';

/** A live embedded-session token as stored (by its SHA-256). */
export interface IframeTokenRow {
  account_id: string;
  user_id: string;
  entry_point: string;
  api_key_id: string;
  /** The Counter's request and person (entry point `quote` only). */
  request_uid: string | null;
  person_id: string | null;
}

interface NewIframeToken {
  tokenHash: string;
  accountId: string;
  userId: string;
  entryPoint: string;
  apiKeyId: string;
  ttlSeconds: number;
  /** Entry point `quote`: the Counter's request and person. */
  counter?: { requestUid: string; personId: number } | null;
}

const TOKEN_COLUMNS = sql.raw(
  'account_id, user_id, entry_point, api_key_id, request_uid, person_id',
);

/** A token of this hash that is unused, unexpired and bound to an API key. */
const live = (tokenHash: string) =>
  sql`token_hash = ${tokenHash} AND used_at IS NULL AND expires_at > now() AND api_key_id IS NOT NULL`;

/** The `iframe_tokens` table: single-use embedded-session tokens (docs/api.md, Embedded sessions). */
@Injectable()
export class IframeSessionsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async insert(t: NewIframeToken, tx?: Tx): Promise<void> {
    await execute(
      this.db,
      sql`INSERT INTO iframe_tokens (token_hash, account_id, user_id, entry_point, api_key_id,
         request_uid, person_id, expires_at)
       VALUES (${t.tokenHash}, ${t.accountId}, ${t.userId}, ${t.entryPoint}, ${t.apiKeyId},
         ${t.counter?.requestUid ?? null}, ${t.counter ? String(t.counter.personId) : null},
         now() + (${String(t.ttlSeconds)} || ' seconds')::interval)`,
      tx,
    );
  }

  /** Drops tokens expired for more than a day (they are useless; keeps the table small). */
  async deleteExpired(tx?: Tx): Promise<void> {
    await execute(
      this.db,
      sql`DELETE FROM iframe_tokens WHERE expires_at < now() - interval '1 day'`,
      tx,
    );
  }

  /** Marks the live token of this hash used: whom it signs in, or null when it is not live. */
  redeem(tokenHash: string, tx?: Tx): Promise<IframeTokenRow | null> {
    return queryOne(
      this.db,
      sql`UPDATE iframe_tokens SET used_at = now() WHERE ${live(tokenHash)}
       RETURNING ${TOKEN_COLUMNS}`,
      tx,
    );
  }

  /** The live token of this hash, left unused; null when it is not live. */
  peek(tokenHash: string, tx?: Tx): Promise<IframeTokenRow | null> {
    return queryOne(
      this.db,
      sql`SELECT ${TOKEN_COLUMNS} FROM iframe_tokens WHERE ${live(tokenHash)}`,
      tx,
    );
  }
}
