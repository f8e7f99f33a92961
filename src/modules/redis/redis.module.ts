import { Global, Inject, Injectable, Logger, Module, OnApplicationShutdown } from '@nestjs/common';
import Redis, { type RedisOptions } from 'ioredis';
import { APP_CONFIG } from '@/platform/config/config.module';
import type { AppConfig } from '@/platform/config/env';

export const REDIS = Symbol('REDIS');
/** A second connection for the rate limiter, so its traffic never queues behind other commands. */
export const THROTTLE_REDIS = Symbol('THROTTLE_REDIS');
export const InjectRedis = () => Inject(REDIS);

/** Shared ioredis connection for rate limiting and health; every key under REDIS_PREFIX. */
export function createRedis(
  config: AppConfig,
  suffix: string,
  logger: Pick<Logger, 'warn' | 'log'> = new Logger('Redis'),
): Redis {
  const client = new Redis(config.redisUrl, {
    keyPrefix: `${config.redisPrefix}:${suffix}:`,
    // Fail fast while Redis is down so the API answers 503 quickly instead of queueing commands.
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    connectTimeout: 2_000,
    retryStrategy: (times) => Math.min(times * 200, 2_000),
  });
  reportOutages(client, suffix, logger);
  return client;
}

/**
 * Without an error listener ioredis prints "Unhandled error event" at every reconnection attempt
 * (about once a second while Redis is away). The service runs without Redis (README.md, Quick
 * start), so an outage is said once when it begins and once when Redis answers again.
 */
function reportOutages(client: Redis, name: string, logger: Pick<Logger, 'warn' | 'log'>): void {
  let down = false;
  client.on('error', (error: Error) => {
    if (down) return;
    down = true;
    logger.warn(`Redis (${name}) does not answer: ${error.message}; retrying in the background`);
  });
  client.on('ready', () => {
    if (!down) return;
    down = false;
    logger.log(`Redis (${name}) answers again`);
  });
}

@Global()
@Module({
  providers: [
    {
      provide: REDIS,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => createRedis(config, 'app'),
    },
    {
      provide: THROTTLE_REDIS,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => createRedis(config, 'throttle'),
    },
  ],
  exports: [REDIS, THROTTLE_REDIS],
})
export class RedisModule implements OnApplicationShutdown {
  constructor(
    @InjectRedis() private readonly redis: Redis,
    @Inject(THROTTLE_REDIS) private readonly throttleRedis: Redis,
  ) {}

  async onApplicationShutdown(): Promise<void> {
    for (const client of [this.redis, this.throttleRedis]) {
      await client.quit().catch(() => client.disconnect());
    }
  }
}

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
