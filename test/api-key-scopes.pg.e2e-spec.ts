import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { ApiKeysService } from '@/modules/auth/domain/api-keys.service';
import {
  ALL_SCOPES,
  type ApiScope,
  grants,
  normalizeScopes,
  parseScopeList,
  scopeAction,
  type ScopeRequirement,
} from '@/modules/auth/domain/scopes';
import {
  apiRoutes,
  createFixtures,
  type Fixtures,
  ROUTE_SAMPLES,
  routeKey,
  send,
} from './support/api-routes';
import { createTestApp, TestApp } from './support/app';
import { DEMO, patient } from './support/eligibility';
import { createAccount, TestAccount } from './support/factories';
import { waitUntil } from './support/queues';
import { AppointmentChecksLoop } from '@/modules/appointments/jobs/appointment-checks.loop';

const READ_SCOPES = ALL_SCOPES.filter((s) => s.endsWith(':read'));

describe('API key scopes (SECURITY.md)', () => {
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
        const detail = `This API key is not allowed to ${words}.`;
        expect({ key, status: res.status, body: res.body }).toEqual({
          key,
          status: 403,
          // The FHIR door says it in an OperationOutcome (docs/api.md, FHIR R4).
          body: key.includes(' /fhir/')
            ? {
                resourceType: 'OperationOutcome',
                issue: [{ severity: 'error', code: 'forbidden', diagnostics: detail }],
              }
            : { detail },
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
    const appointments = await http().get('/api/auth/v1/appointments/').set(eligibilityOnly);
    expect(appointments.body).toEqual({
      detail: 'This API key is not allowed to read appointments.',
    });
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
      const path = route.path.replace(/:([a-z_]+)/g, '{$1}').replace(/^(\/(?!api\/).*)\/$/, '$1');
      const op = doc.paths[path]?.[route.method.toLowerCase()];
      // A door's catch-all and its refusals (GET and DELETE /mcp, 405) are no operations: each
      // is open to any valid key, which no 403 can refuse.
      if (!op) {
        expect({ key: routeKey(route), scope: route.scope }).toEqual({
          key: routeKey(route),
          scope: expect.objectContaining({ scopes: [] }),
        });
        continue;
      }
      // A route any valid key may call has no 403.
      const scoped = (route.scope as ScopeRequirement).scopes.length > 0;
      expect({ key: routeKey(route), has403: Boolean(op.responses['403']) }).toEqual({
        key: routeKey(route),
        has403: scoped,
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

  describe('webhooks carry only what the key may read (SECURITY.md, issue 27)', () => {
    const hooks = () => '/api/auth/v1/webhooks/';
    let hookId: string;
    let deliveryId: string;
    let claimDeliveryId: string;

    beforeAll(async () => {
      const created = await http()
        .post(hooks())
        .set(a.auth)
        .send({ url: 'http://127.0.0.1:9/receiver', events: ['eligibility', 'claim'] });
      expect(created.status).toBe(201);
      hookId = created.body.id;
      const rows = await t.app.get(DataSource).query(
        `INSERT INTO webhook_deliveries (webhook_id, account_id, event, request_uid, resource_key, body, status)
         VALUES ($1, $2, 'eligibility.finished', 'uid-1', 'e:uid-1', '{}', 'succeeded'),
                ($1, $2, 'claim.status_changed', 'CLM00000000', 'c:CLM00000000', '{}', 'succeeded')
         RETURNING id, event`,
        [hookId, a.accountId],
      );
      deliveryId = rows.find((r: { event: string }) => r.event === 'eligibility.finished').id;
      claimDeliveryId = rows.find((r: { event: string }) => r.event === 'claim.status_changed').id;
    });

    it('a webhooks:write-only key gets 403 creating, pointing a webhook elsewhere or redelivering', async () => {
      const writeOnly = await keyWith(['webhooks:write']);
      const create = await http().post(hooks()).set(writeOnly).send({ url: 'https://x.test/h' });
      expect(create.status).toBe(403);
      expect(create.body).toEqual({
        detail: 'This API key is not allowed to read eligibility requests.',
      });
      const url = await http()
        .patch(`${hooks()}${hookId}/`)
        .set(writeOnly)
        .send({ url: 'https://attacker.test/collect' });
      expect(url.status).toBe(403);
      const events = await http()
        .patch(`${hooks()}${hookId}/`)
        .set(writeOnly)
        .send({ events: ['claim'] });
      expect(events.status).toBe(403);
      const redeliver = await http()
        .post(`${hooks()}${hookId}/deliveries/${deliveryId}/redeliver/`)
        .set(writeOnly);
      expect(redeliver.status).toBe(403);
      expect(redeliver.body).toEqual({
        detail: 'This API key is not allowed to read eligibility requests.',
      });
      const [row] = await t.app
        .get(DataSource)
        .query('SELECT url, events FROM webhooks WHERE id = $1', [hookId]);
      expect(row).toEqual({ url: 'http://127.0.0.1:9/receiver', events: ['eligibility', 'claim'] });
      const attempts = await t.app
        .get(DataSource)
        .query('SELECT count(*)::int AS n FROM webhook_attempts WHERE delivery_id = $1', [
          deliveryId,
        ]);
      expect(attempts[0].n).toBe(0);
      // What carries no data stays open to it: a description, switching it off.
      const quiet = await http()
        .patch(`${hooks()}${hookId}/`)
        .set(writeOnly)
        .send({ description: 'renamed', is_active: true });
      expect(quiet.status).toBe(200);
    });

    it('a webhooks:write-only key gets 403 setting, rotating or removing the secret, which stays as it was', async () => {
      const writeOnly = await keyWith(['webhooks:write']);
      const sealed = async () =>
        (
          await t.app
            .get(DataSource)
            .query('SELECT secret_sealed FROM webhooks WHERE id = $1', [hookId])
        )[0].secret_sealed as string | null;
      const before = await sealed();
      for (const body of [
        { secret: 'attacker-chosen-secret-0123456789' },
        { rotate_secret: true },
        { secret: null },
      ]) {
        const res = await http().patch(`${hooks()}${hookId}/`).set(writeOnly).send(body);
        expect({ body, status: res.status }).toEqual({ body, status: 403 });
        expect(res.body).toEqual({
          detail: 'This API key is not allowed to read eligibility requests.',
        });
        expect(JSON.stringify(res.body)).not.toContain('whsec_');
      }
      expect(await sealed()).toBe(before);
      const allowed = await keyWith(['webhooks:write', 'eligibility:read', 'claims:read']);
      const rotated = await http()
        .patch(`${hooks()}${hookId}/`)
        .set(allowed)
        .send({ rotate_secret: true });
      expect(rotated.status).toBe(200);
      expect(rotated.body.secret).toMatch(/^whsec_/);
    });

    it('needs the read scope of each topic: claims:read for claim events', async () => {
      const eligibilityReader = await keyWith(['webhooks:write', 'eligibility:read']);
      const eligibility = await http()
        .post(hooks())
        .set(eligibilityReader)
        .send({ url: 'http://127.0.0.1:9/e', events: ['eligibility', 'batch'] });
      expect(eligibility.status).toBe(201);
      const claims = await http()
        .post(hooks())
        .set(eligibilityReader)
        .send({ url: 'http://127.0.0.1:9/c', events: ['claim'] });
      expect(claims.status).toBe(403);
      expect(claims.body).toEqual({ detail: 'This API key is not allowed to read claims.' });
      const url = await http()
        .patch(`${hooks()}${hookId}/`)
        .set(eligibilityReader)
        .send({ url: 'http://127.0.0.1:9/other' });
      expect(url.body).toEqual({ detail: 'This API key is not allowed to read claims.' });
      const claimRedelivery = await http()
        .post(`${hooks()}${hookId}/deliveries/${claimDeliveryId}/redeliver/`)
        .set(eligibilityReader);
      expect(claimRedelivery.status).toBe(403);
      const allowed = await http()
        .post(`${hooks()}${hookId}/deliveries/${deliveryId}/redeliver/`)
        .set(eligibilityReader);
      expect(allowed.status).toBe(200);
    });

    it('records creating, changing, redelivering and deleting as audit events', async () => {
      const created = await http()
        .post(hooks())
        .set(a.auth)
        .send({ url: 'http://127.0.0.1:9/audited' });
      const id = created.body.id as string;
      await http().patch(`${hooks()}${id}/`).set(a.auth).send({ url: 'http://127.0.0.1:9/moved' });
      await http()
        .post(`${hooks()}${hookId}/deliveries/${deliveryId}/redeliver/`)
        .set(a.auth)
        .expect(200);
      await http().delete(`${hooks()}${id}/`).set(a.auth).expect(204);
      const events = await http()
        .get('/api/auth/v1/audit-events/')
        .query({ resource_type: 'webhook', limit: 200 })
        .set(a.auth)
        .expect(200);
      const mine = events.body.result
        .filter((e: { resource_id: string }) => e.resource_id === id || e.resource_id === hookId)
        .map((e: { action: string; resource_id: string; actor_type: string; actor: string }) => [
          e.action,
          e.resource_id === id ? 'new' : 'old',
          e.actor_type,
          e.actor,
        ]);
      const prefix = a.apiKey.slice(0, 10);
      for (const expected of [
        ['create', 'new'],
        ['update', 'new'],
        ['redeliver', 'old'],
        ['delete', 'new'],
      ]) {
        expect(mine).toContainEqual([...expected, 'api_key', prefix]);
      }
    });
  });

  describe('appointments carry eligibility and claims data only to keys holding their scopes', () => {
    const API = '/api/auth/v1/appointments/';
    const DAY = 86_400_000;
    let people = 0;
    /** A visit `days` days from now of a new sandbox patient (checked on booking by the policy). */
    const visit = (days = 10) => ({
      starts_at: new Date(Date.now() + days * DAY).toISOString(),
      status: 'booked',
      patient: patient({ last_name: `Scoped${++people}`, member_id: `SCP${1000 + people}` }),
      insurer_code: DEMO,
    });
    const get = async (id: string, auth: { Authorization: string }) =>
      (await http().get(`${API}${id}/`).set(auth).expect(200)).body;
    /** A pass of the checks loop, then the appointment once its check answered. */
    const checked = async (id: string) => {
      await t.app.get(AppointmentChecksLoop).tick();
      return waitUntil(`coverage of ${id}`, async () => {
        const body = await get(id, a.auth);
        return ['checking', 'not_checked'].includes(body.coverage.state) ? undefined : body;
      });
    };
    const originChecks = async () =>
      (
        await t.app
          .get(DataSource)
          .query(
            `SELECT count(*)::int AS n FROM eligibility_requests WHERE account_id = $1 AND origin = 'appointment'`,
            [a.accountId],
          )
      )[0].n as number;

    it('appointments:read alone gets null benefits, changes and request_uid; eligibility:read added gets them', async () => {
      const id = `scoped-${randomUUID()}`;
      const body = visit();
      await http().put(`${API}${id}/`).set(a.auth).send(body).expect(201);
      const full = await checked(id);
      expect(full.coverage.request_uid).toEqual(expect.any(String));
      expect(full.coverage.benefits).toEqual(
        expect.objectContaining({ frames: expect.any(Object) }),
      );
      expect(full.coverage.changes).toEqual([]);

      const hidden = { request_uid: null, changes: null, benefits: null, detail: null };
      const reader = await keyWith(['appointments:read']);
      const one = await get(id, reader);
      expect(one.coverage).toEqual({ ...full.coverage, ...hidden });
      const from = new Date(Date.parse(body.starts_at) - 60_000).toISOString();
      const to = new Date(Date.parse(body.starts_at) + 60_000).toISOString();
      const list = await http().get(API).query({ from, to }).set(reader).expect(200);
      const listed = list.body.result.find((x: { external_id: string }) => x.external_id === id);
      expect(listed.coverage).toEqual({ ...full.coverage, ...hidden });
      const writer = await keyWith(['appointments:write', 'eligibility:write']);
      const both = await keyWith(['appointments:read', 'eligibility:read']);
      expect((await get(id, both)).coverage).toEqual(full.coverage);
      expect((await get(id, writer)).coverage).toEqual(full.coverage);

      // A key that stores it without eligibility:read is answered without the check's answer too
      // (and, lacking eligibility:write, leaves it to no automatic check).
      const writerOnly = await keyWith(['appointments:write']);
      const stored = await http().put(`${API}${id}/`).set(writerOnly).send(body).expect(200);
      expect(stored.body.coverage).toEqual({
        ...full.coverage,
        ...hidden,
        next_check_at: null,
        detail: expect.stringContaining('eligibility:write'),
      });
    });

    it('appointments:write without eligibility:write: 403 on check now; what it stores is checked by nothing and says why', async () => {
      const writerOnly = await keyWith(['appointments:write', 'appointments:read']);
      const id = `unchecked-${randomUUID()}`;
      const before = await originChecks();
      const put = await http().put(`${API}${id}/`).set(writerOnly).send(visit());
      expect(put.status).toBe(201);
      expect(put.body.coverage).toMatchObject({
        state: 'not_checked',
        next_check_at: null,
        detail: expect.stringContaining('lacks the scope eligibility:write'),
      });
      const now = await http().post(`${API}${id}/check/`).set(writerOnly);
      expect(now.status).toBe(403);
      expect(now.body).toEqual({
        detail: 'This API key is not allowed to write eligibility requests.',
      });
      expect(requirementOf('POST /api/auth/v1/appointments/:external_id/check/').scopes).toEqual([
        'appointments:write',
        'eligibility:write',
      ]);

      // A sync by the same key: its appointments get no check either.
      const synced = `synced-${randomUUID()}`;
      const item = visit(12);
      const from = new Date(Date.parse(item.starts_at) - DAY).toISOString();
      const to = new Date(Date.parse(item.starts_at) + DAY).toISOString();
      const sync = await http()
        .post(`${API}sync/`)
        .set(writerOnly)
        .send({ from, to, appointments: [{ external_id: synced, ...item }] });
      expect(sync.status).toBe(200);
      expect(sync.body).toMatchObject({ created: 1, errors: [] });
      await t.app.get(AppointmentChecksLoop).tick();
      for (const x of [id, synced]) {
        const answer = await get(x, a.auth);
        expect({ x, coverage: answer.coverage }).toEqual({
          x,
          coverage: expect.objectContaining({
            state: 'not_checked',
            next_check_at: null,
            detail:
              'No check runs by itself for this appointment: the API key that stored it lacks the scope eligibility:write (a check is an eligibility request).',
          }),
        });
      }
      expect(await originChecks()).toBe(before);
      const [row] = await t.app
        .get(DataSource)
        .query(
          'SELECT stored_by_api_key_id, stored_by_user_id, auto_checks FROM appointments WHERE account_id = $1 AND external_id = $2',
          [a.accountId, synced],
        );
      expect(row).toEqual({
        stored_by_api_key_id: expect.any(String),
        stored_by_user_id: null,
        auto_checks: false,
      });

      // A key that may check: "check now" runs one check, and schedules none after it.
      const checker = await keyWith(['appointments:write', 'eligibility:write']);
      await http().post(`${API}${id}/check/`).set(checker).expect(202);
      const answered = await waitUntil(`check of ${id}`, async () => {
        const b = await get(id, a.auth);
        return b.coverage.state === 'checking' ? undefined : b;
      });
      expect(answered.coverage).toMatchObject({
        request_uid: expect.any(String),
        next_check_at: null,
        detail: expect.any(String),
      });
      expect(await originChecks()).toBe(before + 1);

      // Stored again by a key that may start checks: checked, and it says nothing more.
      const again = await http().put(`${API}${synced}/`).set(checker).send(item);
      expect(again.status).toBe(200);
      expect(again.body.coverage.detail).toBeNull();
      expect((await checked(synced)).coverage.request_uid).toEqual(expect.any(String));
    });

    it('a webhook on the appointment topic needs eligibility:read besides appointments:read', async () => {
      const url = 'http://127.0.0.1:9/appointments';
      const withoutEligibility = await keyWith(['webhooks:write', 'appointments:read']);
      const refused = await http()
        .post('/api/auth/v1/webhooks/')
        .set(withoutEligibility)
        .send({ url, events: ['appointment'] });
      expect(refused.status).toBe(403);
      expect(refused.body).toEqual({
        detail: 'This API key is not allowed to read eligibility requests.',
      });
      const withoutAppointments = await keyWith(['webhooks:write', 'eligibility:read']);
      const refusedToo = await http()
        .post('/api/auth/v1/webhooks/')
        .set(withoutAppointments)
        .send({ url, events: ['appointment'] });
      expect(refusedToo.body).toEqual({
        detail: 'This API key is not allowed to read appointments.',
      });
      const both = await keyWith(['webhooks:write', 'appointments:read', 'eligibility:read']);
      await http()
        .post('/api/auth/v1/webhooks/')
        .set(both)
        .send({ url, events: ['appointment'] })
        .expect(201);
    });

    it("patients:read does not see the benefit history's claim-sourced entries; with claims:read it does", async () => {
      const who = { first_name: 'Nadia', last_name: 'Claimside', dob: '1981-04-05' };
      const created = await http().post('/api/auth/v1/patients/').set(a.auth).send(who).expect(200);
      const code = created.body.code as string;
      const history = `/api/auth/v1/patients/${code}/benefit-history/`;
      const staff = await http()
        .post(history)
        .set(a.auth)
        .send({ insurer_code: DEMO, benefit_code: 'materials.frames', date: '2026-01-10' })
        .expect(201);
      const member = { type: 'self', sex: 'female', ...who, member_id: 'DMV-SCOPE-001' };
      const claim = await http()
        .post('/api/auth/v1/claims/')
        .set(a.auth)
        .send({
          patient: member,
          primary_member: { ...member, insurer_code: DEMO },
          services: [
            {
              codes: ['92014'],
              date: '2026-02-10',
              quantity: 1,
              cost: '120.00',
              diagnosis_codes: ['H52.13'],
            },
          ],
          paid_amount: '120.00',
        })
        .expect(201);

      const patientsOnly = await keyWith(['patients:read']);
      const seen = await http().get(history).set(patientsOnly).expect(200);
      expect(seen.body).toEqual({ result: [staff.body] });
      expect(JSON.stringify(seen.body)).not.toContain(claim.body.code);

      const withClaims = await keyWith(['patients:read', 'claims:read']);
      const all = await http().get(history).set(withClaims).expect(200);
      expect(
        all.body.result.map((e: { source: string; claim_code: string | null }) => [
          e.source,
          e.claim_code,
        ]),
      ).toEqual([
        ['claim', claim.body.code],
        ['staff', null],
      ]);
    });
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
