import { createServer } from 'node:net';
import request from 'supertest';
import { ENQUEUE_TIMEOUT_MS } from '@/platform/jobs/db-queue';
import { loadConfig } from '@/platform/config/env';
import { createTestApp, resetState, TestApp } from './support/app';
import { DEMO, patient, waitForResult } from './support/eligibility';
import { createAccount } from './support/factories';

/** A loopback port nothing listens on: Redis there refuses every connection. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** docs/architecture.md, Behind a connection pooler: with Redis down, intake and reads go on; the rate limit is per process. */
describe('Redis down (docs/architecture.md, Behind a connection pooler)', () => {
  let t: TestApp;

  beforeAll(async () => {
    await resetState(loadConfig());
    t = await createTestApp({
      keepState: true,
      env: {
        REDIS_URL: `redis://127.0.0.1:${await closedPort()}`,
        RATE_LIMIT_PER_MINUTE: '1000',
        RATE_LIMIT_FALLBACK_PER_MINUTE: '40',
      },
    });
  });
  afterAll(() => t.close());

  it('accepts a search at once (201, no Redis wait) and completes it from the local lane', async () => {
    const account = await createAccount(t.app);
    const http = request(t.app.getHttpServer());
    const started = Date.now();
    const res = await http
      .post('/api/auth/v1/eligibility/')
      .set(account.auth)
      .send({ insurer_code: DEMO, patient: patient() });
    expect(res.status).toBe(201);
    // Answered before a Bull enqueue could even have timed out: nothing waited for Redis.
    expect(Date.now() - started).toBeLessThan(ENQUEUE_TIMEOUT_MS);
    const result = await waitForResult(t.app, account.auth, res.body.request_uid as string);
    expect(result.status).toBe('complete');
    // Several at once: each accepted, none waits for the Bull enqueue's timeout.
    const many = await Promise.all(
      Array.from({ length: 10 }, (_, i) => {
        const at = Date.now();
        return http
          .post('/api/auth/v1/eligibility/')
          .set(account.auth)
          .send({ insurer_code: DEMO, patient: patient({ first_name: `P${i}` }) })
          .then((r) => ({ status: r.status, ms: Date.now() - at }));
      }),
    );
    expect(many.map((m) => m.status)).toEqual(Array(10).fill(201));
    expect(Math.max(...many.map((m) => m.ms))).toBeLessThan(ENQUEUE_TIMEOUT_MS);
  });

  it('still answers 429 past the per-process bound (RATE_LIMIT_FALLBACK_PER_MINUTE)', async () => {
    const account = await createAccount(t.app);
    const http = request(t.app.getHttpServer());
    const statuses: number[] = [];
    for (let i = 0; i < 40; i++)
      statuses.push((await http.get('/api/auth/v1/locations/').set(account.auth)).status);
    expect(statuses).toEqual(Array(40).fill(200));
    const limited = await http.get('/api/auth/v1/locations/').set(account.auth);
    expect(limited.status).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    // Another key has a bucket of its own.
    const other = await createAccount(t.app);
    expect((await http.get('/api/auth/v1/locations/').set(other.auth)).status).toBe(200);
  });
});
