import { RateLimiter, RateLimitModule } from '@/modules/auth';
import { bootModule, ModuleContext } from '../support/module';

/**
 * The rate-limit module booted alone (test/support/module.ts), on PostgreSQL alone: with Redis
 * away, each process counts by its own bound (docs/architecture.md, Behind a connection pooler,
 * Redis down), and refuses past it with the seconds to wait.
 */
describe('rate-limit module, alone', () => {
  let t: ModuleContext;
  let limiter: RateLimiter;

  beforeAll(async () => {
    t = await bootModule(RateLimitModule, {
      env: { RATE_LIMIT_FALLBACK_PER_MINUTE: '3', NEXT_ELIGIBLE_COST_PER_MINUTE: '10' },
    });
    limiter = t.ctx.get(RateLimiter);
  });
  afterAll(() => t.close());

  it('boots with nothing else of the application', () => {
    expect(t.booted).toEqual(['RateLimitModule']);
  });

  it("admits a key's requests up to the per-process bound, then refuses it alone", async () => {
    expect(limiter.redisDown()).toBe(true);
    const decisions = [];
    for (let i = 0; i < 4; i++) decisions.push(await limiter.take('key-a'));
    expect(decisions.slice(0, 3)).toEqual([
      { allowed: true },
      { allowed: true },
      { allowed: true },
    ]);
    expect(decisions[3]).toEqual({ allowed: false, retryAfterSeconds: expect.any(Number) });
    expect(await limiter.take('key-b')).toEqual({ allowed: true });
  });

  it('spends a cost budget by weight and refuses the request that would pass it', async () => {
    await limiter.spend('next_eligible', 'key-c', 8);
    await expect(limiter.spend('next_eligible', 'key-c', 3)).rejects.toMatchObject({ status: 429 });
    await limiter.spend('next_eligible', 'key-c', 2);
  });
});
