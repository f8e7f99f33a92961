import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { Tx } from '@/platform/db/database';
import { entityColumns } from '@/platform/db/entity-columns';
import { execute, query, queryOne, sql, type Sql } from '@/platform/db/sql';
import { ApiKey } from './api-key.entity';

/** An unrevoked key as authentication needs it. */
interface ApiKeyAuthRow {
  id: string;
  account_id: string;
  prefix: string;
  scopes: string[];
}

/** The `api_keys` table: keys by their SHA-256 (the key itself is never stored). */
@Injectable()
export class ApiKeysRepository {
  private readonly columns: Sql;

  constructor(@InjectDataSource() private readonly db: DataSource) {
    this.columns = entityColumns(db, ApiKey, 'k');
  }

  async insert(
    f: Pick<ApiKey, 'accountId' | 'name' | 'prefix' | 'keyHash' | 'scopes'>,
    tx?: Tx,
  ): Promise<ApiKey> {
    const key = await queryOne<ApiKey>(
      this.db,
      sql`INSERT INTO api_keys AS k (account_id, name, prefix, key_hash, scopes)
       VALUES (${f.accountId}, ${f.name}, ${f.prefix}, ${f.keyHash}, ${f.scopes}::text[])
       RETURNING ${this.columns}`,
      tx,
    );
    return key!;
  }

  /** The account's keys, newest first. */
  listByAccount(accountId: string, tx?: Tx): Promise<ApiKey[]> {
    return query(
      this.db,
      sql`SELECT ${this.columns} FROM api_keys k WHERE k.account_id = ${accountId}
       ORDER BY k.created_at DESC`,
      tx,
    );
  }

  findInAccount(accountId: string, id: string, tx?: Tx): Promise<ApiKey | null> {
    return queryOne(
      this.db,
      sql`SELECT ${this.columns} FROM api_keys k WHERE k.id = ${id} AND k.account_id = ${accountId}`,
      tx,
    );
  }

  /** Unrevoked keys of this hash (at most one) or display prefix, in any account. */
  findUnrevoked(by: { keyHash: string } | { prefix: string }, tx?: Tx): Promise<ApiKey[]> {
    const where = 'keyHash' in by ? sql`k.key_hash = ${by.keyHash}` : sql`k.prefix = ${by.prefix}`;
    return query(
      this.db,
      sql`SELECT ${this.columns} FROM api_keys k WHERE ${where} AND k.revoked_at IS NULL`,
      tx,
    );
  }

  /** Key `id` revoked at `at`. */
  async revoke(id: string, at: Date, tx?: Tx): Promise<void> {
    await execute(this.db, sql`UPDATE api_keys SET revoked_at = ${at} WHERE id = ${id}`, tx);
  }

  /** The unrevoked key of this hash, through the unique index; null when none. */
  findAuth(keyHash: string, tx?: Tx): Promise<ApiKeyAuthRow | null> {
    return queryOne(
      this.db,
      sql`SELECT id, account_id, prefix, scopes FROM api_keys WHERE key_hash = ${keyHash} AND revoked_at IS NULL`,
      tx,
    );
  }

  /** The hash of the key of this id while it is unrevoked; null once revoked (or unknown). */
  async activeKeyHash(id: string, tx?: Tx): Promise<string | null> {
    const row = await queryOne<{ key_hash: string }>(
      this.db,
      sql`SELECT key_hash FROM api_keys WHERE id = ${id} AND revoked_at IS NULL`,
      tx,
    );
    return row?.key_hash ?? null;
  }

  async touchLastUsed(id: string, tx?: Tx): Promise<void> {
    await execute(this.db, sql`UPDATE api_keys SET last_used_at = now() WHERE id = ${id}`, tx);
  }
}
