import request from 'supertest';
import { DataSource } from 'typeorm';
import { runCli } from './support/cli';
import { createTestApp, TestApp } from './support/app';
import { createAccount } from './support/factories';
import { signIn } from './support/web-sign-in';

describe('admin CLI (docs/deployment.md, Admin CLI)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('creates an account and keys that authenticate, and revokes a key', async () => {
    // The password on standard input, never on the command line (issue 40).
    const created = await runCli(
      [
        'accounts:create',
        '--name',
        'Clear Sight Optometry',
        '--email',
        'Owner@ClearSight.test',
        '--iframe',
      ],
      'long-enough-pw\n',
    );
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
    const { agent } = await signIn(t.app, 'owner@clearsight.test', 'long-enough-pw');
    await agent.get('/app/').expect(200);

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

  it('refuses a password shorter than 12 characters, as every other place a password is set', async () => {
    // Eleven characters (the command once took eight): refused, and no account is made.
    const short = await runCli(
      ['accounts:create', '--name', 'Short', '--email', 'short-pw@x.test'],
      'elevenchars\n',
    );
    expect(short.code).toBe(1);
    expect(short.stdout).toBe('');
    expect(short.stderr).toContain('at least 12 characters');
    const rows: unknown[] = await t.app
      .get(DataSource)
      .query(`SELECT 1 FROM users WHERE email = 'short-pw@x.test'`);
    expect(rows).toHaveLength(0);
    const twelve = await runCli(
      ['accounts:create', '--name', 'Twelve', '--email', 'twelve-pw@x.test'],
      'twelve-chars\n',
    );
    expect(twelve.code).toBe(0);
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

describe('accounts:create in production', () => {
  it('refuses --password with a clear line, and reads the password from standard input', async () => {
    const production = {
      NODE_ENV: 'production',
      APP_ENCRYPTION_KEY: 'ef'.repeat(32),
      SESSION_SECRET: 'a-production-session-secret',
      PUBLIC_URL: 'https://vision.example.test',
      PASSWORD_HASH_COST: '14',
    };
    const argv = await runCli(
      [
        'accounts:create',
        '--name',
        'Argv',
        '--email',
        'argv@x.test',
        '--password',
        'long-enough-pw',
      ],
      '',
      production,
    );
    expect(argv.code).toBe(1);
    expect(argv.stdout).toBe('');
    expect(argv.stderr).toContain(
      '--password is refused when NODE_ENV=production: give the password on standard input',
    );
    const stdin = await runCli(
      ['accounts:create', '--name', 'Stdin', '--email', 'stdin@x.test'],
      'long-enough-pw\n',
      production,
    );
    expect(stdin.stderr).toBe('');
    expect(stdin.code).toBe(0);
    expect(JSON.parse(stdin.stdout.trim()).account.email).toBe('stdin@x.test');
    const t = await createTestApp({ keepState: true });
    try {
      const rows: { email: string }[] = await t.app
        .get(DataSource)
        .query(`SELECT email FROM users WHERE email IN ('argv@x.test', 'stdin@x.test')`);
      expect(rows.map((r) => r.email)).toEqual(['stdin@x.test']);
    } finally {
      await t.close();
    }
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
