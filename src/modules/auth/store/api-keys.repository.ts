import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, IsNull } from 'typeorm';
import { managerOf, type Tx } from '@/platform/db/database';
import { ApiKey } from './api-key.entity';

/** An unrevoked key as authentication needs it. */
export interface ApiKeyAuthRow {
  id: string;
  account_id: string;
  prefix: string;
  scopes: string[];
}

/** The `api_keys` table: keys by their SHA-256 (the key itself is never stored). */
@Injectable()
export class ApiKeysRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async insert(
    fields: Pick<ApiKey, 'accountId' | 'name' | 'prefix' | 'keyHash' | 'scopes'>,
    tx?: Tx,
  ): Promise<ApiKey> {
    const keys = managerOf(this.db, tx).getRepository(ApiKey);
    return keys.save(keys.create(fields));
  }

  /** The account's keys, newest first. */
  listByAccount(accountId: string, tx?: Tx): Promise<ApiKey[]> {
    return managerOf(this.db, tx)
      .getRepository(ApiKey)
      .find({ where: { accountId }, order: { createdAt: 'DESC' } });
  }

  findInAccount(accountId: string, id: string, tx?: Tx): Promise<ApiKey | null> {
    return managerOf(this.db, tx).getRepository(ApiKey).findOne({ where: { id, accountId } });
  }

  /** Unrevoked keys of this hash (at most one) or display prefix, in any account. */
  findUnrevoked(by: { keyHash: string } | { prefix: string }, tx?: Tx): Promise<ApiKey[]> {
    return managerOf(this.db, tx)
      .getRepository(ApiKey)
      .find({ where: { ...by, revokedAt: IsNull() } });
  }

  /** Stores the key's changed columns (its `revokedAt`). */
  async save(key: ApiKey, tx?: Tx): Promise<void> {
    await managerOf(this.db, tx).getRepository(ApiKey).save(key);
  }

  /** The unrevoked key of this hash, through the unique index; null when none. */
  async findAuth(keyHash: string, tx?: Tx): Promise<ApiKeyAuthRow | null> {
    const rows: ApiKeyAuthRow[] = await managerOf(this.db, tx).query(
      'SELECT id, account_id, prefix, scopes FROM api_keys WHERE key_hash = $1 AND revoked_at IS NULL',
      [keyHash],
    );
    return rows[0] ?? null;
  }

  /** The hash of the key of this id while it is unrevoked; null once revoked (or unknown). */
  async activeKeyHash(id: string, tx?: Tx): Promise<string | null> {
    const rows: { key_hash: string }[] = await managerOf(this.db, tx).query(
      'SELECT key_hash FROM api_keys WHERE id = $1 AND revoked_at IS NULL',
      [id],
    );
    return rows.length === 0 ? null : rows[0].key_hash;
  }

  async touchLastUsed(id: string, tx?: Tx): Promise<void> {
    await managerOf(this.db, tx).query('UPDATE api_keys SET last_used_at = now() WHERE id = $1', [
      id,
    ]);
  }
}
