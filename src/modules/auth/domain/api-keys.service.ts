import { createHash, randomBytes } from 'node:crypto';
import { Injectable, Logger } from '@nestjs/common';
import { NotFoundError } from '@/platform/kernel/errors';
import type { AuthContext } from '@/platform/kernel/request-context';
import { type AuditContext, AuditService, operatorContext, securityEvent } from '@/modules/audit';
import type { ApiKey } from '../store/api-key.entity';
import { ApiKeysRepository } from '../store/api-keys.repository';
import { ALL_SCOPES, type ApiScope, normalizeScopes } from './scopes';
import { ApiKeyCache } from './api-key-cache';

const KEY_PATTERN = /^vk_[A-Za-z0-9_-]{43}$/;
const LAST_USED_WRITE_INTERVAL_MS = 60_000;

interface CreatedApiKey {
  apiKey: ApiKey;
  /** The key itself: shown once, never stored. */
  key: string;
}

function hashKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

@Injectable()
export class ApiKeysService {
  private readonly logger = new Logger(ApiKeysService.name);
  /**
   * Per-process memo so last_used_at costs one write per key per minute, not one per request:
   * the column may lag the last use by up to a minute.
   */
  private readonly lastUsedWritten = new Map<string, number>();

  constructor(
    private readonly keys: ApiKeysRepository,
    private readonly cache: ApiKeyCache,
    private readonly audit: AuditService,
  ) {}

  /**
   * 256 random bits, base64url: `vk_` + 43 characters. Only the SHA-256 is stored. Scopes
   * default to all (SECURITY.md).
   */
  async create(
    accountId: string,
    name: string,
    scopes: readonly ApiScope[] = ALL_SCOPES,
    by?: AuditContext,
  ): Promise<CreatedApiKey> {
    const chosen = normalizeScopes(scopes);
    if (chosen.length === 0) throw new Error('An API key needs at least one scope.');
    const key = `vk_${randomBytes(32).toString('base64url')}`;
    const apiKey = await this.keys.insert({
      accountId,
      name,
      prefix: key.slice(0, 10),
      keyHash: hashKey(key),
      scopes: chosen,
    });
    // A security event of the account: by a web user, or by the operator at the command line.
    if (by) await this.audit.record(securityEvent(by, 'api_key', 'create', apiKey.prefix));
    this.logger.log({ apiKeyId: apiKey.id, accountId }, 'api key created');
    return { apiKey, key };
  }

  list(accountId: string): Promise<ApiKey[]> {
    return this.keys.listByAccount(accountId);
  }

  /**
   * Revokes by id within an account; takes effect on the next request in every process: the
   * caches hear of it before this returns (see ApiKeyCache). Revoking again repeats the notice.
   */
  async revoke(accountId: string, id: string, by?: AuditContext): Promise<ApiKey> {
    const key = await this.keys.findInAccount(accountId, id);
    if (!key) throw new NotFoundError(`API key ${id} not found.`);
    if (!key.revokedAt) {
      key.revokedAt = new Date();
      await this.keys.revoke(key.id, key.revokedAt);
      if (by) await this.audit.record(securityEvent(by, 'api_key', 'revoke', key.prefix));
      this.logger.log({ apiKeyId: id, accountId }, 'api key revoked');
    }
    await this.cache.revoked(key.keyHash);
    return key;
  }

  /** Revokes by the key itself or by its display prefix (admin CLI: the operator's events). */
  async revokeByKeyOrPrefix(keyOrPrefix: string): Promise<ApiKey[]> {
    const found = await this.keys.findUnrevoked(
      KEY_PATTERN.test(keyOrPrefix) ? { keyHash: hashKey(keyOrPrefix) } : { prefix: keyOrPrefix },
    );
    for (const key of found)
      await this.revoke(key.accountId, key.id, operatorContext(key.accountId));
    return found;
  }

  /**
   * The lookup is by the key's SHA-256 through a unique index: the database compares hashes,
   * never the secret, so response time tells nothing about how much of a key was right.
   */
  async authenticate(key: string): Promise<AuthContext | null> {
    if (!KEY_PATTERN.test(key)) return null;
    const keyHash = hashKey(key);
    const cached = this.cache.get(keyHash);
    if (cached) {
      this.touch(cached.apiKeyId);
      return cached;
    }
    const ticket = this.cache.ticket();
    const row = await this.keys.findAuth(keyHash);
    if (!row) return null;
    const { id, account_id: accountId, prefix, scopes } = row;
    // The scopes travel with the cached key: a key's scopes never change after creation.
    const auth: AuthContext = { apiKeyId: id, accountId, apiKeyPrefix: prefix, scopes };
    this.cache.set(keyHash, auth, ticket);
    this.touch(id);
    return auth;
  }

  /**
   * Whether the key of this id is still unrevoked: what an embedded session minted with it asks
   * on every request (SECURITY.md). Cached as `authenticate` is, so revocation reaches it at once.
   */
  async isActive(id: string): Promise<boolean> {
    if (this.cache.isActive(id)) return true;
    const ticket = this.cache.ticket();
    const keyHash = await this.keys.activeKeyHash(id);
    if (keyHash === null) return false;
    this.cache.markActive(id, keyHash, ticket);
    return true;
  }

  private touch(id: string): void {
    const now = Date.now();
    if (now - (this.lastUsedWritten.get(id) ?? 0) < LAST_USED_WRITE_INTERVAL_MS) return;
    this.lastUsedWritten.set(id, now);
    this.keys
      .touchLastUsed(id)
      .catch((e: Error) =>
        this.logger.warn({ apiKeyId: id, err: e.message }, 'last_used_at not recorded'),
      );
  }
}
