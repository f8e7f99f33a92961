import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { SECURITY_RESOURCE_TYPES } from '@/modules/audit/domain/security-events';
import { DataSource } from 'typeorm';
import { NOT_PATIENT_DATA } from '@/modules/audit/domain/audited';
import { undeclaredApiRoutes } from '@/modules/audit/domain/route-declarations';
import { ApiKeysService } from '@/modules/auth/domain/api-keys.service';
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
import { MSG } from '@/platform/kernel/messages';
import { TRAIL_RESOURCE_TYPES } from '@/modules/audit/domain/security-events';

/**
 * Routes that read or change no patient data. Marking a route @NotPatientData is a decision:
 * it has to be written down here too.
 */
const NOT_PATIENT_DATA_ROUTES = [
  'GET /api/auth/v1/audit-events/',
  'GET /api/auth/v1/locations/',
  'POST /api/auth/v1/locations/',
  'PATCH /api/auth/v1/locations/:code/',
  'POST /api/auth/v1/iframe-session/',
  'POST /api/auth/v1/webhooks/',
  'GET /api/auth/v1/webhooks/',
  'GET /api/auth/v1/webhooks/:id/',
  'PATCH /api/auth/v1/webhooks/:id/',
  'DELETE /api/auth/v1/webhooks/:id/',
  'GET /api/auth/v1/webhooks/:id/deliveries/',
  'POST /api/auth/v1/webhooks/:id/deliveries/:delivery_id/redeliver/',
  'GET /api/auth/v1/insurers/',
  // docs/api.md, Insurer health: counts, durations and outcome kinds; no error's words.
  'GET /api/auth/v1/insurers/health/',
  // docs/api.md, Appointments: when the account's checks run, no patient in it.
  'GET /api/auth/v1/appointment-policy/',
  'PUT /api/auth/v1/appointment-policy/',
  // docs/api.md, Next eligible dates: stateless; benefit codes and dates, nothing naming a
  // patient, nothing read or stored.
  'POST /api/auth/v1/benefits/next-eligible/',
  // docs/api.md, FHIR R4: what the door is, its extensions' definitions, and a 404 for the rest.
  'GET /fhir/R4/metadata/',
  'GET /fhir/R4/StructureDefinition/:id/',
  'ALL /fhir/R4/*path/',
  // docs/api.md, MCP: the door itself; each tool call records its own events (mcp_tool call,
  // and the data it reads or makes).
  'POST /mcp/',
  'GET /mcp/',
  'DELETE /mcp/',
];

interface EventRow {
  account_id: string;
  actor_type: string;
  actor: string;
  api_key_id: string | null;
  user_id: string | null;
  action: string;
  resource_type: string;
  resource_id: string | null;
  request_id: string;
  ip: string | null;
}

