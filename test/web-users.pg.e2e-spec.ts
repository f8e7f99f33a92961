import request from 'supertest';
import { DataSource } from 'typeorm';
import { ADMIN_ONLY_MESSAGE } from '@/modules/web/web-roles';
import { FORGOT_ANSWER } from '@/modules/web/pages/web-password.controller';
import { createTestApp, TestApp } from './support/app';
import { createAccount, TestAccount } from './support/factories';
import {
  createUser,
  csrfOf,
  editSession,
  lastMail,
  linkIn,
  postForm,
  signIn,
} from './support/web-sign-in';

/**
 * SECURITY.md, people instead of one shared login: roles, invitations, password change and
 * reset, sessions (list, end, timeouts), each over HTTP against the real application.
 */
describe('web users, roles and sessions', () => {
  let t: TestApp;
  let a: TestAccount;
  let db: DataSource;

  beforeAll(async () => {
    t = await createTestApp();
    a = await createAccount(t.app);
    db = t.app.get(DataSource);
  });
  afterAll(() => t.close());

  const http = () => request(t.app.getHttpServer());

  /** Security events about users and passwords of the account, oldest first. */
  async function peopleEvents(accountId: string) {
    const rows: { actor: string; action: string; resource_type: string; resource_id: string }[] =
      await db.query(
        `SELECT actor, action, resource_type, resource_id FROM audit_events
          WHERE account_id = $1 AND resource_type IN ('user', 'password') ORDER BY created_at, id`,
        [accountId],
      );
    return rows;
  }

  it('gives staff 403 on the admin pages and forms, hides their links, and opens the rest', async () => {
    const staff = await createUser(t.app, a.accountId, 'staff');
    const { agent } = await signIn(t.app, staff.email, staff.password);
    for (const path of [
      '/app/api-keys/',
      '/app/webhooks/',
      '/app/users/',
      '/app/settings/',
      '/app/locations/',
      '/app/insurers',
      '/app/passwords',
      '/app/audit/',
    ]) {
      const res = await agent.get(path);
      expect([path, res.status]).toEqual([path, 403]);
      expect(res.text).toContain(ADMIN_ONLY_MESSAGE);
    }
    const dashboard = await agent.get('/app/').expect(200);
    // A key cannot be created by posting the form directly either.
    const created = await agent
      .post('/app/api-keys/')
      .type('form')
      .send({ _csrf: csrfOf(dashboard.text), name: 'sneaky', scopes: 'patients:read' });
    expect(created.status).toBe(403);
    const keys: { n: number }[] = await db.query(
      `SELECT count(*)::int AS n FROM api_keys WHERE account_id = $1 AND name = 'sneaky'`,
      [a.accountId],
    );
    expect(keys[0].n).toBe(0);
    const invite = await agent
      .post('/app/users/')
      .type('form')
      .send({ _csrf: csrfOf(dashboard.text), email: 'friend@practice.test', role: 'admin' });
    expect(invite.status).toBe(403);
    const requirement = await agent
      .post('/app/two-factor/requirement')
      .type('form')
      .send({ _csrf: csrfOf(dashboard.text), require_two_factor: 'true' });
    expect(requirement.status).toBe(403);

    for (const hidden of ['/app/api-keys/', '/app/webhooks/', '/app/users/', '/app/settings/'])
      expect(dashboard.text).not.toContain(`href="${hidden}"`);
    expect(dashboard.text).toContain('href="/app/patients/"');
    await agent.get('/app/patients/').expect(200);
    await agent.get('/app/claims/').expect(200);
    await agent.get('/app/batches/').expect(200);
    await agent.get('/app/eligibility/new').expect(200);
    await agent.get('/app/two-factor/').expect(200);
    await agent.get('/app/account/').expect(200);

    // The admin of the same account sees the links and opens the pages.
    const admin = await signIn(t.app, a.email, a.password);
    const home = await admin.agent.get('/app/').expect(200);
    expect(home.text).toContain('href="/app/api-keys/"');
    expect(home.text).toContain('href="/app/users/"');
    await admin.agent.get('/app/api-keys/').expect(200);
    await admin.agent.get('/app/users/').expect(200);
  });

  it('records two users of one account as two actors in the audit trail', async () => {
    const account = await createAccount(t.app);
    const staff = await createUser(t.app, account.accountId, 'staff');
    const patient = await http()
      .post('/api/auth/v1/patients/')
      .set(account.auth)
      .send({ first_name: 'Ines', last_name: 'Ortega', dob: '1984-02-03' })
      .expect(200);
    const code = patient.body.code as string;
    for (const who of [
      { email: account.email, password: account.password },
      { email: staff.email, password: staff.password },
    ]) {
      const { agent } = await signIn(t.app, who.email, who.password);
      await agent.get(`/app/patients/${code}`).expect(200);
    }
    const events = await http()
      .get(`/api/auth/v1/audit-events/?resource_type=patient&resource_id=${code}`)
      .set(account.auth)
      .expect(200);
    const webReads = (
      events.body.result as { actor_type: string; actor: string; action: string }[]
    ).filter((e) => e.actor_type === 'user' && e.action === 'read');
    expect(webReads.map((e) => e.actor).sort()).toEqual([account.email, staff.email].sort());
    const users: { actor: string; user_id: string }[] = await db.query(
      `SELECT DISTINCT actor, user_id FROM audit_events
        WHERE account_id = $1 AND resource_id = $2 AND actor_type = 'user'`,
      [account.accountId, code],
    );
    expect(new Set(users.map((u) => u.user_id)).size).toBe(2);
  });

  it('invites by e-mail: the link sets a password of 12 characters or more, once', async () => {
    const account = await createAccount(t.app);
    const admin = await signIn(t.app, account.email, account.password);
    const email = `new-${Date.now()}@practice.test`;
    const sent = await postForm(admin.agent, '/app/users/', '/app/users/', {
      email,
      role: 'staff',
    });
    expect(sent.status).toBe(302);
    const list = await admin.agent.get('/app/users/').expect(200);
    expect(list.text).toContain(`Invitation sent to ${email}.`);
    expect(list.text).toMatch(new RegExp(`data-user="${email}"[\\s\\S]*?invited`));

    const mail = await lastMail(t.app, email, 'user_invitation');
    expect(mail?.text).toContain('72 hours');
    const link = linkIn(mail!.text);
    expect(link).toMatch(/^\/app\/login\/invitation\?token=[0-9a-f]{64}$/);
    // Only the token's hash is stored.
    const token = link.split('token=')[1];
    const stored: { n: number }[] = await db.query(
      `SELECT count(*)::int AS n FROM user_tokens WHERE token_hash = $1`,
      [token],
    );
    expect(stored[0].n).toBe(0);

    // An invited user cannot sign in before choosing a password.
    const before = request.agent(t.app.getHttpServer());
    const loginPage = await before.get('/app/login');
    await before
      .post('/app/login')
      .type('form')
      .send({ _csrf: csrfOf(loginPage.text), email, password: 'any password at all' })
      .expect(401);

    const invitee = request.agent(t.app.getHttpServer());
    const form = await invitee.get(link).expect(200);
    expect(form.text).toContain(email);
    const short = await invitee
      .post('/app/login/invitation')
      .type('form')
      .send({
        _csrf: csrfOf(form.text),
        token,
        password: 'elevenchars',
        password_confirmation: 'elevenchars',
      });
    expect(short.status).toBe(400);
    expect(short.text).toContain('Ensure this field has at least 12 characters.');
    // The refused attempt did not use the link up.
    const password = 'twelve chars!';
    const accepted = await invitee
      .post('/app/login/invitation')
      .type('form')
      .send({ _csrf: csrfOf(short.text), token, password, password_confirmation: password });
    expect(accepted.status).toBe(302);
    expect(accepted.headers.location).toBe('/app/login');

    const again = await invitee.get(link);
    expect(again.status).toBe(410);
    const replay = await invitee
      .post('/app/login/invitation')
      .type('form')
      .send({
        _csrf: csrfOf((await invitee.get('/app/login')).text),
        token,
        password: 'another password',
        password_confirmation: 'another password',
      });
    expect(replay.status).toBe(410);

    const { agent } = await signIn(t.app, email, password);
    await agent.get('/app/patients/').expect(200);
    await agent.get('/app/api-keys/').expect(403);
    expect(await peopleEvents(account.accountId)).toEqual([
      { actor: account.email, action: 'invite', resource_type: 'user', resource_id: email },
      { actor: email, action: 'accept', resource_type: 'user', resource_id: email },
    ]);
  });

  it('refuses an invitation link past its 72 hours', async () => {
    const account = await createAccount(t.app);
    const admin = await signIn(t.app, account.email, account.password);
    const email = `late-${Date.now()}@practice.test`;
    await postForm(admin.agent, '/app/users/', '/app/users/', { email, role: 'admin' });
    const link = linkIn((await lastMail(t.app, email, 'user_invitation'))!.text);
    const lifetime: { hours: number }[] = await db.query(
      `SELECT extract(epoch FROM t.expires_at - t.created_at) / 3600 AS hours FROM user_tokens t
         JOIN users u ON u.id = t.user_id WHERE u.email = $1`,
      [email],
    );
    expect(Number(lifetime[0].hours)).toBeCloseTo(72, 3);
    // As if 72 hours and a minute had passed.
    await db.query(
      `UPDATE user_tokens SET expires_at = now() - interval '1 minute'
        WHERE user_id = (SELECT id FROM users WHERE email = $1)`,
      [email],
    );
    const invitee = request.agent(t.app.getHttpServer());
    const page = await invitee.get(link);
    expect(page.status).toBe(410);
    expect(page.text).toContain('72 hours');
    const post = await invitee
      .post('/app/login/invitation')
      .type('form')
      .send({
        _csrf: csrfOf((await invitee.get('/app/login')).text),
        token: link.split('token=')[1],
        password: 'a fine password',
        password_confirmation: 'a fine password',
      });
    expect(post.status).toBe(410);
    const users: { password_hash: string | null }[] = await db.query(
      `SELECT password_hash FROM users WHERE email = $1`,
      [email],
    );
    expect(users[0].password_hash).toBeNull();
  });

  it('answers "forgot password" the same whether or not the e-mail exists, and mails a 1 h single-use link', async () => {
    const account = await createAccount(t.app);
    const unknown = `nobody-${Date.now()}@practice.test`;
    const ask = async (email: string) => {
      const agent = request.agent(t.app.getHttpServer());
      const page = await agent.get('/app/login/forgot').expect(200);
      return agent
        .post('/app/login/forgot')
        .type('form')
        .send({ _csrf: csrfOf(page.text), email });
    };
    const known = await ask(account.email);
    const missing = await ask(unknown);
    expect(known.status).toBe(200);
    expect(missing.status).toBe(known.status);
    expect(known.text).toContain(FORGOT_ANSWER);
    const strip = (html: string) => html.replace(/name="_csrf" value="[^"]+"/g, '');
    expect(strip(missing.text)).toBe(strip(known.text));
    expect(await lastMail(t.app, unknown, 'password_reset')).toBeNull();

    const signedIn = await signIn(t.app, account.email, account.password);
    const mail = await lastMail(t.app, account.email, 'password_reset', 15_000);
    const link = linkIn(mail!.text);
    expect(link).toMatch(/^\/app\/login\/reset\?token=[0-9a-f]{64}$/);
    const lifetime: { minutes: number }[] = await db.query(
      `SELECT extract(epoch FROM t.expires_at - t.created_at) / 60 AS minutes FROM user_tokens t
         JOIN users u ON u.id = t.user_id WHERE u.email = $1 AND t.purpose = 'password_reset'`,
      [account.email],
    );
    expect(Number(lifetime[0].minutes)).toBeCloseTo(60, 3);

    const browser = request.agent(t.app.getHttpServer());
    const form = await browser.get(link).expect(200);
    const token = link.split('token=')[1];
    const password = 'a brand new password';
    const reset = await browser
      .post('/app/login/reset')
      .type('form')
      .send({ _csrf: csrfOf(form.text), token, password, password_confirmation: password });
    expect(reset.status).toBe(302);
    // The session open before the reset has ended; the old password no longer works.
    const old = await signedIn.agent.get('/app/patients/');
    expect(old.status).toBe(302);
    expect(old.headers.location).toMatch(/^\/app\/login/);
    await expect(signIn(t.app, account.email, account.password)).rejects.toThrow();
    await signIn(t.app, account.email, password);
    // Once only.
    expect((await browser.get(link)).status).toBe(410);
    expect(await peopleEvents(account.accountId)).toEqual([
      {
        actor: account.email,
        action: 'reset',
        resource_type: 'password',
        resource_id: account.email,
      },
    ]);
  });

  it('ends the other sessions when the password changes, and keeps this one', async () => {
    const account = await createAccount(t.app);
    const here = await signIn(t.app, account.email, account.password);
    const elsewhere = await signIn(t.app, account.email, account.password);
    await elsewhere.agent.get('/app/').expect(200);

    const wrong = await postForm(here.agent, '/app/account/', '/app/account/password', {
      current_password: 'not the password',
      new_password: 'another long password',
      new_password_confirmation: 'another long password',
    });
    expect(wrong.status).toBe(400);
    expect(wrong.text).toContain('The current password is not right.');
    await elsewhere.agent.get('/app/').expect(200);

    const changed = await postForm(here.agent, '/app/account/', '/app/account/password', {
      current_password: account.password,
      new_password: 'another long password',
      new_password_confirmation: 'another long password',
    });
    expect(changed.status).toBe(302);
    const page = await here.agent.get('/app/account/').expect(200);
    expect(page.text).toContain('Password changed. Your other sessions have been signed out.');
    const gone = await elsewhere.agent.get('/app/');
    expect(gone.status).toBe(302);
    expect(gone.headers.location).toBe('/app/login?next=%2Fapp%2F');
    // The list shows this session only.
    expect(page.text.match(/data-session=/g)).toHaveLength(1);
    expect(await peopleEvents(account.accountId)).toEqual([
      {
        actor: account.email,
        action: 'change_failed',
        resource_type: 'password',
        resource_id: account.email,
      },
      {
        actor: account.email,
        action: 'change',
        resource_type: 'password',
        resource_id: account.email,
      },
    ]);
  });

  it('lists the sessions, ends one, and signs out everywhere', async () => {
    const account = await createAccount(t.app);
    const one = await signIn(t.app, account.email, account.password);
    const two = await signIn(t.app, account.email, account.password);
    const three = await signIn(t.app, account.email, account.password);
    const page = await one.agent.get('/app/account/').expect(200);
    const handles = [...page.text.matchAll(/data-session="([0-9a-f]+)"/g)].map((m) => m[1]);
    expect(handles).toHaveLength(3);
    expect(page.text).toContain('this browser');
    expect(page.text).not.toContain(two.sid);

    const other = [...page.text.matchAll(/action="\/app\/account\/sessions\/([0-9a-f]+)\/end"/g)];
    expect(other).toHaveLength(2);
    await one.agent
      .post(`/app/account/sessions/${other[0][1]}/end`)
      .type('form')
      .send({ _csrf: csrfOf(page.text) })
      .expect(302);
    const alive = await Promise.all(
      [two, three].map(async (s) => (await s.agent.get('/app/')).status),
    );
    expect(alive.sort()).toEqual([200, 302]);

    const before = await one.agent.get('/app/account/');
    const out = await one.agent
      .post('/app/account/sessions/end-all')
      .type('form')
      .send({ _csrf: csrfOf(before.text) });
    expect(out.headers.location).toBe('/app/login');
    for (const s of [one, two, three]) expect((await s.agent.get('/app/')).status).toBe(302);
  });

  it('signs a session out after 30 minutes idle, and 12 hours after sign-in however busy', async () => {
    const idle = await signIn(t.app, a.email, a.password);
    await editSession(t.app, idle.sid, (s) => {
      s.lastSeenAt = Date.now() - 29 * 60_000;
    });
    await idle.agent.get('/app/').expect(200);
    await editSession(t.app, idle.sid, (s) => {
      s.lastSeenAt = Date.now() - 30 * 60_000 - 1000;
    });
    const timedOut = await idle.agent.get('/app/patients/');
    expect(timedOut.status).toBe(302);
    expect(timedOut.headers.location).toBe('/app/login?next=%2Fapp%2Fpatients%2F');
    expect((await idle.agent.get('/app/')).status).toBe(302);

    const busy = await signIn(t.app, a.email, a.password);
    await editSession(t.app, busy.sid, (s) => {
      s.signedInAt = Date.now() - 11 * 3600_000;
    });
    await busy.agent.get('/app/').expect(200);
    await editSession(t.app, busy.sid, (s) => {
      s.signedInAt = Date.now() - 12 * 3600_000 - 1000;
      s.lastSeenAt = Date.now();
    });
    expect((await busy.agent.get('/app/')).status).toBe(302);
  });

  it('disables a user at once, and keeps at least one enabled admin', async () => {
    const account = await createAccount(t.app);
    const admin = await signIn(t.app, account.email, account.password);
    const staff = await createUser(t.app, account.accountId, 'staff');
    const staffSession = await signIn(t.app, staff.email, staff.password);
    await staffSession.agent.get('/app/').expect(200);
    const ids: { id: string; email: string }[] = await db.query(
      `SELECT id, email FROM users WHERE account_id = $1`,
      [account.accountId],
    );
    const idOf = (email: string) => ids.find((u) => u.email === email)!.id;

    await postForm(admin.agent, '/app/users/', `/app/users/${idOf(staff.email)}/disable`, {});
    expect((await staffSession.agent.get('/app/')).status).toBe(302);
    await expect(signIn(t.app, staff.email, staff.password)).rejects.toThrow();

    // The only admin can neither step down nor be disabled.
    await postForm(admin.agent, '/app/users/', `/app/users/${idOf(account.email)}/role`, {
      role: 'staff',
    });
    let list = await admin.agent.get('/app/users/').expect(200);
    expect(list.text).toContain('An account keeps at least one enabled admin.');
    await postForm(admin.agent, '/app/users/', `/app/users/${idOf(account.email)}/disable`, {});
    list = await admin.agent.get('/app/users/').expect(200);
    expect(list.text).toContain('An account keeps at least one enabled admin.');

    // With a second admin, the first may step down: their pages close at once.
    await postForm(admin.agent, '/app/users/', `/app/users/${idOf(staff.email)}/enable`, {});
    await postForm(admin.agent, '/app/users/', `/app/users/${idOf(staff.email)}/role`, {
      role: 'admin',
    });
    await postForm(admin.agent, '/app/users/', `/app/users/${idOf(account.email)}/role`, {
      role: 'staff',
    });
    expect((await admin.agent.get('/app/users/')).status).toBe(403);
    const events = await peopleEvents(account.accountId);
    expect(events.map((e) => [e.action, e.resource_id])).toEqual([
      ['disable', staff.email],
      ['enable', staff.email],
      ['update', staff.email],
      ['update', account.email],
    ]);
    expect(new Set(events.map((e) => e.actor))).toEqual(new Set([account.email]));
  });

  it('keeps CSRF on the new forms', async () => {
    const { agent } = await signIn(t.app, a.email, a.password);
    for (const [path, body] of [
      ['/app/account/password', { current_password: a.password }],
      ['/app/users/', { email: 'x@practice.test', role: 'staff' }],
      ['/app/account/sessions/end-all', {}],
    ] as const) {
      const res = await agent.post(path).type('form').send(body);
      expect([path, res.status]).toEqual([path, 403]);
      expect(res.text).toContain('This form has expired');
    }
    const forgot = await request
      .agent(t.app.getHttpServer())
      .post('/app/login/forgot')
      .type('form')
      .send({ email: a.email });
    expect(forgot.status).toBe(403);
  });
});
