import { Inject, Injectable, Module, OnApplicationShutdown } from '@nestjs/common';
import Redis, { type RedisOptions } from 'ioredis';
import { APP_CONFIG } from '@/platform/config/config.module';
import type { AppConfig } from '@/platform/config/env';

/** Reconnection of a pub/sub connection: quick, then every 2 s while Redis is away. */
const RECONNECT: RedisOptions = {
  connectTimeout: 2_000,
  retryStrategy: (times) => Math.min(times * 200, 2_000),
};

/**
 * The connections pub/sub needs, made when a module asks (so a process that never listens, the
 * CLI or a worker, opens none) and closed at shutdown. Apart from the shared clients (REDIS): a
 * subscribed connection serves nothing else, and a publish waits for a connection rather than
 * failing at once. Their errors are retried by ioredis; the module that holds one watches its
 * `ready` and `close` (while Redis is away, what it serves is simply not used).
 */
@Injectable()
export class RedisPubSub implements OnApplicationShutdown {
  private readonly made = new Set<Redis>();

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  /** A connection for SUBSCRIBE, connecting now; it resubscribes only where its holder says. */
  subscriber(): Redis {
    return this.make({ autoResubscribe: false, maxRetriesPerRequest: null });
  }

  /** A connection for PUBLISH, connecting on first use (`connect()` while its status is `wait`). */
  publisher(): Redis {
    return this.make({ lazyConnect: true, maxRetriesPerRequest: 1 });
  }

  async onApplicationShutdown(): Promise<void> {
    for (const client of this.made) await client.quit().catch(() => client.disconnect());
    this.made.clear();
  }

  private make(options: RedisOptions): Redis {
    const client = new Redis(this.config.redisUrl, {
      ...RECONNECT,
      enableOfflineQueue: true,
      ...options,
    });
    client.on('error', () => undefined);
    this.made.add(client);
    return client;
  }
}

/** RedisPubSub for the modules that listen or publish (the CLI's too, without RedisModule). */
@Module({ providers: [RedisPubSub], exports: [RedisPubSub] })
export class RedisPubSubModule {}
