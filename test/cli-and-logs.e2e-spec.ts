import request from 'supertest';
import { runCli } from './support/cli';
import { createTestApp, TestApp } from './support/app';
import { createAccount } from './support/factories';

describe('admin CLI (CONTRACT §9)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('creates an account and keys that authenticate, and revokes a key', async () => {
    const created = await runCli([
      'accounts:create',
      '--name',
      'Clear Sight Optometry',
      '--email',
      'Owner@ClearSight.test',
      '--password',
      'long-enough-pw',
      '--iframe',
    ]);
    expect(created.stderr).toBe('');
    expect(created.code).toBe(0);
    const lines = created.stdout.trim().split('\n');
    expect(lines).toHaveLength(1);
    const out = JSON.parse(lines[0]);
    expect(out).toEqual({
      account: {
        id: expect.any(String),
        name: 'Clear Sight Optometry',
        iframe_enabled: true,
        email: 'owner@clearsight.test',
      },
      location_code: expect.stringMatching(/^LOC/),
      api_key: expect.stringMatching(/^vk_/),
    });
    const http = request(t.app.getHttpServer());
    const locations = await http
      .get('/api/auth/v1/locations/')
      .set('Authorization', `Api ${out.api_key}`);
    expect(locations.status).toBe(200);
    expect(locations.body.result[0].code).toBe(out.location_code);

    const second = await runCli(['api-keys:create', '--email', 'owner@clearsight.test']);
    expect(second.code).toBe(0);
    const { api_key: key2 } = JSON.parse(second.stdout.trim());
    expect(
      (await http.get('/api/auth/v1/locations/').set('Authorization', `Api ${key2}`)).status,
    ).toBe(200);

    const revoked = await runCli(['api-keys:revoke', '--key', key2]);
    expect(revoked.code).toBe(0);
    expect(JSON.parse(revoked.stdout.trim()).revoked).toHaveLength(1);
    expect(
      (await http.get('/api/auth/v1/locations/').set('Authorization', `Api ${key2}`)).status,
    ).toBe(401);
    expect(
      (await http.get('/api/auth/v1/locations/').set('Authorization', `Api ${out.api_key}`)).status,
    ).toBe(200);
  });

  it('refuses a duplicate e-mail with a message and a non-zero exit', async () => {
    await createAccount(t.app);
    const first = await runCli([
      'accounts:create',
      '--name',
      'One',
      '--email',
      'dup@x.test',
      '--password',
      'long-enough-pw',
    ]);
    expect(first.code).toBe(0);
    const dup = await runCli([
      'accounts:create',
      '--name',
      'Two',
      '--email',
      'dup@x.test',
      '--password',
      'long-enough-pw',
    ]);
    expect(dup.code).toBe(1);
    expect(dup.stdout).toBe('');
    expect(dup.stderr).toContain('already exists');
  });
});

describe('logs', () => {
  it('are JSON lines with the request id and never contain key material', async () => {
    const writes: string[] = [];
    const spy = jest
      .spyOn(process.stdout, 'write')
      .mockImplementation((chunk: string | Uint8Array) => {
        writes.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString());
        return true;
      });
    const t = await createTestApp({ env: { LOG_LEVEL: 'info' } });
    try {
      const a = await createAccount(t.app);
      const http = request(t.app.getHttpServer());
      await http.get('/api/auth/v1/locations/').set(a.auth).set('X-Request-Id', 'log-test-1');
      await http
        .get('/api/auth/v1/locations/')
        .set('Authorization', 'Api vk_leakedLeakedLeakedLeakedLeakedLeakedLeaked');
      await http
        .post('/api/auth/v1/locations/')
        .set(a.auth)
        .send({ title: 'x', secret: 's3cr3t-value', password: 'pw-value' });
    } finally {
      await t.close();
      spy.mockRestore();
    }
    const text = writes.join('');
    const lines = text
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l));
    const line = lines.find((l) => l.req?.id === 'log-test-1');
    expect(line).toMatchObject({
      req: { method: 'GET', path: '/api/auth/v1/locations/' },
      res: { statusCode: 200 },
    });
    expect(text).toContain('[REDACTED]');
    expect(text).not.toContain('vk_leaked');
    expect(text).not.toMatch(/vk_[A-Za-z0-9_-]{43}/);
    expect(text).not.toContain('s3cr3t-value');
    expect(text).not.toContain('pw-value');
  });
});
