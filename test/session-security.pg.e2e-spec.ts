import { createHash } from 'node:crypto';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { UserAccessService } from '@/modules/web/user-access.service';
import { createTestApp, TestApp } from './support/app';
import { createAccount, TestAccount } from './support/factories';
import { csrfOf, lastMail, linkIn, postForm, signIn } from './support/web-sign-in';

/**
 * Issue 40 (low and medium): a reset link outlived a password change and "sign out everywhere";
 * ending sessions and wrong current passwords left no security event; the production session
 * cookie lacked the `__Host-` prefix and was `SameSite=None`.
 */
describe('reset links, session events and the session cookie', () => {
  let t: TestApp;
  let db: DataSource;

  beforeAll(async () => {
    t = await createTestApp();
    db = t.app.get(DataSource);
  });
  afterAll(() => t.close());

  const http = () => request(t.app.getHttpServer());

  /** Asks for a reset link for the account's user; the link the e-mail delivered. */
  async function resetLink(a: TestAccount): Promise<string> {
    const browser = request.agent(t.app.getHttpServer());
    const page = await browser.get('/app/login/forgot').expect(200);
    await browser
      .post('/app/login/forgot')
      .type('form')
      .send({ _csrf: csrfOf(page.text), email: a.email })
      .expect(200);
    return linkIn((await lastMail(t.app, a.email, 'password_reset', 15_000))!.text);
  }

  async function events(accountId: string) {
    const rows: { action: string; resource_type: string; resource_id: string | null }[] =
      await db.query(
        `SELECT action, resource_type, resource_id FROM audit_events
          WHERE account_id = $1 AND resource_type IN ('session', 'password')
            AND action NOT IN ('sign_in') ORDER BY created_at, id`,
        [accountId],
      );
    return rows;
  }

  it('keeps no usable token at rest: the outbox row holds a marker, the e-mail the working link', async () => {
    const a = await createAccount(t.app);
    const admin = await signIn(t.app, a.email, a.password);
    const invitee = `invitee-${Date.now()}@practice.test`;
    const sent = await postForm(admin.agent, '/app/users/', '/app/users/', {
      email: invitee,
      role: 'staff',
    });
    expect(sent.status).toBe(302);
    const resetFor = await resetLink(a);
    const link = linkIn((await lastMail(t.app, invitee, 'user_invitation'))!.text);
    for (const [to, l] of [
      [invitee, link],
      [a.email, resetFor],
    ]) {
      const token = l.split('token=')[1];
      expect(token).toMatch(/^[0-9a-f]{64}$/);
      const rows: { row: string; link_sealed: string | null; text_body: string }[] = await db.query(
        `SELECT row_to_json(m)::text AS row, link_sealed, text_body FROM mail_messages m
            WHERE to_address = $1`,
        [to],
      );
      expect(rows).toHaveLength(1);
      expect(rows[0].row).not.toContain(token);
      expect(rows[0].row).not.toMatch(/[0-9a-f]{64}/);
      expect(rows[0].text_body).toContain('[link withheld]');
      // Sent: the sealed link is gone too.
      expect(rows[0].link_sealed).toBeNull();
      const stored: { row: string }[] = await db.query(
        `SELECT row_to_json(t)::text AS row FROM user_tokens t WHERE token_hash = $1`,
        [createHash('sha256').update(token).digest('hex')],
      );
      expect(stored).toHaveLength(1);
      expect(stored[0].row).not.toContain(token);
    }
    // The hash-only row still serves the link the e-mail carried.
    const browser = request.agent(t.app.getHttpServer());
    const form = await browser.get(link).expect(200);
    const password = 'the invitee password';
    const accepted = await browser
      .post('/app/login/invitation')
      .type('form')
      .send({
        _csrf: csrfOf(form.text),
        token: link.split('token=')[1],
        password,
        password_confirmation: password,
      });
    expect(accepted.status).toBe(302);
    await signIn(t.app, invitee, password);
  });

  it('a reset link mailed before a password change no longer works after it', async () => {
    const a = await createAccount(t.app);
    const link = await resetLink(a);
    await http().get(link).expect(200);
    const { agent } = await signIn(t.app, a.email, a.password);
    const changed = await postForm(agent, '/app/account/', '/app/account/password', {
      current_password: a.password,
      new_password: 'a password chosen after',
      new_password_confirmation: 'a password chosen after',
    });
    expect(changed.status).toBe(302);
    const dead = await http().get(link);
    expect(dead.status).toBe(410);
    // Nor can the form be posted with it.
    const browser = request.agent(t.app.getHttpServer());
    const page = await browser.get('/app/login/forgot');
    const used = await browser
      .post('/app/login/reset')
      .type('form')
      .send({
        _csrf: csrfOf(page.text),
        token: link.split('token=')[1],
        password: 'the attacker password',
        password_confirmation: 'the attacker password',
      });
    expect(used.status).toBe(410);
    await signIn(t.app, a.email, 'a password chosen after');
  });

  it('a reset link no longer works after "sign out everywhere"', async () => {
    const a = await createAccount(t.app);
    const link = await resetLink(a);
    const { agent } = await signIn(t.app, a.email, a.password);
    const page = await agent.get('/app/account/').expect(200);
    await agent
      .post('/app/account/sessions/end-all')
      .type('form')
      .send({ _csrf: csrfOf(page.text) })
      .expect(302);
    expect((await http().get(link)).status).toBe(410);
    // The password is unchanged: the person signs in with it.
    await signIn(t.app, a.email, a.password);
  });

  it('records ending one session, signing out everywhere and a wrong current password', async () => {
    const a = await createAccount(t.app);
    const here = await signIn(t.app, a.email, a.password);
    await signIn(t.app, a.email, a.password);
    const wrong = await postForm(here.agent, '/app/account/', '/app/account/password', {
      current_password: 'not the current password',
      new_password: 'whatever new password',
      new_password_confirmation: 'whatever new password',
    });
    expect(wrong.status).toBe(400);
    const page = await here.agent.get('/app/account/').expect(200);
    const other = /action="\/app\/account\/sessions\/([0-9a-f]+)\/end"/.exec(page.text)![1];
    await here.agent
      .post(`/app/account/sessions/${other}/end`)
      .type('form')
      .send({ _csrf: csrfOf(page.text) })
      .expect(302);
    // A session already ended is no event.
    await here.agent
      .post(`/app/account/sessions/${other}/end`)
      .type('form')
      .send({ _csrf: csrfOf(page.text) })
      .expect(302);
    await here.agent
      .post('/app/account/sessions/end-all')
      .type('form')
      .send({ _csrf: csrfOf(page.text) })
      .expect(302);
    expect(await events(a.accountId)).toEqual([
      { action: 'change_failed', resource_type: 'password', resource_id: a.email },
      { action: 'end', resource_type: 'session', resource_id: other },
      { action: 'end_all', resource_type: 'session', resource_id: null },
    ]);
    const listed = await http()
      .get('/api/auth/v1/audit-events/?resource_type=session')
      .set(a.auth)
      .expect(200);
    const actions = (listed.body.result as { action: string; actor: string }[]).map(
      (e) => `${e.action} ${e.actor}`,
    );
    expect(actions).toEqual(expect.arrayContaining([`end ${a.email}`, `end_all ${a.email}`]));
  });
});

