import request from 'supertest';
import { createTestApp, TestApp } from './support/app';
import { createAccount } from './support/factories';

describe('requests without a valid credential are counted per address (docs/api.md, Authentication)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ env: { RATE_LIMIT_UNAUTHENTICATED_PER_MINUTE: '3' } });
  });
  afterAll(() => t.close());

  it('answers 429 with Retry-After past the address count, whatever the credential was, and never refuses a valid key for it', async () => {
    const a = await createAccount(t.app);
    const http = request(t.app.getHttpServer());
    const wrong = [{}, { Authorization: 'Bearer x' }, { Authorization: 'Api vk_nope' }];
    for (const headers of wrong)
      expect((await http.get('/api/auth/v1/locations/').set(headers)).status).toBe(401);
    const limited = await http
      .post('/api/auth/v1/eligibility/batches/')
      .set('Authorization', 'Api vk_nope')
      .send({ items: [] });
    expect(limited.status).toBe(429);
    expect(limited.body.detail).toMatch(
      /^Request was throttled\. Expected available in \d+ seconds\.$/,
    );
    expect(Number(limited.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    // The same address with a valid key: served.
    expect((await http.get('/api/auth/v1/locations/').set(a.auth)).status).toBe(200);
  });
});
