import { createHash, createHmac } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { InsurerSettingsService } from '@/modules/insurers/domain/insurer-settings.service';
import { sendDelivery } from '@/modules/webhooks/domain/webhook-sender';
import { createTestApp, TestApp } from './support/app';
import { patient as searchPatient, startSearch, waitForResult } from './support/eligibility';
import { createAccount, TestAccount } from './support/factories';
import { FuzzClient, junk, mutate, mutation } from './support/fuzz';
import { TestReceiver } from './support/receiver';

const ENCRYPTION_KEY = 'a1'.repeat(32);
const SESSION_SECRET = 'session-secret-for-the-security-spec';
const WEBHOOK_SECRET = 'whsec-security-spec-7d3f9a';
const INSURER_PASSWORD = 'insurer-portal-pw-5k2j8q';

/** Every row of every table of the schema, as JSON text: what someone with a dump would see. */
async function dumpDatabase(db: DataSource): Promise<string> {
  const tables: { tablename: string }[] = await db.query(
    "SELECT tablename FROM pg_tables WHERE schemaname = 'public'",
  );
  const parts: string[] = [];
  for (const { tablename } of tables) {
    const rows: unknown[] = await db.query(
      `SELECT row_to_json(t)::text AS j FROM "${tablename}" t`,
    );
    parts.push(`${tablename}: ${rows.map((r) => (r as { j: string }).j).join('\n')}`);
  }
  return parts.join('\n');
}

