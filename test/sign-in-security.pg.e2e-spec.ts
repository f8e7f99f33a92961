import { randomBytes, scryptSync } from 'node:crypto';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { ConfigError, loadConfig } from '@/platform/config/env';
import { createTestApp, TestApp } from './support/app';
import { createAccount, TestAccount } from './support/factories';

type Agent = ReturnType<typeof request.agent>;

const csrfOf = (html: string) => /name="_csrf" value="([^"]+)"/.exec(html)![1];

/**
 * Issue 27: throttling checked then counted (20 parallel guesses were all evaluated), an
 * IP-wide count refused the right password, `trust proxy` was fixed to loopback, and sign-ins,
 * two-factor and key changes left no trace in the audit trail. SECURITY.md.
 */
describe('sign-in throttling and security events (SECURITY.md)', () => {
  let t: TestApp;
  let db: DataSource;

  beforeAll(async () => {
    t = await createTestApp();
    db = t.app.get(DataSource);
  });
  afterAll(() => t.close());

  /**
   * Each test signs in from its own client address (the test client is a trusted loopback
   * proxy); random per run, as the counts outlive a run in Redis for their window.
   */
  const run = Math.floor(Math.random() * 250);
  let nextIp = 1;
  const freshIp = () => `10.${run}.${Math.floor(Math.random() * 250)}.${nextIp++}`;

  async function attempt(ip: string, email: string, password: string) {
    const agent = request.agent(t.app.getHttpServer());
    const page = await agent.get('/app/login').set('X-Forwarded-For', ip);
    const res = await agent
      .post('/app/login')
      .set('X-Forwarded-For', ip)
      .type('form')
      .send({ _csrf: csrfOf(page.text), email, password });
    return { agent, res };
  }

  it('refuses 20 parallel wrong passwords past the limit unchecked, and still signs in another account from that IP', async () => {
    const victim = await createAccount(t.app);
    const neighbour = await createAccount(t.app);
    const ip = freshIp();
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => attempt(ip, victim.email, `guess-${i}-wrong`)),
    );
    const statuses = answers.map((a) => a.res.status);
    // Counted before checked: exactly five guesses were checked (401), the rest never were.
    expect(statuses.filter((s) => s === 401)).toHaveLength(5);
    expect(statuses.filter((s) => s === 429)).toHaveLength(15);
    // The guessing address is refused for this account, even with its right password...
    expect((await attempt(ip, victim.email, victim.password)).res.status).toBe(429);
    // ...but the IP is not: a colleague behind the same address signs in.
    const other = await attempt(ip, neighbour.email, neighbour.password);
    expect(other.res.status).toBe(302);
    expect(other.res.headers.location).toBe('/app/');
  });

  it("never locks the account on its own count: a stranger's guesses from many addresses leave the owner signing in, after a delay", async () => {
    const victim = await createAccount(t.app);
    // Twenty wrong passwords from one address, then two each from four more: the account is
    // far past its limit of five.
    const guesser = freshIp();
    await Promise.all(
      Array.from({ length: 20 }, (_, i) => attempt(guesser, victim.email, `guess-${i}-wrong`)),
    );
    const others = Array.from({ length: 4 }, () => freshIp());
    const spread = await Promise.all(
      others.map(async (ip) => [
        (await attempt(ip, victim.email, 'first-wrong')).res.status,
        (await attempt(ip, victim.email, 'second-wrong')).res.status,
      ]),
    );
    expect(spread.flat()).toEqual(Array(8).fill(401));
    // Past the account's limit an address has two tries, not five: the third is refused unchecked.
    expect((await attempt(others[0], victim.email, victim.password)).res.status).toBe(429);
    // The owner, from an address that has not been guessing: signed in, slowed down, not locked.
    const started = Date.now();
    const owner = await attempt(freshIp(), victim.email, victim.password);
    expect(owner.res.status).toBe(302);
    expect(owner.res.headers.location).toBe('/app/');
    expect(Date.now() - started).toBeGreaterThanOrEqual(2_900);
    // The owner's success does not wipe the strangers' count: the guesser is still refused.
    expect((await attempt(guesser, victim.email, victim.password)).res.status).toBe(429);
  }, 60_000);

  it('never refuses the right password for the IP-wide count alone; wrong ones past it are throttled', async () => {
    const accounts = await Promise.all(Array.from({ length: 8 }, () => createAccount(t.app)));
    const [user, ...targets] = accounts;
    const ip = freshIp();
    // 35 failures from one address, five per account: past the IP's limit of 30.
    const statuses: number[] = [];
    for (const target of targets) {
      const answers = await Promise.all(
        Array.from({ length: 5 }, (_, i) => attempt(ip, target.email, `nope-${i}`)),
      );
      statuses.push(...answers.map((a) => a.res.status));
    }
    expect(statuses.filter((s) => s === 401)).toHaveLength(30);
    expect(statuses.slice(30)).toEqual([429, 429, 429, 429, 429]);
    const wrong = await attempt(ip, user.email, 'not-the-password');
    expect(wrong.res.status).toBe(429);
    const right = await attempt(ip, user.email, user.password);
    expect(right.res.status).toBe(302);
    expect(right.res.headers.location).toBe('/app/');
    // Elsewhere, the same user is not affected at all.
    expect((await attempt(freshIp(), user.email, 'wrong-again')).res.status).toBe(401);
  }, 60_000);

  it('records sign-ins, failed sign-ins, API keys created and revoked in the audit trail', async () => {
    const a = await createAccount(t.app);
    const ip = freshIp();
    expect((await attempt(ip, a.email, 'wrong-password')).res.status).toBe(401);
    const { agent, res } = await attempt(ip, a.email, a.password);
    expect(res.status).toBe(302);
    const page = await agent.get('/app/api-keys/');
    const created = await agent
      .post('/app/api-keys/')
      .set('X-Forwarded-For', ip)
      .type('form')
      .send(`_csrf=${encodeURIComponent(csrfOf(page.text))}&name=Audited&scopes=patients%3Aread`);
    expect(created.status).toBe(201);
    const [key] = await db.query(
      `SELECT id, prefix FROM api_keys WHERE account_id = $1 AND name = 'Audited'`,
      [a.accountId],
    );
    const revoked = await agent
      .post(`/app/api-keys/${key.id}/revoke`)
      .set('X-Forwarded-For', ip)
      .type('form')
      .send({ _csrf: csrfOf(created.text) });
    expect(revoked.status).toBe(302);
    const events = await eventsOf(a);
    expect(events).toEqual(
      expect.arrayContaining([
        ['user', a.email, 'sign_in_failed', 'session', null, ip],
        ['user', a.email, 'sign_in', 'session', null, ip],
        ['user', a.email, 'create', 'api_key', key.prefix, ip],
        ['user', a.email, 'revoke', 'api_key', key.prefix, ip],
      ]),
    );
  });

  it('records two-factor enrolled, failed and disabled', async () => {
    const { TestAuthenticator } = await import('./support/totp');
    const a = await createAccount(t.app);
    const ip = freshIp();
    const { agent } = await attempt(ip, a.email, a.password);
    const enrol = await agent.get('/app/two-factor/enrol');
    const secret = /id="totp-secret">([A-Z2-7]+)</.exec(enrol.text)![1];
    const authenticator = new TestAuthenticator(secret);
    const wrong = await agent
      .post('/app/two-factor/enrol')
      .type('form')
      .send({ _csrf: csrfOf(enrol.text), code: authenticator.wrongCode() });
    expect(wrong.status).toBe(400);
    const done = await agent
      .post('/app/two-factor/enrol')
      .type('form')
      .send({ _csrf: csrfOf(enrol.text), code: await authenticator.code() });
    expect(done.status).toBe(200);
    const settings = await agent.get('/app/two-factor/');
    const off = await agent
      .post('/app/two-factor/disable')
      .type('form')
      .send({ _csrf: csrfOf(settings.text), code: await authenticator.code() });
    expect(off.status).toBe(302);
    const actions = (await eventsOf(a)).filter((e) => e[3] === 'two_factor').map((e) => e[2]);
    expect(actions).toEqual(['fail', 'enrol', 'disable']);
  });

  it('hashes a password kept at the old scrypt cost again at sign-in', async () => {
    const a = await createAccount(t.app);
    const salt = randomBytes(16);
    // The cost hashes were made at before: N=2^17, r=8, p=1 (128 MiB while it runs).
    const old = scryptSync(a.password.normalize('NFKC'), salt, 32, {
      N: 2 ** 17,
      r: 8,
      p: 1,
      maxmem: 256 * 1024 * 1024,
    });
    const oldHash = `scrypt$131072$8$1$${salt.toString('base64')}$${old.toString('base64')}`;
    await db.query('UPDATE users SET password_hash = $1 WHERE email = $2', [oldHash, a.email]);
    expect((await attempt(freshIp(), a.email, a.password)).res.status).toBe(302);
    const [row] = await db.query('SELECT password_hash FROM users WHERE email = $1', [a.email]);
    // At the configured cost (production: OWASP's 2^14 with p=5; this suite: PASSWORD_HASH_COST).
    const n = 2 ** Number(process.env.PASSWORD_HASH_COST);
    expect(n).not.toBe(131072);
    expect(row.password_hash).toMatch(new RegExp(`^scrypt\\$${n}\\$8\\$5\\$`));
    // The new hash is the same password.
    expect((await attempt(freshIp(), a.email, a.password)).res.status).toBe(302);
  });

  async function eventsOf(a: TestAccount): Promise<unknown[][]> {
    const rows: Record<string, unknown>[] = await db.query(
      `SELECT actor_type, actor, action, resource_type, resource_id, ip FROM audit_events
        WHERE account_id = $1 ORDER BY created_at, id`,
      [a.accountId],
    );
    return rows.map((r) => [r.actor_type, r.actor, r.action, r.resource_type, r.resource_id, r.ip]);
  }
});

