import Redis from 'ioredis';
import { REDIS } from '@/modules/redis/redis.module';
import { RedisModule, THROTTLE_REDIS } from '@/modules/redis';
import { bootModule, ModuleContext } from '../support/module';

/**
 * The redis module booted alone (test/support/module.ts) against Redis itself: two connections,
 * each keeping its keys under REDIS_PREFIX and its own name, and both closed with the module.
 */
describe('redis module, alone', () => {
  let t: ModuleContext;
  let raw: Redis;

  beforeAll(async () => {
    t = await bootModule(RedisModule);
    raw = new Redis(t.config.redisUrl);
  });
  afterAll(async () => {
    raw.disconnect();
    await t.close();
  });

  it('boots with nothing of the application', () => {
    expect(t.booted).toEqual([]);
  });

  it('keeps each connection under its own prefix, and closes both with the module', async () => {
    const app = t.ctx.get<Redis>(REDIS);
    const throttle = t.ctx.get<Redis>(THROTTLE_REDIS);
    await app.set('probe', 'app');
    await throttle.set('probe', 'throttle');
    const prefix = t.config.redisPrefix;
    expect(await raw.mget(`${prefix}:app:probe`, `${prefix}:throttle:probe`)).toEqual([
      'app',
      'throttle',
    ]);
    await raw.del(`${prefix}:app:probe`, `${prefix}:throttle:probe`);
    const ended = Promise.all([app, throttle].map((c) => new Promise((r) => c.once('end', r))));
    await t.close();
    await ended;
    expect([app.status, throttle.status]).toEqual(['end', 'end']);
  });
});