describe('security: secrets at rest, in logs and in error bodies', () => {
  let t: TestApp;
  let a: TestAccount;
  let client: FuzzClient;
  let iframeToken: string;
  const generatedSecrets: string[] = [];
  const receiver = new TestReceiver();
  const logged: string[] = [];
  const originalWrite = process.stdout.write.bind(process.stdout);

  beforeAll(async () => {
    // Everything the service logs (pino writes to process.stdout) is kept for the checks below.
    process.stdout.write = (chunk: string | Uint8Array, ...rest: unknown[]) => {
      logged.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8'));
      return (originalWrite as (...args: unknown[]) => boolean)(chunk, ...rest);
    };
    await receiver.start();
    t = await createTestApp({
      listen: true,
      env: {
        LOG_LEVEL: 'debug',
        APP_ENCRYPTION_KEY: ENCRYPTION_KEY,
        SESSION_SECRET,
        WEBHOOK_RETRY_SCHEDULE: '0.2',
      },
    });
    a = await createAccount(t.app, { iframeEnabled: true });
    const { port } = t.app.getHttpServer().address() as AddressInfo;
    client = new FuzzClient(`http://127.0.0.1:${port}`);
  });

  afterAll(async () => {
    process.stdout.write = originalWrite;
    await t?.close();
    await receiver.stop();
  });

  it('stores API keys, webhook secrets, passwords, insurer passwords and iframe tokens only hashed or encrypted', async () => {
    const db = t.app.get(DataSource);
    const hook = await request(t.app.getHttpServer())
      .post('/api/auth/v1/webhooks/')
      .set(a.auth)
      .send({ url: receiver.url('/rest'), secret: WEBHOOK_SECRET });
    expect(hook.status).toBe(201);
    const rotated = await request(t.app.getHttpServer())
      .post('/api/auth/v1/webhooks/')
      .set(a.auth)
      .send({ url: receiver.url('/rest2'), generate_secret: true });
    generatedSecrets.push(rotated.body.secret);
    const iframe = await request(t.app.getHttpServer())
      .post('/api/auth/v1/iframe-session/')
      .set(a.auth)
      .send({ entry_point: 'add_patient' });
    expect(iframe.status).toBe(200);
    iframeToken = new URL(iframe.body.iframe_url).searchParams.get('token')!;
    expect(iframeToken).toMatch(/^[0-9a-f]{64}$/);
    await t.app
      .get(InsurerSettingsService)
      .setCredentials(a.accountId, 'insurer:vision:vsp', 'portal-user', INSURER_PASSWORD);
    // A delivery, so the deliveries and attempts tables hold rows too.
    const uid = await startSearch(t.app, a.auth, { patient: searchPatient() });
    await waitForResult(t.app, a.auth, uid);
    await receiver.waitFor('/rest', 1);

    const dump = await dumpDatabase(db);
    const secrets = {
      'API key': a.apiKey,
      'API key random part': a.apiKey.slice(3),
      'webhook secret': WEBHOOK_SECRET,
      'generated webhook secret': rotated.body.secret as string,
      'web password': a.password,
      'insurer password': INSURER_PASSWORD,
      'iframe token': iframeToken,
    };
    for (const [what, value] of Object.entries(secrets)) {
      expect({ what, stored: dump.includes(value) }).toEqual({ what, stored: false });
    }
    // What is stored instead: the SHA-256 of the key and of the token, a slow hash of the password.
    const sha = (s: string) => createHash('sha256').update(s).digest('hex');
    const [key] = await db.query('SELECT key_hash FROM api_keys WHERE id = $1', [a.apiKeyId]);
    expect(key.key_hash).toBe(sha(a.apiKey));
    const [token] = await db.query('SELECT token_hash FROM iframe_tokens');
    expect(token.token_hash).toBe(sha(iframeToken));
    const [user] = await db.query('SELECT password_hash FROM users WHERE account_id = $1', [
      a.accountId,
    ]);
    expect(user.password_hash).not.toContain(a.password);
    expect(user.password_hash.length).toBeGreaterThanOrEqual(60);
    const [insurer] = await db.query(
      'SELECT password_sealed FROM account_insurers WHERE account_id = $1',
      [a.accountId],
    );
    expect(insurer.password_sealed).toEqual(expect.any(String));
    // The sealed secret still opens with the key: the delivery was signed with it.
    const signed = receiver.forPath('/rest')[0];
    expect(signed.headers['x-signature']).toBe(
      createHmac('sha256', WEBHOOK_SECRET).update(signed.raw).digest('hex'),
    );
  });

  it('keeps key material out of logs and error bodies under a fuzz load that carries it everywhere', async () => {
    const key = a.apiKey;
    const carriers: fc.Arbitrary<{ headers: Record<string, string>; path: string; body: unknown }> =
      fc.record({
        headers: fc.constantFrom<Record<string, string>>(
          { Authorization: `Api ${key}` },
          { Authorization: `Api ${key}x` },
          { Authorization: `api ${key}` },
          { Authorization: `Bearer ${key}` },
          { Authorization: `Api ${key}`, 'X-Api-Key': key },
          { Authorization: `Api ${key}`, 'Proxy-Authorization': `Basic ${key}` },
          { Authorization: `Api ${key}`, Cookie: `session=${key}` },
          { Authorization: `Api ${key}`, 'X-Auth-Token': key },
          { Authorization: `Api ${key}`, 'Api-Key': key },
          { Authorization: `Api ${key}`, 'X-Webhook-Secret': WEBHOOK_SECRET },
        ),
        path: fc.constantFrom(
          '/api/auth/v1/webhooks/',
          '/api/auth/v1/patients/',
          `/api/auth/v1/patients/?api_key=${key}&token=${iframeToken}`,
          `/api/auth/v1/claims/?cursor=${key}`,
          '/api/auth/v1/iframe-session/',
          `/embed/?token=${iframeToken}&entry_point=add_patient`,
          '/api/auth/v1/eligibility/',
        ),
        body: fc.tuple(fc.array(mutation, { maxLength: 2 }), junk).map(([mutations]) =>
          mutate(
            {
              url: receiver.url('/fuzz'),
              secret: WEBHOOK_SECRET,
              password: a.password,
              api_key: key,
              token: iframeToken,
              entry_point: 'add_patient',
              patient: searchPatient({ member_id: 'M1' }),
              insurer_code: 'insurer:demo:vision',
            },
            mutations,
          ),
        ),
      });
    const errorBodies: string[] = [];
    await fc.assert(
      fc.asyncProperty(carriers, fc.constantFrom('GET', 'POST'), async (c, method) => {
        const res = await client.send(method, c.path, {
          headers: c.headers,
          body: method === 'POST' ? c.body : undefined,
        });
        if (res.status >= 400) errorBodies.push(res.text);
        if (res.status === 201 && res.text.includes('whsec_'))
          generatedSecrets.push(JSON.parse(res.text).secret);
        return res.status < 500;
      }),
      { numRuns: 600 },
    );
    expect(errorBodies.length).toBeGreaterThan(100);
    // Logs are asynchronous: let pino flush.
    await new Promise((r) => setTimeout(r, 500));
    const logs = logged.join('');
    // The capture works: request logs with their (redacted) headers are there.
    expect(logs).toContain('"authorization":"[REDACTED]"');
    const material: Record<string, string> = {
      'API key': key.slice(3),
      'webhook secret': WEBHOOK_SECRET,
      'web password': a.password,
      'iframe token': iframeToken,
      'encryption key': ENCRYPTION_KEY,
      'session secret': SESSION_SECRET,
      'insurer password': INSURER_PASSWORD,
    };
    generatedSecrets.forEach((s, i) => (material[`generated secret ${i}`] = s.slice(6)));
    for (const [what, value] of Object.entries(material)) {
      expect({ what, inLogs: logs.includes(value) }).toEqual({ what, inLogs: false });
    }
    const bodies = errorBodies.join('\n');
    for (const what of ['API key', 'encryption key', 'session secret', 'insurer password']) {
      expect({ what, inErrorBodies: bodies.includes(material[what]) }).toEqual({
        what,
        inErrorBodies: false,
      });
    }
  });

  it('sends the security headers on API answers, errors and health', async () => {
    for (const [path, auth] of [
      ['/api/auth/v1/locations/', true],
      ['/api/auth/v1/patients/PAT00000000/', true],
      ['/api/auth/v1/locations/', false],
      ['/health/live', false],
      ['/no/such/page', false],
    ] as const) {
      const { headers } = await client.send('GET', path, { headers: auth ? a.auth : {} });
      expect({
        path,
        nosniff: headers.get('x-content-type-options'),
        frame: headers.get('x-frame-options'),
        hsts: headers.get('strict-transport-security') !== null,
        csp: /frame-ancestors/.test(headers.get('content-security-policy') ?? ''),
        referrer: headers.get('referrer-policy'),
        poweredBy: headers.get('x-powered-by'),
        requestId: headers.get('x-request-id') !== null,
      }).toEqual({
        path,
        nosniff: 'nosniff',
        frame: 'SAMEORIGIN',
        hsts: true,
        csp: true,
        referrer: 'no-referrer',
        poweredBy: null,
        requestId: true,
      });
    }
  });
});

