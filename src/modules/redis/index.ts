/**
 * The door of the redis module: what other modules use of it. Another module imports from
 * '@/modules/redis' only (lint refuses otherwise; docs/architecture.md, Module graph).
 */
export { InjectRedis, RedisModule, THROTTLE_REDIS } from './redis.module';
export { RedisPubSub, RedisPubSubModule } from './redis-pubsub';
