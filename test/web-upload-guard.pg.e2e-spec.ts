import { request as httpRequest, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { createTestApp, TestApp } from './support/app';
import { createAccount, TestAccount } from './support/factories';

const csrfOf = (html: string) => /name="_csrf" value="([^"]+)"/.exec(html)![1];
const BOUNDARY = 'issue27boundary';

/**
 * Issue 27: the batch CSV upload (up to 8 MiB) was buffered before sign-in and CSRF were
 * checked. Each request here starts a multipart body and never finishes it: a server that reads
 * the upload before checking waits for the rest and never answers; one that checks first answers.
 */
describe('multipart uploads are read only after sign-in and CSRF (issue 27)', () => {
  let t: TestApp;
  let a: TestAccount;
  let port: number;

  beforeAll(async () => {
    t = await createTestApp();
    a = await createAccount(t.app);
    const server = t.app.getHttpServer();
    if (!server.listening) await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => t.close());

  /** Sends the opening of an upload (fields, then a file part) and waits for an answer. */
  function unfinishedUpload(
    fields: Record<string, string>,
    cookie?: string,
  ): Promise<IncomingMessage | 'no answer'> {
    return new Promise((resolve, reject) => {
      const req = httpRequest({
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: '/app/batches/',
        headers: {
          'Content-Type': `multipart/form-data; boundary=${BOUNDARY}`,
          'Content-Length': String(8 * 1024 * 1024),
          ...(cookie ? { Cookie: cookie } : {}),
        },
      });
      const timer = setTimeout(() => {
        req.destroy();
        resolve('no answer');
      }, 3000);
      req.on('response', (res) => {
        clearTimeout(timer);
        res.resume();
        req.destroy();
        resolve(res);
      });
      req.on('error', (e) => {
        clearTimeout(timer);
        if ((e as NodeJS.ErrnoException).code === 'ECONNRESET') resolve('no answer');
        else reject(e);
      });
      const parts = Object.entries(fields).map(
        ([name, value]) =>
          `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
      );
      req.write(
        `${parts.join('')}--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="p.csv"\r\n` +
          'Content-Type: text/csv\r\n\r\nfirst_name,last_name,dob\r\n',
      );
    });
  }

  async function signedIn(): Promise<{ cookie: string; csrf: string }> {
    const agent = request.agent(t.app.getHttpServer());
    const login = await agent.get('/app/login');
    const res = await agent
      .post('/app/login')
      .type('form')
      .send({ _csrf: csrfOf(login.text), email: a.email, password: a.password });
    const cookie = (res.headers['set-cookie'] as unknown as string[])[0].split(';')[0];
    const page = await agent.get('/app/batches/');
    expect(page.status).toBe(200);
    return { cookie, csrf: csrfOf(page.text) };
  }

  it('answers a signed-out upload without reading it', async () => {
    const res = await unfinishedUpload({ _csrf: 'whatever' });
    expect(res).not.toBe('no answer');
    expect((res as IncomingMessage).statusCode).toBe(403);
  });

  it('answers a signed-in upload with a wrong CSRF token without reading its file', async () => {
    const { cookie } = await signedIn();
    const res = await unfinishedUpload({ _csrf: 'not-the-token' }, cookie);
    expect(res).not.toBe('no answer');
    expect((res as IncomingMessage).statusCode).toBe(403);
  });

  it('reads the file of a signed-in upload whose token comes first (it waits for the rest)', async () => {
    const { cookie, csrf } = await signedIn();
    expect(await unfinishedUpload({ _csrf: csrf }, cookie)).toBe('no answer');
  });
});
