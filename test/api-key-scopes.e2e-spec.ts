import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { ApiKeysService } from '@/modules/auth/api-keys.service';
import {
  ALL_SCOPES,
  type ApiScope,
  grants,
  normalizeScopes,
  parseScopeList,
  scopeAction,
  type ScopeRequirement,
} from '@/modules/auth/scopes';
import {
  apiRoutes,
  createFixtures,
  type Fixtures,
  ROUTE_SAMPLES,
  routeKey,
  send,
} from './support/api-routes';
import { createTestApp, TestApp } from './support/app';
import { createAccount, TestAccount } from './support/factories';

const READ_SCOPES = ALL_SCOPES.filter((s) => s.endsWith(':read'));

describe('API key scopes (CONTRACT §14)', () => {
  let t: TestApp;
  let a: TestAccount;
  let fx: Fixtures;

  beforeAll(async () => {
    t = await createTestApp();
    a = await createAccount(t.app, { iframeEnabled: true });
    fx = await createFixtures(t.app, a);
  });
  afterAll(() => t.close());

  const http = () => request(t.app.getHttpServer());
  const keyWith = async (scopes: ApiScope[]) => {
    const { key } = await t.app.get(ApiKeysService).create(a.accountId, 'scoped', scopes);
    return { Authorization: `Api ${key}` };
  };
  const requirementOf = (key: string): ScopeRequirement => {
    const route = apiRoutes(t.app).find((r) => routeKey(r) === key)!;
    return route.scope as ScopeRequirement;
  };

  it('write implies read; choices are stored one per area; the CLI list is parsed strictly', () => {
    expect(grants(['patients:write'], 'patients:read')).toBe(true);
    expect(grants(['patients:read'], 'patients:write')).toBe(false);
    expect(grants(['claims:write'], 'patients:read')).toBe(false);
    expect(normalizeScopes(['patients:read', 'patients:write', 'eligibility:read'])).toEqual([
      'eligibility:read',
      'patients:write',
    ]);
    expect(parseScopeList('eligibility:read, patients:write')).toEqual([
      'eligibility:read',
      'patients:write',
    ]);
    expect(() => parseScopeList('patients:delete')).toThrow(/unknown scope patients:delete/);
    expect(() => parseScopeList(' , ')).toThrow(/at least one/);
  });

  it('a new key gets every scope by default', async () => {
    const { apiKey } = await t.app.get(ApiKeysService).create(a.accountId, 'default');
    expect(apiKey.scopes).toEqual(normalizeScopes([...ALL_SCOPES]));
  });

  it('a read-only key gets 403 on every write route and its success answer on every read', async () => {
    const readOnly = await keyWith([...READ_SCOPES]);
    let writes = 0;
    let reads = 0;
    for (const route of apiRoutes(t.app)) {
      const key = routeKey(route);
      const { scopes, action } = route.scope as ScopeRequirement;
      const sample = ROUTE_SAMPLES[key](fx);
      const res = await send(t.app, sample, readOnly, `scope-${randomUUID()}`);
      if (scopes.some((s) => s.endsWith(':write'))) {
        writes++;
        const words = action ?? scopeAction(scopes.find((s) => s.endsWith(':write'))!);
        expect({ key, status: res.status, body: res.body }).toEqual({
          key,
          status: 403,
          body: { detail: `This API key is not allowed to ${words}.` },
        });
      } else {
        reads++;
        expect({ key, status: res.status }).toEqual({ key, status: sample.status });
      }
    }
    expect(writes).toBeGreaterThanOrEqual(10);
    expect(reads).toBeGreaterThanOrEqual(10);
  });

  it('names the action refused, per area', async () => {
    const eligibilityOnly = await keyWith(['eligibility:write']);
    const patients = await http().get('/api/auth/v1/patients/').set(eligibilityOnly);
    expect(patients.status).toBe(403);
    expect(patients.body).toEqual({ detail: 'This API key is not allowed to read patients.' });
    const claim = await http().post('/api/auth/v1/claims/').set(eligibilityOnly).send({});
    expect(claim.body).toEqual({ detail: 'This API key is not allowed to write claims.' });
    const hook = await http().get('/api/auth/v1/webhooks/').set(eligibilityOnly);
    expect(hook.body).toEqual({ detail: 'This API key is not allowed to read webhooks.' });
    const session = await http()
      .post('/api/auth/v1/iframe-session/')
      .set(eligibilityOnly)
      .send({ entry_point: 'add_patient' });
    expect(session.body).toEqual({
      detail: 'This API key is not allowed to open embedded sessions.',
    });
    // Its own area works, write including read.
    await http().get(`/api/auth/v2/eligibility/${fx.uid}/`).set(eligibilityOnly).expect(200);
    expect(requirementOf('GET /api/auth/v2/eligibility/:request_uid/').scopes).toEqual([
      'eligibility:read',
    ]);
  });

  it('the scope is checked before the body is validated (a refused key learns nothing)', async () => {
    const readOnly = await keyWith(['patients:read']);
    const res = await http().post('/api/auth/v1/patients/').set(readOnly).send({ first_name: '' });
    expect(res.status).toBe(403);
  });

  it('every operation documents its 403', async () => {
    const doc = (await http().get('/docs-json').expect(200)).body;
    for (const route of apiRoutes(t.app)) {
      const path = route.path.replace(/:([a-z_]+)/g, '{$1}');
      const op = doc.paths[path][route.method.toLowerCase()];
      expect({ key: routeKey(route), has403: Boolean(op.responses['403']) }).toEqual({
        key: routeKey(route),
        has403: true,
      });
    }
    const listPatients = doc.paths['/api/auth/v1/patients/'].get.responses['403'];
    expect(listPatients.content['application/json'].example).toEqual({
      detail: 'This API key is not allowed to read patients.',
    });
    const iframe = doc.paths['/api/auth/v1/iframe-session/'].post.responses['403'];
    expect(iframe.content['application/json'].example).toEqual({
      detail: 'Iframe is not activated for the current user.',
    });
    expect(iframe.description).toContain('lacks the scope');
  });

  it('existing keys keep every scope (migration default) and the database refuses unknown ones', async () => {
    const db = t.app.get(DataSource);
    const [{ scopes }] = await db.query<{ scopes: string[] }[]>(
      `INSERT INTO api_keys (account_id, name, prefix, key_hash)
       VALUES ($1, 'legacy', 'vk_legacy0', repeat('a', 64)) RETURNING scopes`,
      [a.accountId],
    );
    expect([...scopes].sort()).toEqual([...ALL_SCOPES].sort());
    await expect(
      db.query(
        `INSERT INTO api_keys (account_id, name, prefix, key_hash, scopes)
         VALUES ($1, 'bad', 'vk_bad0000', repeat('b', 64), ARRAY['patients:delete'])`,
        [a.accountId],
      ),
    ).rejects.toThrow(/api_keys_scopes_check/);
  });

  describe('web API-keys page', () => {
    async function signIn() {
      const agent = request.agent(t.app.getHttpServer());
      const login = await agent.get('/app/login');
      await agent
        .post('/app/login')
        .type('form')
        .send({ _csrf: csrfOf(login.text), email: a.email, password: a.password })
        .expect(302);
      return agent;
    }

    it('creates a key with the checked scopes, shows them in the list, and needs at least one', async () => {
      const web = await signIn();
      const page = await web.get('/app/api-keys/').expect(200);
      // Every scope offered, checked by default.
      for (const s of ALL_SCOPES) expect(page.text).toContain(`value="${s}" checked`);
      const created = await web
        .post('/app/api-keys/')
        .type('form')
        .send(
          `_csrf=${encodeURIComponent(csrfOf(page.text))}&name=Reader&scopes=eligibility%3Aread&scopes=patients%3Aread`,
        )
        .expect(201);
      const key = /id="new-key">([^<]+)</.exec(created.text)![1];
      expect(created.text).toContain('eligibility:read, patients:read');
      const auth = { Authorization: `Api ${key}` };
      await http().get('/api/auth/v1/patients/').set(auth).expect(200);
      await http().get('/api/auth/v1/claims/').set(auth).expect(403);

      const none = await web
        .post('/app/api-keys/')
        .type('form')
        .send({ _csrf: csrfOf(created.text), name: 'Nothing' });
      expect(none.status).toBe(400);
      expect(none.text).toMatch(/<div class="field-error">[^<]+<\/div>\s*<\/fieldset>/);
    });
  });
});

function csrfOf(html: string): string {
  return /name="_csrf" value="([^"]+)"/.exec(html)![1];
}
