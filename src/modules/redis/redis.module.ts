import { Global, Inject, Logger, Module, OnApplicationShutdown } from '@nestjs/common';
import Redis from 'ioredis';
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
export function reportOutages(
  client: Redis,
  name: string,
  logger: Pick<Logger, 'warn' | 'log'>,
): void {
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
