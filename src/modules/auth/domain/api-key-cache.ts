import { Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import type Redis from 'ioredis';
import { RedisPubSub } from '@/modules/redis';
import { InjectConfig } from '@/platform/config/config.module';
import type { AppConfig } from '@/platform/config/env';
import { setBounded, unexpired } from '@/platform/kernel/bounded-map';
import type { AuthContext } from '@/platform/kernel/request-context';

/** Beyond this many live entries the oldest go first (only valid keys are ever cached). */
const MAX_ENTRIES = 10_000;
/**
 * A connection can die without a close (a silent network drop): the subscriber pings, and an
 * unanswered ping counts as a lost connection.
 */
const PING_EVERY_MS = 5_000;
const PING_TIMEOUT_MS = 2_000;

interface Entry {
  auth: AuthContext;
  expiresAt: number;
}

/** What a lookup saw when it started; it may fill the cache only if nothing changed since. */
interface CacheTicket {
  generation: number;
}

/**
 * Per-process cache of authenticated API keys (by SHA-256), so an authenticated request costs no
 * key query. Revocation still takes effect at once everywhere (docs/api.md, Authentication):
 * - the revoking process drops the entry and publishes the key's hash on a Redis channel that
 *   every process subscribes to; each drops the entry when the message arrives;
 * - the cache is used only while this process's subscription is live: while Redis is away (when
 *   a message could be missed) every request reads the database, and the cache starts empty
 *   again once the subscription is back;
 * - a lookup that started before an invalidation (or a reconnect) does not store what it read
 *   (`generation`), so a row read just before a revocation cannot refill the cache after it.
 * The TTL (API_KEY_CACHE_SECONDS, 0 = off) bounds anything else, such as a key changed by hand
 * in the database.
 */
@Injectable()
export class ApiKeyCache implements OnModuleDestroy {
  private readonly logger = new Logger(ApiKeyCache.name);
  private readonly entries = new Map<string, Entry>();
  /** Key ids known unrevoked (embedded sessions ask by id), with the hash revocations name. */
  private readonly activeIds = new Map<string, { keyHash: string; expiresAt: number }>();
  private readonly ttlMs: number;
  private readonly channel: string;
  private subscriber: Redis | null = null;
  private publisher: Redis | null = null;
  private live = false;
  private generation = 0;
  private closed = false;
  private pinger: NodeJS.Timeout | null = null;

  constructor(
    @InjectConfig() config: AppConfig,
    private readonly redis: RedisPubSub,
  ) {
    this.ttlMs = config.apiKeyCacheSeconds * 1000;
    this.channel = `${config.redisPrefix}:api-keys:revoked`;
  }

  get enabled(): boolean {
    return this.ttlMs > 0;
  }

  /** True once this process listens for revocations (tests wait for it). */
  get listening(): boolean {
    return this.live;
  }

  get(keyHash: string): AuthContext | null {
    if (!this.live) {
      this.subscribe();
      return null;
    }
    return unexpired(this.entries, keyHash)?.auth ?? null;
  }

  ticket(): CacheTicket {
    return { generation: this.generation };
  }

  set(keyHash: string, auth: AuthContext, ticket: CacheTicket): void {
    if (!this.live || ticket.generation !== this.generation || !this.enabled) return;
    setBounded(this.entries, MAX_ENTRIES, keyHash, { auth, expiresAt: Date.now() + this.ttlMs });
  }

  /** True when the key of this id is known unrevoked here (see `get`); false means "ask". */
  isActive(id: string): boolean {
    if (!this.live) {
      this.subscribe();
      return false;
    }
    return unexpired(this.activeIds, id) !== null;
  }

  markActive(id: string, keyHash: string, ticket: CacheTicket): void {
    if (!this.live || ticket.generation !== this.generation || !this.enabled) return;
    setBounded(this.activeIds, MAX_ENTRIES, id, { keyHash, expiresAt: Date.now() + this.ttlMs });
  }

  /**
   * Drops the key here and tells every other process. Rejects when Redis cannot take the message
   * while this process listens on it (others may use their caches; the caller's revocation is
   * committed, repeating it publishes again). Where Redis does not answer, no process can be
   * listening, so no cache is in use anywhere (PostgreSQL alone: docs/configuration.md, Database and Redis).
   */
  async revoked(keyHash: string): Promise<void> {
    this.invalidate(keyHash);
    try {
      const publisher = await this.connectPublisher();
      await publisher.publish(this.channel, keyHash);
    } catch (e) {
      if (this.live) throw e;
    }
  }

  /** Its connections are RedisPubSub's, closed at shutdown. */
  onModuleDestroy(): void {
    this.closed = true;
    this.live = false;
    if (this.pinger) clearInterval(this.pinger);
  }

  private invalidate(keyHash: string | null): void {
    this.generation++;
    if (keyHash === null) {
      this.entries.clear();
      this.activeIds.clear();
      return;
    }
    this.entries.delete(keyHash);
    for (const [id, entry] of this.activeIds)
      if (entry.keyHash === keyHash) this.activeIds.delete(id);
  }

  /** Starts listening on first use, so the CLI and queue workers never open the connection. */
  private subscribe(): void {
    if (this.subscriber || this.closed || !this.enabled) return;
    const sub = this.redis.subscriber();
    this.subscriber = sub;
    sub.on('message', (_channel: string, keyHash: string) => this.invalidate(keyHash));
    sub.on('ready', () => {
      sub.subscribe(this.channel).then(
        () => {
          // Whatever was revoked while nobody listened is unknown here: start empty.
          this.invalidate(null);
          this.live = true;
        },
        (e: Error) => this.logger.warn({ err: e.message }, 'revocation channel not subscribed'),
      );
    });
    sub.on('close', () => {
      this.live = false;
      this.invalidate(null);
    });
    this.pinger = setInterval(() => {
      if (!this.live) return;
      const timer = setTimeout(() => this.lost(sub), PING_TIMEOUT_MS);
      sub.ping().then(
        () => clearTimeout(timer),
        () => {
          clearTimeout(timer);
          this.lost(sub);
        },
      );
    }, PING_EVERY_MS);
    this.pinger.unref();
  }

  private lost(sub: Redis): void {
    if (this.closed) return;
    this.live = false;
    this.invalidate(null);
    sub.disconnect(true);
  }

  private async connectPublisher(): Promise<Redis> {
    this.publisher ??= this.redis.publisher();
    if (this.publisher.status === 'wait') await this.publisher.connect();
    return this.publisher;
  }
}
