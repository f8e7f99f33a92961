import request from 'supertest';
import { runCli } from './support/cli';
import { createTestApp, TestApp } from './support/app';
import { createAccount, TestAccount } from './support/factories';

describe('CLI --scopes (SECURITY.md)', () => {
  let t: TestApp;
  let a: TestAccount;

  beforeAll(async () => {
    t = await createTestApp();
    a = await createAccount(t.app);
  });
  afterAll(() => t.close());

  it('api-keys:create --scopes makes a key limited to them', async () => {
    const out = await runCli([
      'api-keys:create',
      '--email',
      a.email,
      '--scopes',
      'eligibility:read,patients:write',
    ]);
    expect(out.stderr).toBe('');
    expect(out.code).toBe(0);
    const body = JSON.parse(out.stdout.trim());
    expect(body.scopes).toEqual(['eligibility:read', 'patients:write']);
    const auth = { Authorization: `Api ${body.api_key}` };
    const http = () => request(t.app.getHttpServer());
    await http().get('/api/auth/v1/patients/').set(auth).expect(200);
    const claims = await http().get('/api/auth/v1/claims/').set(auth);
    expect(claims.status).toBe(403);
    expect(claims.body).toEqual({ detail: 'This API key is not allowed to read claims.' });
  });

  it('refuses an unknown scope with a clear message and a non-zero exit', async () => {
    const out = await runCli([
      'api-keys:create',
      '--email',
      a.email,
      '--scopes',
      'patients:delete',
    ]);
    expect(out.code).toBe(1);
    expect(out.stdout).toBe('');
    expect(JSON.parse(out.stderr.trim()).error).toMatch(/unknown scope patients:delete/);
  });
});
