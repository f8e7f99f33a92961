/**
 * The door of the redis module: what other modules use of it. Another module imports from
 * '@/modules/redis' only (lint refuses otherwise; docs/architecture.md, Module graph).
 */
export { InjectRedis, RedisModule, RedisPubSub, THROTTLE_REDIS } from './redis.module';