describe('the session cookie in production (https)', () => {
  let t: TestApp;
  let a: TestAccount;

  beforeAll(async () => {
    t = await createTestApp({
      env: {
        NODE_ENV: 'production',
        APP_ENCRYPTION_KEY: 'cd'.repeat(32),
        SESSION_SECRET: 'a-production-session-secret',
        PUBLIC_URL: 'https://vision.example.test',
        PASSWORD_HASH_COST: '14',
      },
    });
    a = await createAccount(t.app);
  });
  afterAll(() => t.close());

  it('is __Host-vision.sid: Secure, HttpOnly, Path=/, no Domain, SameSite=Lax; sign-out clears it', async () => {
    // TLS ends at the proxy in front (loopback is trusted by default).
    const https = (r: request.Test) => r.set('X-Forwarded-Proto', 'https');
    const server = t.app.getHttpServer();
    const page = await https(request(server).get('/app/login')).expect(200);
    const first = (page.headers['set-cookie'] as unknown as string[])[0];
    const jar = first.split(';')[0];
    const signedIn = await https(request(server).post('/app/login'))
      .set('Cookie', jar)
      .type('form')
      .send({ _csrf: csrfOf(page.text), email: a.email, password: a.password });
    expect(signedIn.status).toBe(302);
    expect(signedIn.headers.location).toBe('/app/');
    const cookie = (signedIn.headers['set-cookie'] as unknown as string[])[0];
    for (const c of [first, cookie]) {
      const attrs = c.split('; ');
      expect(attrs[0]).toMatch(/^__Host-vision\.sid=s%3A/);
      expect(attrs).toEqual(
        expect.arrayContaining(['Path=/', 'HttpOnly', 'Secure', 'SameSite=Lax']),
      );
      expect(attrs.some((x) => /^Domain=/i.test(x))).toBe(false);
    }
    const session = cookie.split(';')[0];
    const home = await https(request(server).get('/app/')).set('Cookie', session).expect(200);
    const out = await https(request(server).post('/app/logout'))
      .set('Cookie', session)
      .type('form')
      .send({ _csrf: csrfOf(home.text) });
    expect(out.status).toBe(302);
    const cleared = (out.headers['set-cookie'] as unknown as string[])[0];
    expect(cleared).toMatch(/^__Host-vision\.sid=; Path=\/; Expires=Thu, 01 Jan 1970/);
    expect(cleared).toContain('Secure');
  });

  it('without SMTP_URL, writes reset e-mails without their link: no file holds a working token', async () => {
    await t.app.get(UserAccessService).forgotPassword(a.email);
    const delivered = (await lastMail(t.app, a.email, 'password_reset'))!;
    expect(delivered.text).toContain('Choose a new password here');
    expect(delivered.text).toContain('[link withheld]');
    expect(`${delivered.text}${delivered.html}`).not.toMatch(/[0-9a-f]{64}/);
    const rows: { link_sealed: string | null }[] = await t.app
      .get(DataSource)
      .query(`SELECT link_sealed FROM mail_messages WHERE to_address = $1`, [a.email]);
    expect(rows).toEqual([{ link_sealed: null }]);
  });
});
