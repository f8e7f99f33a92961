import request from 'supertest';
import { createTestApp, TestApp } from './support/app';
import { createAccount } from './support/factories';

describe('per-key rate limit (docs/api.md, Authentication)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ env: { RATE_LIMIT_PER_MINUTE: '5' } });
  });
  afterAll(() => t.close());

  it('answers 429 with Retry-After once a key has used its minute, without touching other keys', async () => {
    const a = await createAccount(t.app);
    const b = await createAccount(t.app);
    const http = request(t.app.getHttpServer());
    for (let i = 0; i < 5; i++) {
      expect((await http.get('/api/auth/v1/locations/').set(a.auth)).status).toBe(200);
    }
    const limited = await http.get('/api/auth/v1/locations/').set(a.auth);
    expect(limited.status).toBe(429);
    expect(limited.body.detail).toMatch(
      /^Request was throttled\. Expected available in \d+ seconds\.$/,
    );
    const seconds = Number(/in (\d+) seconds/.exec(limited.body.detail)![1]);
    expect(seconds).toBeGreaterThanOrEqual(1);
    expect(seconds).toBeLessThanOrEqual(60);
    expect(limited.headers['retry-after']).toBe(String(seconds));
    // The count is per key, across routes: another route is limited too, another key is not.
    expect(
      (await http.post('/api/auth/v1/locations/').set(a.auth).send({ title: 'x' })).status,
    ).toBe(429);
    expect((await http.get('/api/auth/v1/locations/').set(b.auth)).status).toBe(200);
  });

  it('counts in Redis, so a second process shares the same budget', async () => {
    const c = await createAccount(t.app);
    const second = await createTestApp({ env: { RATE_LIMIT_PER_MINUTE: '5' }, keepState: true });
    try {
      const one = request(t.app.getHttpServer());
      const two = request(second.app.getHttpServer());
      for (let i = 0; i < 3; i++)
        expect((await one.get('/api/auth/v1/locations/').set(c.auth)).status).toBe(200);
      for (let i = 0; i < 2; i++)
        expect((await two.get('/api/auth/v1/locations/').set(c.auth)).status).toBe(200);
      expect((await two.get('/api/auth/v1/locations/').set(c.auth)).status).toBe(429);
      expect((await one.get('/api/auth/v1/locations/').set(c.auth)).status).toBe(429);
    } finally {
      await second.close();
    }
  });
});
