import request from 'supertest';
import { DataSource } from 'typeorm';
import { ApiKeysService } from '@/modules/auth/domain/api-keys.service';
import { EMBEDDED_SESSION_MS } from '@/modules/web/embedded-session';
import { createTestApp, TestApp } from './support/app';
import { NO_FRAMING_ORIGIN } from '@/modules/iframe-session/domain/iframe-session.service';
import { createAccount, TestAccount } from './support/factories';
import { patient, startSearch, waitForResult } from './support/eligibility';

type Agent = ReturnType<typeof request.agent>;

const csrfOf = (html: string) => /name="_csrf" value="([^"]+)"/.exec(html)![1];

/**
 * Issue 27: an embedded-session link opened the whole web application for 8 hours (renewed while
 * used), survived revocation of the key that minted it, and could create API keys. SECURITY.md.
 */
describe('embedded sessions stay embedded (SECURITY.md)', () => {
  let t: TestApp;
  let db: DataSource;
  let a: TestAccount;

  beforeAll(async () => {
    t = await createTestApp();
    db = t.app.get(DataSource);
    a = await createAccount(t.app, { iframeEnabled: true });
  });
  afterAll(() => t.close());

  const http = () => request(t.app.getHttpServer());
  const agentOf = () => request.agent(t.app.getHttpServer());

  async function mint(key: string, entryPoint = 'add_patient'): Promise<string> {
    const res = await http()
      .post('/api/auth/v1/iframe-session/')
      .set({ Authorization: `Api ${key}` })
      .send({ entry_point: entryPoint });
    expect(res.status).toBe(200);
    const url = new URL(res.body.iframe_url as string);
    return `${url.pathname}${url.search}`;
  }

  async function embedded(key = a.apiKey, entryPoint = 'add_patient'): Promise<Agent> {
    const agent = agentOf();
    const landing = await agent.get(await mint(key, entryPoint));
    expect(landing.status).toBe(302);
    return agent;
  }

  async function signedIn(): Promise<Agent> {
    const agent = agentOf();
    const csrf = csrfOf((await agent.get('/app/login')).text);
    const res = await agent
      .post('/app/login')
      .type('form')
      .send({ _csrf: csrf, email: a.email, password: a.password });
    expect(res.headers.location).toBe('/app/');
    return agent;
  }

  it('are not minted while no origin may frame the application: 409 says why, nothing stored', async () => {
    const bare = await createAccount(t.app, { iframeEnabled: true, frameAncestors: [] });
    const before = await db.query('SELECT count(*)::int AS n FROM iframe_tokens');
    const res = await http()
      .post('/api/auth/v1/iframe-session/')
      .set(bare.auth)
      .send({ entry_point: 'add_patient' });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ detail: NO_FRAMING_ORIGIN });
    expect(res.body.detail).toContain('Settings, Embedding');
    expect(await db.query('SELECT count(*)::int AS n FROM iframe_tokens')).toEqual(before);
  });

  it('get 403 on the API keys, webhooks, settings, audit, locations and other entry points pages', async () => {
    const agent = await embedded();
    expect((await agent.get('/app/patients/new')).status).toBe(200);
    for (const path of [
      '/app/api-keys/',
      '/app/webhooks/',
      '/app/settings/',
      '/app/audit/',
      '/app/locations/',
      '/app/insurers/',
      '/app/passwords/',
      '/app/',
      '/app/patients/',
      '/app/claims/',
      '/app/batches/',
    ]) {
      const res = await agent.get(path);
      expect({ path, status: res.status }).toEqual({ path, status: 403 });
      expect(res.text).toContain('not available in an embedded session');
    }
  });

  it('cannot create an API key or a webhook with a form', async () => {
    const agent = await embedded();
    const csrf = csrfOf((await agent.get('/app/patients/new')).text);
    const before = await db.query('SELECT count(*)::int AS n FROM api_keys WHERE account_id = $1', [
      a.accountId,
    ]);
    const key = await agent.post('/app/api-keys/').type('form').send({ _csrf: csrf, name: 'x' });
    expect(key.status).toBe(403);
    const hook = await agent
      .post('/app/webhooks/')
      .type('form')
      .send({ _csrf: csrf, url: 'https://example.com/hook' });
    expect(hook.status).toBe(403);
    const after = await db.query('SELECT count(*)::int AS n FROM api_keys WHERE account_id = $1', [
      a.accountId,
    ]);
    expect(after[0].n).toBe(before[0].n);
    const hooks = await db.query('SELECT count(*)::int AS n FROM webhooks WHERE account_id = $1', [
      a.accountId,
    ]);
    expect(hooks[0].n).toBe(0);
  });

  it('reach the patient they created and its eligibility check, not other patients', async () => {
    const other = await http()
      .post('/api/auth/v1/patients/')
      .set(a.auth)
      .send({ first_name: 'Other', last_name: 'Person', dob: '1980-01-01' });
    expect(other.status).toBe(200);
    const agent = await embedded();
    const form = await agent.get('/app/patients/new');
    const created = await agent
      .post('/app/patients/new')
      .type('form')
      .send({
        _csrf: csrfOf(form.text),
        first_name: 'Embedded',
        last_name: 'Patient',
        dob: '1990-02-03',
        location_code: a.locationCode,
      });
    expect(created.status).toBe(302);
    const own = created.headers.location;
    expect(own).toMatch(/^\/app\/patients\/PAT[0-9A-Z]{8}\/$/);
    const code = own.split('/')[3];
    expect((await agent.get(own)).status).toBe(200);
    expect((await agent.get(`/app/eligibility/new?patient=${code}`)).status).toBe(200);
    expect((await agent.get(`/app/patients/${other.body.code}/`)).status).toBe(403);
    expect((await agent.get(`/app/eligibility/new?patient=${other.body.code}`)).status).toBe(403);
  });

  it('are signed out on the next request once the key that minted the link is revoked', async () => {
    const { key, apiKey } = await t.app.get(ApiKeysService).create(a.accountId, 'embedding');
    const agent = await embedded(key);
    expect((await agent.get('/app/patients/new')).status).toBe(200);
    // Another key of the account being revoked changes nothing.
    const spare = await t.app.get(ApiKeysService).create(a.accountId, 'spare');
    await t.app.get(ApiKeysService).revoke(a.accountId, spare.apiKey.id);
    expect((await agent.get('/app/patients/new')).status).toBe(200);

    await t.app.get(ApiKeysService).revoke(a.accountId, apiKey.id);
    const after = await agent.get('/app/patients/new');
    expect(after.status).toBe(302);
    expect(after.headers.location).toMatch(/^\/app\/login/);
    // Signed out for good: the session is gone, not only refused once.
    expect((await agent.get('/app/patients/new')).status).toBe(302);
  });

  it('are a link minted by a revoked key no more', async () => {
    const { key, apiKey } = await t.app.get(ApiKeysService).create(a.accountId, 'short-lived');
    const link = await mint(key);
    await t.app.get(ApiKeysService).revoke(a.accountId, apiKey.id);
    const agent = agentOf();
    const landing = await agent.get(link);
    expect(landing.status).toBe(302);
    expect((await agent.get('/app/patients/new')).headers.location).toMatch(/^\/app\/login/);
  });

  it('last at most an hour however busy they are', async () => {
    const agent = await embedded();
    expect((await agent.get('/app/patients/new')).status).toBe(200);
    const now = Date.now();
    const clock = jest.spyOn(Date, 'now');
    try {
      // Used every 20 minutes (well inside the idle timeout), up to a minute before the hour.
      for (const at of [20, 40, 59]) {
        clock.mockReturnValue(now + at * 60_000);
        expect((await agent.get('/app/patients/new')).status).toBe(200);
      }
      clock.mockReturnValue(now + EMBEDDED_SESSION_MS + 1000);
      const res = await agent.get('/app/patients/new');
      expect(res.status).toBe(302);
      expect(res.headers.location).toMatch(/^\/app\/login/);
    } finally {
      clock.mockRestore();
    }
  });

  it('record their audit events as `embedded`, naming the key; minting and redeeming are events', async () => {
    const agent = await embedded();
    const form = await agent.get('/app/patients/new');
    const created = await agent
      .post('/app/patients/new')
      .type('form')
      .send({
        _csrf: csrfOf(form.text),
        first_name: 'Audited',
        last_name: 'Embedded',
        dob: '1991-04-05',
        location_code: a.locationCode,
      });
    const code = created.headers.location.split('/')[3];
    const events = await db.query(
      `SELECT actor_type, actor, api_key_id, action, resource_type, resource_id FROM audit_events
       WHERE account_id = $1 AND (resource_id = $2 OR resource_type = 'embed_link')
       ORDER BY created_at`,
      [a.accountId, code],
    );
    expect(events).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          actor_type: 'embedded',
          actor: a.email,
          api_key_id: a.apiKeyId,
          action: 'create',
          resource_type: 'patient',
        }),
        expect.objectContaining({
          actor_type: 'api_key',
          api_key_id: a.apiKeyId,
          action: 'mint',
          resource_type: 'embed_link',
          resource_id: 'add_patient',
        }),
        expect.objectContaining({
          actor_type: 'embedded',
          action: 'redeem',
          resource_type: 'embed_link',
        }),
      ]),
    );
  });

  it('ask first when someone is signed in, and keep the link usable until confirmed', async () => {
    const agent = await signedIn();
    const link = await mint(a.apiKey);
    const ask = await agent.get(link);
    expect(ask.status).toBe(200);
    expect(ask.text).toContain('Open the embedded session?');
    expect(ask.text).toContain(a.email);
    // Not swapped: the full session still opens the API keys page.
    expect((await agent.get('/app/api-keys/')).status).toBe(200);
    const token = new URL(link, 'http://x').searchParams.get('token');
    const confirmed = await agent
      .post('/embed/')
      .type('form')
      .send({ _csrf: csrfOf(ask.text), token });
    expect(confirmed.status).toBe(302);
    expect(confirmed.headers.location).toBe('/app/patients/new');
    expect((await agent.get('/app/api-keys/')).status).toBe(403);
  });

  it('are not a full sign-in: the login page still asks for the password', async () => {
    const agent = await embedded();
    const res = await agent.get('/app/login');
    expect(res.status).toBe(200);
    expect(res.text).toContain('name="password"');
  });

  it("at `quote` open one person's Counter, print its quote, and reach nothing else", async () => {
    const uid = await startSearch(t.app, a.auth, { patient: patient({ last_name: 'Quoted' }) });
    const other = await startSearch(t.app, a.auth, { patient: patient({ last_name: 'Unsent' }) });
    const answer = await waitForResult(t.app, a.auth, uid);
    await waitForResult(t.app, a.auth, other);
    const personId = answer.results[0].persons[0].id as number;
    const mintQuote = (body: object) =>
      http().post('/api/auth/v1/iframe-session/').set(a.auth).send(body);

    // `quote` names its request and person; no other entry point takes them.
    const bare = await mintQuote({ entry_point: 'quote' });
    expect(bare.status).toBe(400);
    expect(bare.body).toEqual({
      errors: {
        request_uid: { $: ['This field is required.'] },
        person_id: { $: ['This field is required.'] },
      },
    });
    const extra = await mintQuote({ entry_point: 'schedule', request_uid: uid, person_id: 1 });
    expect(extra.status).toBe(400);
    expect(Object.keys(extra.body.errors).sort()).toEqual(['person_id', 'request_uid']);

    const minted = await mintQuote({ entry_point: 'quote', request_uid: uid, person_id: personId });
    expect(minted.status).toBe(200);
    const url = new URL(minted.body.iframe_url as string);
    expect(url.searchParams.get('entry_point')).toBe('quote');
    const agent = agentOf();
    const landing = await agent.get(`${url.pathname}${url.search}`);
    const counter = `/app/eligibility/${uid}/persons/${personId}/counter`;
    expect(landing.status).toBe(302);
    expect(landing.headers.location).toBe(counter);
    const page = await agent.get(counter);
    expect(page.status).toBe(200);
    expect(page.text).toContain('id="counter-form"');
    // Embedded: no way out to the check page, which this session does not reach.
    expect(page.text).not.toContain('back to the benefit table');
    expect((await agent.get(`/app/eligibility/${uid}`)).status).toBe(403);
    expect((await agent.get(`/app/eligibility/${other}/persons/1/counter`)).status).toBe(403);
    expect((await agent.get('/app/schedule/')).status).toBe(403);

    const printed = await agent
      .post(`${counter}/print`)
      .type('form')
      .send({ _csrf: csrfOf(page.text), frame_retail: '180.00' });
    expect(printed.status).toBe(303);
    const pdf = await agent.get(printed.headers.location);
    expect(pdf.status).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    // A quote the session did not print stays closed to it.
    const elsewhere = await http()
      .post('/api/auth/v1/quotes/')
      .set(a.auth)
      .send({ request_uid: uid, person_id: personId, order: { frame: { retail: '99' } } });
    expect(elsewhere.status).toBe(201);
    expect((await agent.get(`/app/quotes/${elsewhere.body.id}`)).status).toBe(403);
  });
});
