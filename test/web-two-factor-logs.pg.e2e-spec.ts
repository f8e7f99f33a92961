import request from 'supertest';
import { createTestApp } from './support/app';
import { createAccount } from './support/factories';
import { TestAuthenticator } from './support/totp';

type Agent = ReturnType<typeof request.agent>;

const csrfOf = (html: string) => /name="_csrf" value="([^"]+)"/.exec(html)![1];

// Its own file (a fresh module registry): nestjs-pino's application logger is process-wide, so
// the logs of this app are read without the apps of other tests in between.
describe('web two-factor logs', () => {
  it('never contain the secret, a code or a recovery code', async () => {
    const writes: string[] = [];
    const spy = jest
      .spyOn(process.stdout, 'write')
      .mockImplementation((chunk: string | Uint8Array) => {
        writes.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString());
        return true;
      });
    const t = await createTestApp({ env: { LOG_LEVEL: 'debug' } });
    const seen: string[] = [];
    try {
      const a = await createAccount(t.app);
      const server = t.app.getHttpServer();
      const login = async (agent: Agent) => {
        const csrf = csrfOf((await agent.get('/app/login')).text);
        await agent
          .post('/app/login')
          .type('form')
          .send({ _csrf: csrf, email: a.email, password: a.password });
      };
      const agent = request.agent(server);
      await login(agent);
      const page = await agent.get('/app/two-factor/enrol');
      const secret = /id="totp-secret">([A-Z2-7]+)</.exec(page.text)![1];
      const authenticator = new TestAuthenticator(secret);
      const enrolCode = await authenticator.code();
      const done = await agent
        .post('/app/two-factor/enrol')
        .type('form')
        .send({ _csrf: csrfOf(page.text), code: enrolCode });
      const recovery = [...done.text.matchAll(/<li>([0-9a-z]{5}-[0-9a-z]{5})<\/li>/g)].map(
        (m) => m[1],
      );
      expect(recovery).toHaveLength(10);
      const wrong = authenticator.wrongCode();
      const signInCode = await authenticator.code();
      for (const code of [wrong, signInCode, recovery[0]]) {
        const fresh = request.agent(server);
        await login(fresh);
        const csrf = csrfOf((await fresh.get('/app/login/code')).text);
        await fresh.post('/app/login/code').type('form').send({ _csrf: csrf, code });
      }
      seen.push(
        secret,
        enrolCode,
        wrong,
        signInCode,
        ...recovery,
        ...recovery.map((c) => c.replace('-', '')),
      );
    } finally {
      await t.close();
      spy.mockRestore();
    }
    const text = writes.join('');
    expect(text).toContain('two-factor sign-in enabled');
    expect(text).toContain('two-factor recovery code used');
    for (const value of seen) expect(text).not.toContain(value);
  });
});