describe('security: the webhook target guard with WEBHOOK_ALLOW_PRIVATE=false', () => {
  let t: TestApp;
  let a: TestAccount;
  const receiver = new TestReceiver();

  beforeAll(async () => {
    await receiver.start();
    t = await createTestApp({ env: { WEBHOOK_ALLOW_PRIVATE: 'false' } });
    a = await createAccount(t.app);
  });
  afterAll(async () => {
    await t.close();
    await receiver.stop();
  });

  const privateTargets = [
    'http://127.0.0.1/hook',
    'http://127.1/hook',
    'http://2130706433/hook',
    'http://0x7f000001/hook',
    'http://0177.0.0.1/hook',
    'http://localhost/hook',
    'http://0.0.0.0/hook',
    'http://10.0.0.1/hook',
    'http://172.16.5.4/hook',
    'http://192.168.1.10/hook',
    'http://169.254.169.254/latest/meta-data/',
    'http://100.64.0.1/hook',
    'http://[::1]/hook',
    'http://[::ffff:127.0.0.1]/hook',
    'http://[::ffff:7f00:1]/hook',
    'http://[fd00::1]/hook',
    'http://[fe80::1]/hook',
    'https://127.0.0.1:8443/hook',
  ];

  it.each(privateTargets)('refuses %s on create and on update', async (url) => {
    const created = await request(t.app.getHttpServer())
      .post('/api/auth/v1/webhooks/')
      .set(a.auth)
      .send({ url });
    expect(created.status).toBe(400);
    expect(created.body).toEqual({
      errors: { url: { $: ['Private, loopback and link-local addresses are not allowed.'] } },
    });
  });

  it('refuses an update to a private address and sends nothing to one at delivery time', async () => {
    const rows = await t.app
      .get(DataSource)
      .query(
        `INSERT INTO webhooks (account_id, url, is_active, description, version) VALUES ($1, $2, true, '', 'v2') RETURNING id`,
        [a.accountId, receiver.url('/guarded')],
      );
    const id = rows[0].id as string;
    const patch = await request(t.app.getHttpServer())
      .patch(`/api/auth/v1/webhooks/${id}/`)
      .set(a.auth)
      .send({ url: 'http://10.1.2.3/hook' });
    expect(patch.status).toBe(400);
    // A webhook stored while private targets were allowed: the attempt is refused, not sent.
    const uid = await startSearch(t.app, a.auth, { patient: searchPatient() });
    await waitForResult(t.app, a.auth, uid);
    const deadline = Date.now() + 10_000;
    let attempts: { error: string | null }[] = [];
    while (attempts.length === 0 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 100));
      attempts = await t.app
        .get(DataSource)
        .query(
          'SELECT a.error FROM webhook_attempts a JOIN webhook_deliveries d ON d.id = a.delivery_id WHERE d.webhook_id = $1',
          [id],
        );
    }
    expect(attempts[0].error).toMatch(/^refused: Private, loopback/);
    expect(receiver.received).toHaveLength(0);
    const direct = await sendDelivery({
      url: receiver.url('/direct'),
      body: '{}',
      deliveryId: 'd',
      secret: null,
      timeoutMs: 1_000,
      allowPrivate: false,
      allowNonstandardPort: false,
    });
    expect(direct.ok).toBe(false);
    expect(receiver.received).toHaveLength(0);
  });
});
