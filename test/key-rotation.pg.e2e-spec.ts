import request from 'supertest';
import { createTestApp, TestApp } from './support/app';
import { createAccount, TestAccount } from './support/factories';
import { TestAuthenticator } from './support/totp';

type Agent = ReturnType<typeof request.agent>;

const OLD_KEY = '1f'.repeat(32);
const NEW_KEY = '2e'.repeat(32);
const csrfOf = (html: string) => /name="_csrf" value="([^"]+)"/.exec(html)![1];

/**
 * SECURITY.md, Keys: after APP_ENCRYPTION_KEY is rotated, what the previous key sealed (a
 * user's TOTP secret) and hashed (recovery codes) still works while APP_ENCRYPTION_KEY_PREVIOUS
 * names it, and only then.
 */
describe('rotating APP_ENCRYPTION_KEY', () => {
  let t: TestApp | null = null;
  let a: TestAccount;
  let authenticator: TestAuthenticator;
  let recovery: string[];

  const start = async (env: Record<string, string>, keepState = true) => {
    await t?.close();
    t = await createTestApp({ env, keepState });
  };
  afterAll(() => t?.close());

  const agentOf = () => request.agent(t!.app.getHttpServer());
  async function signIn(agent: Agent, code: string) {
    const login = csrfOf((await agent.get('/app/login')).text);
    await agent
      .post('/app/login')
      .type('form')
      .send({ _csrf: login, email: a.email, password: a.password });
    const step = csrfOf((await agent.get('/app/login/code')).text);
    return agent.post('/app/login/code').type('form').send({ _csrf: step, code });
  }

  beforeAll(async () => {
    await start({ APP_ENCRYPTION_KEY: OLD_KEY }, false);
    a = await createAccount(t!.app);
    const agent = agentOf();
    const login = csrfOf((await agent.get('/app/login')).text);
    await agent
      .post('/app/login')
      .type('form')
      .send({ _csrf: login, email: a.email, password: a.password });
    const page = await agent.get('/app/two-factor/enrol');
    authenticator = new TestAuthenticator(/id="totp-secret">([A-Z2-7]+)</.exec(page.text)![1]);
    const done = await agent
      .post('/app/two-factor/enrol')
      .type('form')
      .send({ _csrf: csrfOf(page.text), code: await authenticator.code() });
    recovery = [...done.text.matchAll(/<li>([0-9a-z]{5}-[0-9a-z]{5})<\/li>/g)].map((m) => m[1]);
    expect(recovery).toHaveLength(10);
  });

  it('without the previous key, what the old key sealed and hashed no longer signs in', async () => {
    await start({ APP_ENCRYPTION_KEY: NEW_KEY });
    expect((await signIn(agentOf(), await authenticator.code())).headers.location).not.toBe(
      '/app/',
    );
    expect((await signIn(agentOf(), recovery[0])).headers.location).not.toBe('/app/');
  });

  it('with APP_ENCRYPTION_KEY_PREVIOUS, the TOTP secret opens and recovery codes are accepted', async () => {
    await start({ APP_ENCRYPTION_KEY: NEW_KEY, APP_ENCRYPTION_KEY_PREVIOUS: OLD_KEY });
    expect((await signIn(agentOf(), await authenticator.code())).headers.location).toBe('/app/');
    const withRecovery = agentOf();
    expect((await signIn(withRecovery, recovery[1])).headers.location).toBe('/app/');
    expect((await withRecovery.get('/app/')).text).toContain('9 unused recovery codes left');
    // Still each usable once.
    expect((await signIn(agentOf(), recovery[1])).headers.location).not.toBe('/app/');
  });
});
