import request from 'supertest';
import { DataSource } from 'typeorm';
import { hashPassword } from '@/platform/kernel/passwords';
import { createTestApp, TestApp } from './support/app';
import { createAccount, TestAccount } from './support/factories';
import { TestAuthenticator } from './support/totp';

type Agent = ReturnType<typeof request.agent>;

const csrfOf = (html: string) => /name="_csrf" value="([^"]+)"/.exec(html)![1];

/** Two-factor sign-in over plain HTTP: CSRF, throttling, storage, the gate, embedded sessions. */
describe('web two-factor sign-in', () => {
  let t: TestApp;
  let db: DataSource;

  beforeAll(async () => {
    t = await createTestApp();
    db = t.app.get(DataSource);
  });
  afterAll(() => t.close());

  const agentOf = () => request.agent(t.app.getHttpServer());

  async function passwordStep(agent: Agent, email: string, password: string) {
    const csrf = csrfOf((await agent.get('/app/login')).text);
    return agent.post('/app/login').type('form').send({ _csrf: csrf, email, password });
  }

  async function codeStep(agent: Agent, code: string, csrf?: string) {
    const token = csrf ?? csrfOf((await agent.get('/app/login/code')).text);
    return agent.post('/app/login/code').type('form').send({ _csrf: token, code });
  }

  /** Turns two-factor on for the agent's user; the authenticator and the recovery codes. */
  async function enrol(agent: Agent) {
    const page = await agent.get('/app/two-factor/enrol');
    expect(page.status).toBe(200);
    const secret = /id="totp-secret">([A-Z2-7]+)</.exec(page.text)![1];
    const authenticator = new TestAuthenticator(secret);
    const done = await agent
      .post('/app/two-factor/enrol')
      .type('form')
      .send({ _csrf: csrfOf(page.text), code: await authenticator.code() });
    expect(done.status).toBe(200);
    const recovery = [...done.text.matchAll(/<li>([0-9a-z]{5}-[0-9a-z]{5})<\/li>/g)].map(
      (m) => m[1],
    );
    expect(recovery).toHaveLength(10);
    return { secret, authenticator, recovery };
  }

  async function signedInWith2fa(a: TestAccount) {
    const agent = agentOf();
    expect((await passwordStep(agent, a.email, a.password)).headers.location).toBe('/app/');
    return { agent, ...(await enrol(agent)) };
  }

  async function addUser(accountId: string) {
    const email = `second-${Date.now()}-${Math.random().toString(16).slice(2, 8)}@practice.test`;
    const password = 'second-user-password';
    await db.query('INSERT INTO users (account_id, email, password_hash) VALUES ($1, $2, $3)', [
      accountId,
      email,
      await hashPassword(password),
    ]);
    return { email, password };
  }

  it('asks for the code after the password, signs in with it, and refuses the same code twice', async () => {
    const a = await createAccount(t.app);
    const { authenticator } = await signedInWith2fa(a);

    const agent = agentOf();
    const step1 = await passwordStep(agent, a.email, a.password);
    expect(step1.status).toBe(302);
    expect(step1.headers.location).toBe('/app/login/code');
    // The password alone does not sign in.
    expect((await agent.get('/app/')).headers.location).toBe('/app/login?next=%2Fapp%2F');
    const code = await authenticator.code();
    const step2 = await codeStep(agent, code);
    expect(step2.status).toBe(302);
    expect(step2.headers.location).toBe('/app/');
    expect((await agent.get('/app/')).status).toBe(200);

    const replay = agentOf();
    await passwordStep(replay, a.email, a.password);
    const refused = await codeStep(replay, code);
    expect(refused.status).toBe(401);
    expect(refused.text).toContain('The code is not right.');
    expect((await replay.get('/app/')).status).toBe(302);
  });

  it('keeps the secret sealed and the recovery codes only as hashes, each usable once', async () => {
    const a = await createAccount(t.app);
    const { secret, recovery } = await signedInWith2fa(a);
    const [user] = await db.query('SELECT id, totp_secret_sealed FROM users WHERE email = $1', [
      a.email,
    ]);
    expect(user.totp_secret_sealed).toMatch(/^v1\./);
    expect(user.totp_secret_sealed).not.toContain(secret);
    const rows: { code_hash: string }[] = await db.query(
      'SELECT code_hash FROM user_recovery_codes WHERE user_id = $1',
      [user.id],
    );
    expect(rows).toHaveLength(10);
    const stored = rows.map((r) => r.code_hash).join(' ');
    for (const c of recovery) {
      expect(stored).not.toContain(c);
      expect(stored).not.toContain(c.replace('-', ''));
    }

    const first = agentOf();
    await passwordStep(first, a.email, a.password);
    // Case and dashes do not matter.
    const ok = await codeStep(first, recovery[3].toUpperCase().replace('-', ' '));
    expect(ok.headers.location).toBe('/app/');
    expect((await first.get('/app/')).text).toContain('9 unused recovery codes left');
    const second = agentOf();
    await passwordStep(second, a.email, a.password);
    expect((await codeStep(second, recovery[3])).status).toBe(401);
  });

  it('refuses each new form without its CSRF token, changing nothing', async () => {
    const a = await createAccount(t.app);
    const agent = agentOf();
    await passwordStep(agent, a.email, a.password);
    const enrolPage = await agent.get('/app/two-factor/enrol');
    const secret = /id="totp-secret">([A-Z2-7]+)</.exec(enrolPage.text)![1];
    const authenticator = new TestAuthenticator(secret);
    // Codes a refused form carried were never checked: they stay good for the next form.
    const enrolCode = await authenticator.code();
    const noToken = await agent
      .post('/app/two-factor/enrol')
      .type('form')
      .send({ code: enrolCode });
    expect(noToken.status).toBe(403);
    expect(noToken.text).toContain('This form has expired');
    expect((await agent.get('/app/two-factor/')).text).toContain('is <strong>off</strong>');

    const badToken = await agent
      .post('/app/two-factor/requirement')
      .type('form')
      .send({ _csrf: 'x'.repeat(32), require_two_factor: 'true' });
    expect(badToken.status).toBe(403);

    const csrf = csrfOf((await agent.get('/app/two-factor/enrol')).text);
    const on = await agent
      .post('/app/two-factor/enrol')
      .type('form')
      .send({ _csrf: csrf, code: enrolCode });
    expect(on.status).toBe(200);
    const nextCode = await authenticator.code();
    const disable = await agent
      .post('/app/two-factor/disable')
      .type('form')
      .send({ code: nextCode });
    expect(disable.status).toBe(403);
    expect((await agent.get('/app/two-factor/')).text).toContain('is <strong>on</strong>');
    const requirement = await agent
      .post('/app/two-factor/requirement')
      .type('form')
      .send({ require_two_factor: 'true' });
    expect(requirement.status).toBe(403);
    const [account] = await db.query('SELECT require_two_factor FROM accounts WHERE id = $1', [
      a.accountId,
    ]);
    expect(account.require_two_factor).toBe(false);

    const signIn = agentOf();
    await passwordStep(signIn, a.email, a.password);
    const codeNoToken = await signIn.post('/app/login/code').type('form').send({ code: nextCode });
    expect(codeNoToken.status).toBe(403);
    expect((await signIn.get('/app/')).status).toBe(302);
  });

  it('throttles wrong codes at sign-in per user, even with the right code after', async () => {
    const a = await createAccount(t.app);
    const { authenticator } = await signedInWith2fa(a);
    const agent = agentOf();
    await passwordStep(agent, a.email, a.password);
    for (let i = 0; i < 5; i++) {
      const res = await codeStep(agent, authenticator.wrongCode());
      expect(res.status).toBe(401);
      expect(res.text).toContain('The code is not right.');
    }
    // Refused before it is checked, so the same right code serves both attempts below.
    const right = await authenticator.code();
    const blocked = await codeStep(agent, right);
    expect(blocked.status).toBe(429);
    expect(blocked.text).toContain('Too many wrong codes');
    // Starting again with the password does not reset the count.
    const again = agentOf();
    expect((await passwordStep(again, a.email, a.password)).headers.location).toBe(
      '/app/login/code',
    );
    expect((await codeStep(again, right)).status).toBe(429);
    expect((await again.get('/app/')).status).toBe(302);

    // Another user is not affected.
    const b = await createAccount(t.app);
    const other = await signedInWith2fa(b);
    const fine = agentOf();
    await passwordStep(fine, b.email, b.password);
    expect((await codeStep(fine, await other.authenticator.code())).headers.location).toBe('/app/');
  });

  it('throttles wrong codes on the turn-off form too, and keeps two-factor on', async () => {
    const a = await createAccount(t.app);
    const { agent, authenticator } = await signedInWith2fa(a);
    for (let i = 0; i < 5; i++) {
      const csrf = csrfOf((await agent.get('/app/two-factor/')).text);
      const res = await agent
        .post('/app/two-factor/disable')
        .type('form')
        .send({ _csrf: csrf, code: authenticator.wrongCode() });
      expect(res.status).toBe(400);
      expect(res.text).toContain('The code is not right.');
    }
    const csrf = csrfOf((await agent.get('/app/two-factor/')).text);
    const blocked = await agent
      .post('/app/two-factor/disable')
      .type('form')
      .send({ _csrf: csrf, code: await authenticator.code() });
    expect(blocked.status).toBe(429);
    expect(blocked.text).toContain('Too many wrong codes');
    expect((await agent.get('/app/two-factor/')).text).toContain('is <strong>on</strong>');
  });

  it('turns two-factor off with a current code; then the password alone signs in', async () => {
    const a = await createAccount(t.app);
    const { agent, authenticator } = await signedInWith2fa(a);
    const csrf = csrfOf((await agent.get('/app/two-factor/')).text);
    const blank = await agent.post('/app/two-factor/disable').type('form').send({ _csrf: csrf });
    expect(blank.status).toBe(400);
    expect(blank.text).toContain('This field is required.');
    const off = await agent
      .post('/app/two-factor/disable')
      .type('form')
      .send({ _csrf: csrf, code: await authenticator.code() });
    expect(off.headers.location).toBe('/app/two-factor/');
    expect((await agent.get('/app/two-factor/')).text).toContain('is <strong>off</strong>');
    const [{ n }] = await db.query(
      'SELECT count(*)::int AS n FROM user_recovery_codes r JOIN users u ON u.id = r.user_id WHERE u.email = $1',
      [a.email],
    );
    expect(n).toBe(0);
    expect((await passwordStep(agentOf(), a.email, a.password)).headers.location).toBe('/app/');
  });

  it('requires two-factor of every user once the account says so; others can only enrol', async () => {
    const a = await createAccount(t.app);
    const early = agentOf(); // signed in before the requirement
    await passwordStep(early, a.email, a.password);
    const refused = await early
      .post('/app/two-factor/requirement')
      .type('form')
      .send({
        _csrf: csrfOf((await early.get('/app/two-factor/')).text),
        require_two_factor: 'true',
      });
    expect(refused.status).toBe(400);
    expect(refused.text).toContain('Turn on two-factor sign-in for yourself');

    const second = await addUser(a.accountId);
    const open = agentOf(); // the second user, signed in before the requirement
    expect((await passwordStep(open, second.email, second.password)).headers.location).toBe(
      '/app/',
    );

    const { agent } = await signedInWith2fa(a);
    const on = await agent
      .post('/app/two-factor/requirement')
      .type('form')
      .send({
        _csrf: csrfOf((await agent.get('/app/two-factor/')).text),
        require_two_factor: 'true',
      });
    expect(on.headers.location).toBe('/app/two-factor/');

    // An open session of a user without two-factor: pages send to enrolment, forms are refused.
    expect((await open.get('/app/patients/')).headers.location).toBe('/app/two-factor/enrol');
    expect((await open.get('/app/two-factor/')).headers.location).toBe('/app/two-factor/enrol');
    const enrolPage = await open.get('/app/two-factor/enrol');
    expect(enrolPage.status).toBe(200);
    expect(enrolPage.text).toContain('Your account requires two-factor sign-in');
    const csrf = csrfOf(enrolPage.text);
    const location = await open
      .post('/app/locations/')
      .type('form')
      .send({ _csrf: csrf, title: 'Sneaky' });
    expect(location.status).toBe(403);
    const turnOff = await open
      .post('/app/two-factor/requirement')
      .type('form')
      .send({ _csrf: csrf });
    expect(turnOff.status).toBe(403);
    const [account] = await db.query('SELECT require_two_factor FROM accounts WHERE id = $1', [
      a.accountId,
    ]);
    expect(account.require_two_factor).toBe(true);

    // A fresh sign-in goes straight to enrolment; after it, the application opens.
    const fresh = agentOf();
    expect((await passwordStep(fresh, second.email, second.password)).headers.location).toBe(
      '/app/two-factor/enrol',
    );
    await enrol(fresh);
    expect((await fresh.get('/app/patients/')).status).toBe(200);
  });

  describe('embedded sessions', () => {
    let a: TestAccount;
    beforeAll(async () => {
      a = await createAccount(t.app, { iframeEnabled: true });
    });

    async function embed(agent: Agent) {
      const res = await request(t.app.getHttpServer())
        .post('/api/auth/v1/iframe-session/')
        .set(a.auth)
        .send({ entry_point: 'add_patient' });
      const url = new URL(res.body.iframe_url as string);
      const landing = await agent.get(`${url.pathname}${url.search}`);
      expect(landing.headers.location).toBe('/app/patients/new');
    }

    it('open without a code (the link is minted with the API key) but never reach two-factor settings', async () => {
      const { authenticator } = await signedInWith2fa(a);
      const agent = agentOf();
      await embed(agent);
      const page = await agent.get('/app/patients/new');
      expect(page.status).toBe(200);
      for (const path of ['/app/two-factor/', '/app/two-factor/enrol']) {
        const res = await agent.get(path);
        expect(res.status).toBe(403);
        expect(res.text).toContain('Not available in an embedded session');
      }
      const csrf = csrfOf(page.text);
      for (const [path, body] of [
        ['/app/two-factor/disable', { code: await authenticator.code() }],
        ['/app/two-factor/requirement', { require_two_factor: 'true' }],
      ] as const) {
        const res = await agent
          .post(path)
          .type('form')
          .send({ _csrf: csrf, ...body });
        expect(res.status).toBe(403);
      }
      const [row] = await db.query(
        'SELECT u.totp_enabled_at, a.require_two_factor FROM users u JOIN accounts a ON a.id = u.account_id WHERE u.email = $1',
        [a.email],
      );
      expect(row.totp_enabled_at).not.toBeNull();
      expect(row.require_two_factor).toBe(false);
    });

    it('are not sent to enrolment by the requirement, and cannot enrol the user', async () => {
      await db.query(
        'UPDATE users SET totp_secret_sealed = NULL, totp_enabled_at = NULL WHERE email = $1',
        [a.email],
      );
      await db.query('UPDATE accounts SET require_two_factor = true WHERE id = $1', [a.accountId]);
      const agent = agentOf();
      await embed(agent);
      expect((await agent.get('/app/patients/new')).status).toBe(200);
      expect((await agent.get('/app/two-factor/enrol')).status).toBe(403);
      // The same user signing in with the password is sent to enrolment.
      const direct = agentOf();
      expect((await passwordStep(direct, a.email, a.password)).headers.location).toBe(
        '/app/two-factor/enrol',
      );
    });
  });
});
