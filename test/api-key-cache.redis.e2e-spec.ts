import request from 'supertest';
import { DataSource } from 'typeorm';
import { ApiKeyCache } from '@/modules/auth/domain/api-key-cache';
import { ApiKeysService } from '@/modules/auth/domain/api-keys.service';
import { createTestApp, TestApp } from './support/app';
import { createAccount, TestAccount } from './support/factories';

const PATH = '/api/auth/v1/locations/';

async function until(condition: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/**
 * Each process caches the keys it has seen, so an authenticated request costs one query; a
 * revocation in any process reaches every cache at once (docs/api.md, Authentication).
 */
describe('API key cache across processes', () => {
  let one: TestApp;
  let two: TestApp;

  /** Uses the key on both apps until both caches are live and hold it. */
  async function warm(a: TestAccount): Promise<void> {
    for (const t of [one, two]) {
      expect((await request(t.app.getHttpServer()).get(PATH).set(a.auth)).status).toBe(200);
      await until(() => t.app.get(ApiKeyCache).listening, 'the revocation channel');
      expect((await request(t.app.getHttpServer()).get(PATH).set(a.auth)).status).toBe(200);
    }
  }

  /** Marks the key revoked behind the service's back: only a cache miss can notice. */
  async function revokeInDatabaseOnly(a: TestAccount): Promise<void> {
    await one.app
      .get(DataSource)
      .query('UPDATE api_keys SET revoked_at = now() WHERE id = $1', [a.apiKeyId]);
  }

  beforeAll(async () => {
    one = await createTestApp();
    two = await createTestApp({ keepState: true });
  });
  afterAll(async () => {
    await two?.close();
    await one?.close();
  });

  it('serves a known key from the cache (a change made only in the database is not read)', async () => {
    const a = await createAccount(one.app);
    await warm(a);
    await revokeInDatabaseOnly(a);
    expect((await request(two.app.getHttpServer()).get(PATH).set(a.auth)).status).toBe(200);
  });

  it('refuses a key revoked in another process on the very next request', async () => {
    const a = await createAccount(one.app);
    const other = await createAccount(one.app);
    await warm(a);
    await warm(other);
    await one.app.get(ApiKeysService).revoke(a.accountId, a.apiKeyId);
    const res = await request(two.app.getHttpServer()).get(PATH).set(a.auth);
    expect(res.status).toBe(401);
    expect(res.body).toEqual({
      detail: 'Invalid authentication token.',
      hint: 'Send the header Authorization: Api <key>.',
    });
    expect((await request(one.app.getHttpServer()).get(PATH).set(a.auth)).status).toBe(401);
    // Only that key: the other stays served.
    expect((await request(two.app.getHttpServer()).get(PATH).set(other.auth)).status).toBe(200);
  });

  it('reads the database while the revocation channel is down, and caches again once it is back', async () => {
    const a = await createAccount(one.app);
    await warm(a);
    const cache = two.app.get(ApiKeyCache);
    // Drop the subscriber's connection (ioredis reconnects on its own).
    (
      cache as unknown as { subscriber: { disconnect(reconnect: boolean): void } }
    ).subscriber.disconnect(true);
    await until(() => !cache.listening, 'the channel to drop');
    await revokeInDatabaseOnly(a);
    expect((await request(two.app.getHttpServer()).get(PATH).set(a.auth)).status).toBe(401);
    await until(() => cache.listening, 'the channel to come back');
    // Back to the cache: a key seen after the reconnect is served from it again.
    const b = await createAccount(one.app);
    await warm(b);
    await revokeInDatabaseOnly(b);
    expect((await request(two.app.getHttpServer()).get(PATH).set(b.auth)).status).toBe(200);
  });

  it('signs out an embedded session in another process once its key is revoked, asking no query before (SECURITY.md)', async () => {
    const a = await createAccount(one.app, { iframeEnabled: true });
    await warm(a);
    const minted = await request(one.app.getHttpServer())
      .post('/api/auth/v1/iframe-session/')
      .set(a.auth)
      .send({ entry_point: 'add_patient' });
    const url = new URL(minted.body.iframe_url as string);
    const onOne = request.agent(one.app.getHttpServer());
    expect((await onOne.get(`${url.pathname}${url.search}`)).status).toBe(302);
    const cookie = (await onOne.get('/app/patients/new')).request.cookies;
    const onTwo = () =>
      request(two.app.getHttpServer()).get('/app/patients/new').set('Cookie', cookie);
    expect((await onTwo()).status).toBe(200);
    // The key's state is cached in process two: a change behind the service's back is not read.
    await revokeInDatabaseOnly(a);
    expect((await onTwo()).status).toBe(200);
    // A real revocation in process one reaches it on the very next request.
    await one.app.get(ApiKeysService).revoke(a.accountId, a.apiKeyId);
    const after = await onTwo();
    expect(after.status).toBe(302);
    expect(after.headers.location).toMatch(/^\/app\/login/);
  });
});
