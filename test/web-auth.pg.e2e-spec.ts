import request from 'supertest';
import { createTestApp, TestApp } from './support/app';
import { createAccount, TestAccount } from './support/factories';

/** Sign-in rules of the web application, over plain HTTP (the browser suite covers the pages). */
describe('web sign-in', () => {
  let t: TestApp;
  let a: TestAccount;

  beforeAll(async () => {
    t = await createTestApp();
    a = await createAccount(t.app);
  });
  afterAll(() => t.close());

  async function loginForm(agent: ReturnType<typeof request.agent>) {
    const page = await agent.get('/app/login');
    expect(page.status).toBe(200);
    return /name="_csrf" value="([^"]+)"/.exec(page.text)![1];
  }

  it('sends signed-out visitors to the sign-in page and sets a strict CSP', async () => {
    const res = await request(t.app.getHttpServer()).get('/app/patients/');
    expect(res.status).toBe(302);
    expect(res.headers.location).toBe('/app/login?next=%2Fapp%2Fpatients%2F');
    const login = await request(t.app.getHttpServer()).get('/app/login');
    expect(login.headers['content-security-policy']).toContain("frame-ancestors 'self'");
    expect(login.headers['content-security-policy']).toContain("script-src 'self'");
    expect(login.headers['x-content-type-options']).toBe('nosniff');
    expect(login.headers['set-cookie'][0]).toMatch(/^vision\.sid=.*HttpOnly; SameSite=Lax$/);
  });

  it('signs in, follows only local next paths, and signs out', async () => {
    const agent = request.agent(t.app.getHttpServer());
    const csrf = await loginForm(agent);
    const res = await agent.post('/app/login').type('form').send({
      _csrf: csrf,
      email: a.email.toUpperCase(),
      password: a.password,
      next: 'https://evil.test/',
    });
    expect(res.status).toBe(302);
    expect(res.headers.location).toBe('/app/');
    const dashboard = await agent.get('/app/');
    expect(dashboard.status).toBe(200);
    expect(dashboard.text).toContain(a.email);
    const token = /name="_csrf" value="([^"]+)"/.exec(dashboard.text)![1];
    expect(token).not.toBe(csrf); // a new session on sign-in
    const out = await agent.post('/app/logout').type('form').send({ _csrf: token });
    expect(out.headers.location).toBe('/app/login');
    expect((await agent.get('/app/')).status).toBe(302);
  });

  it('refuses a sign-in without its CSRF token', async () => {
    const agent = request.agent(t.app.getHttpServer());
    await loginForm(agent);
    const res = await agent
      .post('/app/login')
      .type('form')
      .send({ email: a.email, password: a.password });
    expect(res.status).toBe(403);
    expect(res.text).toContain('This form has expired');
  });

  it('throttles repeated failed sign-ins for an e-mail, even with the right password after', async () => {
    const victim = await createAccount(t.app);
    const agent = request.agent(t.app.getHttpServer());
    for (let i = 0; i < 5; i++) {
      const csrf = await loginForm(agent);
      const res = await agent
        .post('/app/login')
        .type('form')
        .send({ _csrf: csrf, email: victim.email, password: `wrong-${i}` });
      expect(res.status).toBe(401);
      expect(res.text).toContain('The e-mail or password is not right.');
    }
    const csrf = await loginForm(agent);
    const blocked = await agent
      .post('/app/login')
      .type('form')
      .send({ _csrf: csrf, email: victim.email, password: victim.password });
    expect(blocked.status).toBe(429);
    expect(blocked.text).toContain('Too many failed sign-in attempts');
    // Another user is not affected.
    const other = request.agent(t.app.getHttpServer());
    const token = await loginForm(other);
    expect(
      (
        await other
          .post('/app/login')
          .type('form')
          .send({ _csrf: token, email: a.email, password: a.password })
      ).status,
    ).toBe(302);
  });

  it('answers unknown pages and foreign objects with an HTML 404 page', async () => {
    const agent = request.agent(t.app.getHttpServer());
    const csrf = await loginForm(agent);
    await agent
      .post('/app/login')
      .type('form')
      .send({ _csrf: csrf, email: a.email, password: a.password });
    const other = await createAccount(t.app);
    const hooks = await request(t.app.getHttpServer())
      .post('/api/auth/v1/webhooks/')
      .set(other.auth)
      .send({ url: 'http://127.0.0.1:9/x' });
    const res = await agent.get(`/app/webhooks/${hooks.body.id}`);
    expect(res.status).toBe(404);
    expect(res.headers['content-type']).toContain('text/html');
    expect(res.text).toContain('not found');
    expect(res.text).not.toContain('127.0.0.1:9');
  });
});