describe('TRUST_PROXY (SECURITY.md)', () => {
  const ipSeen = async (trustProxy: string | undefined, forwarded: string) => {
    const t = await createTestApp({
      env: trustProxy === undefined ? {} : { TRUST_PROXY: trustProxy },
    });
    try {
      const a = await createAccount(t.app);
      const agent: Agent = request.agent(t.app.getHttpServer());
      const page = await agent.get('/app/login');
      await agent
        .post('/app/login')
        .set('X-Forwarded-For', forwarded)
        .type('form')
        .send({ _csrf: csrfOf(page.text), email: a.email, password: 'wrong' });
      const [row] = await t.app
        .get(DataSource)
        .query(`SELECT ip FROM audit_events WHERE account_id = $1`, [a.accountId]);
      return row.ip as string;
    } finally {
      await t.close();
    }
  };

  it('takes the client from X-Forwarded-For only through the proxies it names', async () => {
    // Default: the loopback proxy is trusted, its header names the client.
    expect(await ipSeen(undefined, '203.0.113.9')).toBe('203.0.113.9');
    // Trusting nobody: the header is the client's own word and is ignored.
    expect(await ipSeen('0', '203.0.113.9')).toMatch(/127\.0\.0\.1/);
    // One hop: the last address the trusted proxy added, not what the client wrote before it.
    expect(await ipSeen('1', '10.9.9.9, 203.0.113.10')).toBe('203.0.113.10');
    // A CIDR list that does not include the test's loopback address.
    expect(await ipSeen('10.0.0.0/8, 192.168.0.0/16', '203.0.113.11')).toMatch(/127\.0\.0\.1/);
  }, 60_000);

  it('is validated at start with one clear line', () => {
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8,loopback' }).trustProxy).toEqual([
      '10.0.0.0/8',
      'loopback',
    ]);
    expect(loadConfig({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(() => loadConfig({ TRUST_PROXY: '10.0.0.0/99' })).toThrow(ConfigError);
    expect(() => loadConfig({ TRUST_PROXY: 'everyone' })).toThrow(/TRUST_PROXY/);
  });
});
