import { Global, Inject, Module, OnApplicationShutdown } from '@nestjs/common';
import Redis from 'ioredis';
import { APP_CONFIG } from '@/platform/config/config.module';
import type { AppConfig } from '@/platform/config/env';

export const REDIS = Symbol('REDIS');
/** A second connection for the rate limiter, so its traffic never queues behind other commands. */
export const THROTTLE_REDIS = Symbol('THROTTLE_REDIS');
export const InjectRedis = () => Inject(REDIS);

/** Shared ioredis connection for rate limiting and health; every key under REDIS_PREFIX. */
export function createRedis(config: AppConfig, suffix: string): Redis {
  return new Redis(config.redisUrl, {
    keyPrefix: `${config.redisPrefix}:${suffix}:`,
    // Fail fast while Redis is down so the API answers 503 quickly instead of queueing commands.
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    connectTimeout: 2_000,
    retryStrategy: (times) => Math.min(times * 200, 2_000),
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