describe('audit trail (SECURITY.md)', () => {
  let t: TestApp;
  let a: TestAccount;
  let b: TestAccount;
  let fx: Fixtures;
  let db: DataSource;

  beforeAll(async () => {
    t = await createTestApp();
    a = await createAccount(t.app, { iframeEnabled: true });
    b = await createAccount(t.app);
    fx = await createFixtures(t.app, a);
    db = t.app.get(DataSource);
  });
  afterAll(() => t.close());

  const http = () => request(t.app.getHttpServer());
  const eventsOf = (requestId: string): Promise<EventRow[]> =>
    db.query('SELECT * FROM audit_events WHERE request_id = $1', [requestId]);

  it('every route under /api/ declares its scope and its audit, and has a sample here', () => {
    const routes = apiRoutes(t.app);
    expect(routes.length).toBeGreaterThan(20);
    expect(undeclaredApiRoutes(routes)).toEqual([]);
    expect(routes.map(routeKey).filter((k) => !ROUTE_SAMPLES[k])).toEqual([]);
    const unaudited = routes.filter((r) => r.audit === NOT_PATIENT_DATA).map(routeKey);
    expect(unaudited.sort()).toEqual([...NOT_PATIENT_DATA_ROUTES].sort());
  });

  it('the start-up check names a route without declarations', () => {
    const problems = undeclaredApiRoutes([
      { method: 'GET', path: '/api/auth/v1/new-thing/', scope: undefined, audit: undefined },
      { method: 'GET', path: '/app/page/', scope: undefined, audit: undefined },
    ]);
    expect(problems).toEqual([
      'GET /api/auth/v1/new-thing/: no @RequireScope',
      'GET /api/auth/v1/new-thing/: neither @Audited nor @NotPatientData',
    ]);
  });

  it('each patient-data route leaves exactly one event with the key, the resource, the request id and the IP', async () => {
    const prefix = a.apiKey.slice(0, 10);
    const routes = apiRoutes(t.app)
      .map(routeKey)
      // The webhook fixture is deleted last.
      .sort((x, y) => Number(x.startsWith('DELETE')) - Number(y.startsWith('DELETE')));
    for (const key of routes) {
      const sample = ROUTE_SAMPLES[key](fx);
      const requestId = `audit-${randomUUID()}`;
      const res = await send(t.app, sample, a.auth, requestId);
      expect({ key, status: res.status }).toEqual({ key, status: sample.status });
      const all = await eventsOf(requestId);
      // Security events (SECURITY.md) are recorded beside patient data: exactly where expected.
      const security = all
        .filter((e) => isSecurityEvent(e.resource_type))
        .map((e) => `${e.resource_type} ${e.action}`);
      expect({ key, security }).toEqual({ key, security: SECURITY_EVENTS[key] ?? [] });
      const events = all.filter((e) => !isSecurityEvent(e.resource_type));
      if (!sample.audit) {
        expect({ key, events }).toEqual({ key, events: [] });
        continue;
      }
      expect({ key, count: events.length }).toEqual({ key, count: 1 });
      expect({ key, ...events[0] }).toEqual({
        key,
        ...events[0],
        account_id: a.accountId,
        actor_type: 'api_key',
        actor: prefix,
        api_key_id: a.apiKeyId,
        user_id: null,
        request_id: requestId,
        ip: expect.stringMatching(/127\.0\.0\.1|::1/),
        ...sample.audit(res),
      });
    }
  });

  it('records one event per read when many reads of two accounts arrive at once (read and written together)', async () => {
    const c = await createAccount(t.app);
    const fc = await createFixtures(t.app, c);
    // Found reads of both accounts, mixed with reads of the other account's uid and of unknown
    // uids: concurrent reads share statements, and each must get its own answer only.
    const reads = Array.from({ length: 80 }, (_, i) => {
      const [account, uid, found] = (
        [
          [a, fx.uid, true],
          [c, fc.uid, true],
          [a, fc.uid, false],
          [c, `unknown-${i}`, false],
        ] as const
      )[i % 4];
      const requestId = `burst-${randomUUID()}`;
      return http()
        .get(`/api/auth/v${i % 8 < 4 ? 2 : 1}/eligibility/${uid}/`)
        .set(account.auth)
        .set('X-Request-Id', requestId)
        .then((res) => ({ res, requestId, account, uid, found }));
    });
    for (const { res, requestId, account, uid, found } of await Promise.all(reads)) {
      const events = await eventsOf(requestId);
      if (!found) {
        expect(res.status).toBe(404);
        expect(res.body).toEqual({ detail: `Eligibility request ${uid} not found.` });
        expect(events).toHaveLength(0);
        continue;
      }
      expect(res.status).toBe(200);
      expect(res.body.request_uid).toBe(uid);
      expect(events).toHaveLength(1);
      expect(events[0]).toMatchObject({
        account_id: account.accountId,
        actor_type: 'api_key',
        action: 'read',
        resource_type: 'eligibility_request',
        resource_id: uid,
      });
    }
  });

  // The stored result's GETs write their event in the statement that reads the body
  // (`inStatement`); every other route is held by the guard until its group-committed event is
  // stored. Either way, a refused event means a 500 without the data.
  it.each([
    {
      how: 'the event written by the read (GET v2 result)',
      path: () => `/api/auth/v2/eligibility/${fx.uid}/`,
      secret: () => fx.uid,
      check: (res: request.Response) => expect(res.body.request_uid).toBe(fx.uid),
    },
    {
      how: "the guard's group-committed event (GET patient)",
      path: () => `/api/auth/v1/patients/${fx.patientCode}/`,
      secret: () => fx.patientCode,
      check: (res: request.Response) => expect(res.body.code).toBe(fx.patientCode),
    },
  ])(
    'answers 500 instead of the data when its event cannot be stored; reads written with it still pass: $how',
    async ({ path, secret, check }) => {
      const refused = `refuse-${randomUUID()}`;
      await db.query(`
      CREATE OR REPLACE FUNCTION test_refuse_audit() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NEW.request_id LIKE 'refuse-%' THEN RAISE EXCEPTION 'refused by the test'; END IF;
        RETURN NEW;
      END $$`);
      await db.query(
        'CREATE TRIGGER test_refuse_audit BEFORE INSERT ON audit_events FOR EACH ROW EXECUTE FUNCTION test_refuse_audit()',
      );
      try {
        const get = (requestId: string) =>
          http().get(path()).set(a.auth).set('X-Request-Id', requestId);
        const others = Array.from({ length: 10 }, () => `ok-${randomUUID()}`);
        const [bad, ...good] = await Promise.all([get(refused), ...others.map(get)]);
        expect(bad.status).toBe(500);
        expect(bad.body).toEqual({ detail: 'Internal server error.' });
        expect(bad.text).not.toContain(secret());
        expect(await eventsOf(refused)).toHaveLength(0);
        for (const [i, res] of good.entries()) {
          expect(res.status).toBe(200);
          check(res);
          expect(await eventsOf(others[i])).toHaveLength(1);
        }
      } finally {
        await db.query('DROP TRIGGER test_refuse_audit ON audit_events');
        await db.query('DROP FUNCTION test_refuse_audit()');
      }
    },
  );

  it('records nothing for a refused call (not found, another account, validation)', async () => {
    for (const [url, auth] of [
      [`/api/auth/v1/patients/${fx.patientCode}/`, b.auth],
      ['/api/auth/v1/patients/PAT00000000/', a.auth],
      [`/api/auth/v2/eligibility/${fx.uid}/`, b.auth],
    ] as const) {
      const requestId = `refused-${randomUUID()}`;
      const res = await http().get(url).set(auth).set('X-Request-Id', requestId);
      expect(res.status).toBe(404);
      expect(await eventsOf(requestId)).toEqual([]);
    }
    const requestId = `refused-${randomUUID()}`;
    await http()
      .post('/api/auth/v1/patients/')
      .set(a.auth)
      .set('X-Request-Id', requestId)
      .send({ first_name: '' })
      .expect(400);
    expect(await eventsOf(requestId)).toEqual([]);
  });

  it('the table refuses UPDATE and DELETE in the database itself', async () => {
    const [{ count }] = await db.query<{ count: string }[]>(
      'SELECT count(*) FROM audit_events WHERE account_id = $1',
      [a.accountId],
    );
    expect(Number(count)).toBeGreaterThan(0);
    await expect(db.query(`UPDATE audit_events SET actor = 'someone else'`)).rejects.toThrow(
      /append-only: UPDATE refused/,
    );
    await expect(
      db.query('DELETE FROM audit_events WHERE account_id = $1', [a.accountId]),
    ).rejects.toThrow(/append-only: DELETE refused/);
    // Even a statement that matches no row is refused.
    await expect(db.query('DELETE FROM audit_events WHERE false')).rejects.toThrow(/append-only/);
    const [{ count: after }] = await db.query<{ count: string }[]>(
      'SELECT count(*) FROM audit_events WHERE account_id = $1',
      [a.accountId],
    );
    expect(after).toBe(count);
  });

  describe('GET /api/auth/v1/audit-events/', () => {
    it("lists the account's events newest first, filtered, keyset-paged, never another account's", async () => {
      const list = await http()
        .get(
          `/api/auth/v1/audit-events/?resource_type=patient&resource_id=${fx.patientCode}&limit=2`,
        )
        .set(a.auth)
        .expect(200);
      expect(list.body.result).toHaveLength(2);
      expect(list.body.result[0]).toEqual({
        id: expect.any(String),
        created_at: expect.stringMatching(/\+00:00$/),
        actor_type: 'api_key',
        actor: a.apiKey.slice(0, 10),
        action: expect.any(String),
        resource_type: 'patient',
        resource_id: fx.patientCode,
        request_id: expect.any(String),
        ip: expect.any(String),
      });
      const seen = new Set(list.body.result.map((e: { id: string }) => e.id));
      let cursor = list.body.next_cursor as string | null;
      expect(cursor).not.toBeNull();
      while (cursor) {
        const page = await http()
          .get(
            `/api/auth/v1/audit-events/?resource_type=patient&resource_id=${fx.patientCode}&limit=2&cursor=${cursor}`,
          )
          .set(a.auth)
          .expect(200);
        for (const e of page.body.result) {
          expect(seen.has(e.id)).toBe(false);
          expect(e.resource_id).toBe(fx.patientCode);
          seen.add(e.id);
        }
        cursor = page.body.next_cursor;
      }
      const [{ count }] = await db.query<{ count: string }[]>(
        `SELECT count(*) FROM audit_events WHERE account_id = $1 AND resource_type = 'patient' AND resource_id = $2`,
        [a.accountId, fx.patientCode],
      );
      expect(seen.size).toBe(Number(count));

      const other = await http().get('/api/auth/v1/audit-events/').set(b.auth).expect(200);
      expect(other.body).toEqual({ result: [], next_cursor: null });
    });

    it('refuses an unknown resource type and a bad cursor with field errors', async () => {
      const res = await http().get('/api/auth/v1/audit-events/?resource_type=visit').set(a.auth);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        errors: {
          resource_type: {
            $: ['"visit" is not a valid choice.', MSG.allowedChoices(TRAIL_RESOURCE_TYPES)],
          },
        },
      });
      const bad = await http().get('/api/auth/v1/audit-events/?cursor=nope').set(a.auth);
      expect(bad.status).toBe(400);
      expect(bad.body.errors.cursor).toBeDefined();
    });

    it('a key without audit:read cannot list events', async () => {
      const { key } = await t.app
        .get(ApiKeysService)
        .create(a.accountId, 'no audit', [
          'eligibility:write',
          'patients:write',
          'claims:write',
          'webhooks:write',
        ]);
      const res = await http().get('/api/auth/v1/audit-events/').set('Authorization', `Api ${key}`);
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ detail: 'This API key is not allowed to read audit events.' });
    });
  });

  describe('web application', () => {
    async function signIn(account: TestAccount) {
      const agent = request.agent(t.app.getHttpServer());
      const login = await agent.get('/app/login');
      await agent
        .post('/app/login')
        .type('form')
        .send({ _csrf: csrfOf(login.text), email: account.email, password: account.password })
        .expect(302);
      return agent;
    }

    it("records a web user's reads and changes of patient data under the user's e-mail", async () => {
      const web = await signIn(a);
      const reads: [string, string, string, string | null][] = [
        [`/app/patients/${fx.patientCode}/`, 'patient', 'read', fx.patientCode],
        ['/app/patients/', 'patient', 'list', null],
        [`/app/eligibility/${fx.uid}`, 'eligibility_request', 'read', fx.uid],
        ['/app/', 'eligibility_request', 'list', null],
        [
          `/app/eligibility/${fx.uid}/persons/${fx.personId}/estimate`,
          'eligibility_request',
          'read',
          fx.uid,
        ],
      ];
      for (const [url, resourceType, action, resourceId] of reads) {
        const requestId = `web-${randomUUID()}`;
        await web.get(url).set('X-Request-Id', requestId).expect(200);
        const events = await eventsOf(requestId);
        expect({ url, events }).toEqual({
          url,
          events: [
            expect.objectContaining({
              account_id: a.accountId,
              actor_type: 'user',
              actor: a.email,
              api_key_id: null,
              user_id: expect.any(String),
              action,
              resource_type: resourceType,
              resource_id: resourceId,
            }),
          ],
        });
      }

      // A form that creates names the record it made (from where it sends the user).
      const form = await web.get('/app/patients/new').expect(200);
      const requestId = `web-${randomUUID()}`;
      const created = await web
        .post('/app/patients/new')
        .type('form')
        .set('X-Request-Id', requestId)
        .send({
          _csrf: csrfOf(form.text),
          first_name: 'Web',
          last_name: 'Created',
          dob: '1970-05-06',
        })
        .expect(302);
      const code = /\/app\/patients\/([^/]+)\//.exec(created.headers.location)![1];
      expect(await eventsOf(requestId)).toEqual([
        expect.objectContaining({
          actor: a.email,
          action: 'create',
          resource_type: 'patient',
          resource_id: code,
        }),
      ]);

      // The empty check form reads no patient; the one filled from a patient does.
      const blank = `web-${randomUUID()}`;
      await web.get('/app/eligibility/new').set('X-Request-Id', blank).expect(200);
      expect(await eventsOf(blank)).toEqual([]);
      const filled = `web-${randomUUID()}`;
      await web
        .get(`/app/eligibility/new?patient=${fx.patientCode}`)
        .set('X-Request-Id', filled)
        .expect(200);
      expect(await eventsOf(filled)).toEqual([
        expect.objectContaining({
          action: 'read',
          resource_type: 'patient',
          resource_id: fx.patientCode,
        }),
      ]);
    });

    it('the audit page lists the events, filtered by kind and record', async () => {
      const web = await signIn(a);
      const page = await web
        .get(`/app/audit/?resource_type=claim&resource_id=${fx.claimCode}`)
        .expect(200);
      expect(page.text).toContain('Audit trail');
      expect(page.text).toContain(fx.claimCode);
      expect(page.text).toContain('notify');
      expect(page.text).not.toContain(fx.patientCode);
      const all = await web.get('/app/audit/').expect(200);
      expect(all.text).toContain(a.email);
      // Another account's users see only their own trail.
      const other = await (await signIn(b)).get('/app/audit/').expect(200);
      expect(other.text).not.toContain(fx.patientCode);
      expect(other.text).not.toContain(a.email);
    });
  });
});

/** The security events each API route records (issue 27); every other route records none. */
const SECURITY_EVENTS: Record<string, string[]> = {
  'POST /api/auth/v1/webhooks/': ['webhook create'],
  'PATCH /api/auth/v1/webhooks/:id/': ['webhook update'],
  'DELETE /api/auth/v1/webhooks/:id/': ['webhook delete'],
  'POST /api/auth/v1/iframe-session/': ['embed_link mint'],
  'POST /api/auth/v1/locations/': ['location create'],
  'PATCH /api/auth/v1/locations/:code/': ['location update'],
};

function isSecurityEvent(resourceType: string): boolean {
  return (SECURITY_RESOURCE_TYPES as readonly string[]).includes(resourceType);
}

function csrfOf(html: string): string {
  return /name="_csrf" value="([^"]+)"/.exec(html)![1];
}
