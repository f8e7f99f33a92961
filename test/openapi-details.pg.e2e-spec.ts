import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { Database } from '@/platform/db/database';
import { ApiKeysService } from '@/modules/auth/domain/api-keys.service';
import { KNOWN_INSURER_CODES } from '@/modules/insurers/domain/insurer-codes';
import { InsurerSettingsService } from '@/modules/insurers/domain/insurer-settings.service';
import { WebhookOutbox } from '@/modules/webhooks/domain/webhook-outbox';
import { UID_SYSTEM } from './support/fhir';
import { APPOINTMENT_BODY } from './support/api-routes';
import { createTestApp, TestApp } from './support/app';
import { DEMO, patient, startSearch, waitForResult } from './support/eligibility';
import { createAccount, TestAccount } from './support/factories';
import { OpenApiChecker, OpenApiDocument } from './support/openapi';
import { waitUntil } from './support/queues';
import { TestReceiver } from './support/receiver';

type Json = Record<string, any>;

/** Every `export const EVENT_X = '...'` of src/: the event types the service sends. */
function emittedEvents(): string[] {
  const files = (dir: string): string[] =>
    readdirSync(dir).flatMap((name) => {
      const path = join(dir, name);
      return statSync(path).isDirectory() ? files(path) : path.endsWith('.ts') ? [path] : [];
    });
  return files(join(__dirname, '..', 'src')).flatMap((f) =>
    [...readFileSync(f, 'utf8').matchAll(/(?:export )?const EVENT_\w+ = '([^']+)'/g)].map(
      (m) => m[1],
    ),
  );
}

const MEMBER = {
  first_name: 'Maria',
  last_name: 'Gonzalez',
  dob: '1986-04-12',
  sex: 'female',
  member_id: 'VSP104882211',
};

/** Issue 26: webhook events, X-Request-Id, ETag/304 and insurer codes in the document. */
describe('the OpenAPI document: events, headers, insurer codes', () => {
  let t: TestApp;
  let a: TestAccount;
  let doc: Json;
  let checker: OpenApiChecker;
  const receiver = new TestReceiver();
  const http = () => request(t.app.getHttpServer());

  beforeAll(async () => {
    await receiver.start();
    t = await createTestApp();
    a = await createAccount(t.app);
    doc = (await http().get('/docs-json').expect(200)).body as Json;
    checker = new OpenApiChecker(doc as OpenApiDocument);
  });
  afterAll(async () => {
    await t.close();
    await receiver.stop();
  });

  const callback = (event: string) =>
    doc.paths['/api/auth/v1/webhooks/'].post.callbacks[event]['{$request.body#/url}'].post as Json;
  const payloadOf = (event: string) =>
    callback(event).requestBody.content['application/json'].schema as Json;

  it('has a callback for every event type the service emits, each naming its X-Event-Type', () => {
    const emitted = emittedEvents();
    expect(emitted).toEqual(
      expect.arrayContaining([
        'eligibility.finished',
        'claim.status_changed',
        'eligibility.batch_finished',
      ]),
    );
    const callbacks = doc.paths['/api/auth/v1/webhooks/'].post.callbacks as Json;
    expect(Object.keys(callbacks).sort()).toEqual([...emitted].sort());
    for (const event of emitted) {
      const eventType = (callback(event).parameters as Json[]).find(
        (p) => p.name === 'X-Event-Type',
      )!;
      expect(eventType.schema.enum).toEqual([event]);
      expect(payloadOf(event)).toBeDefined();
    }
    // The delivery log's `event` and the shared header list every type.
    const delivery = doc.components.schemas.DeliveryResponse as Json;
    expect([...delivery.properties.event.enum].sort()).toEqual([...emitted].sort());
    expect([...doc.components.parameters.WebhookEventType.schema.enum].sort()).toEqual(
      [...emitted].sort(),
    );
  });

  it('describes the batch delivery with the batch body the service sends', async () => {
    await http()
      .post('/api/auth/v1/webhooks/')
      .set(a.auth)
      .send({ url: receiver.url('/batch'), events: ['batch'] })
      .expect(201);
    await http()
      .post('/api/auth/v1/eligibility/batches/')
      .set(a.auth)
      .send({
        batch_uid: 'docs-batch',
        items: [{ insurer_code: DEMO, request_uid: 'docs-item-1', patient: patient() }],
      })
      .expect(201);
    const [delivered] = await receiver.waitFor('/batch', 1, 30_000);
    expect(delivered.headers['x-event-type']).toBe('eligibility.batch_finished');
    const body = JSON.parse(delivered.raw.toString('utf8'));
    expect(body.batch_uid ?? body.uid).toBe('docs-batch');
    expect(checker.validateValue(payloadOf('eligibility.batch_finished'), body)).toBe(true);
    expect(checker.validateValue(payloadOf('claim.status_changed'), body)).not.toBe(true);
  });

  it('describes the claim delivery with the claim body the service sends', async () => {
    await http()
      .post('/api/auth/v1/webhooks/')
      .set(a.auth)
      .send({ url: receiver.url('/claim'), events: ['claim'] })
      .expect(201);
    const claim = await createClaim();
    // The delivery a status change records: the claim's GET body (claim-transitions.ts).
    const got = await http().get(`/api/auth/v1/claims/${claim.code}/`).set(a.auth).expect(200);
    const outbox = t.app.get(WebhookOutbox);
    const ids = await t.app.get(Database).transaction((tx) =>
      outbox.recordEventInTx(tx, {
        accountId: a.accountId,
        topic: 'claim',
        event: 'claim.status_changed',
        resourceKey: `claim:${claim.code}:docs`,
        resourceUid: claim.code,
        body: got.text,
      }),
    );
    expect(ids).toHaveLength(1); // queued after the commit (recordEventInTx)
    const [delivered] = await receiver.waitFor('/claim', 1);
    expect(delivered.headers['x-event-type']).toBe('claim.status_changed');
    const body = JSON.parse(delivered.raw.toString('utf8'));
    expect(checker.validateValue(payloadOf('claim.status_changed'), body)).toBe(true);
    expect(checker.validateValue(payloadOf('eligibility.batch_finished'), body)).not.toBe(true);
  });

  it('documents X-Request-Id on every answer of every operation, and the service sends it', async () => {
    const missing: string[] = [];
    for (const [path, item] of Object.entries(doc.paths as Json))
      for (const [method, op] of Object.entries(item as Json))
        for (const [status, response] of Object.entries((op as Json).responses ?? {}))
          if (!(response as Json).headers?.['X-Request-Id'])
            missing.push(`${method} ${path} ${status}`);
    expect(missing).toEqual([]);
    expect(doc.components.headers.RequestId.required).toBe(true);
    const mine = await http()
      .get('/api/auth/v1/locations/')
      .set(a.auth)
      .set('X-Request-Id', 'r-42');
    expect(mine.headers['x-request-id']).toBe('r-42');
    const refused = await http().get('/api/auth/v1/locations/');
    expect(refused.status).toBe(401);
    expect(refused.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('answers If-None-Match with 304 on every GET that documents ETag, and not on the stored results', async () => {
    const claim = await createClaim();
    const pat = await http()
      .post('/api/auth/v1/patients/')
      .set(a.auth)
      .send({ first_name: 'Etag', last_name: 'Probe', dob: '1990-01-01' })
      .expect(200);
    const hook = await http()
      .post('/api/auth/v1/webhooks/')
      .set(a.auth)
      .send({ url: receiver.url('/etag') })
      .expect(201);
    const uid = await startSearch(t.app, a.auth, { patient: patient() });
    await waitForResult(t.app, a.auth, uid);
    // A remittance (docs/api.md, Claim reports and remittances): an uploaded 835 is stored for the account, matched or not.
    await http()
      .post('/api/auth/v1/claim-reports/')
      .set(a.auth)
      .send({ x12: readFileSync(join(__dirname, 'x12/reports/835-two-sets.x12'), 'utf8') })
      .expect(202);
    const remittances = await http().get('/api/auth/v1/remittances/').set(a.auth).expect(200);
    // docs/api.md, Insurers and assisted verification: a VSP search waits for a person; its task, and the portal credentials a bot
    // reads with a key that holds `verification:credentials`.
    const vsp = await startSearch(t.app, a.auth, {
      insurer_code: 'insurer:vision:vsp',
      patient: patient(),
    });
    const task = await waitUntil('verification task', async () => {
      const res = await http().get(`/api/auth/v1/eligibility/${vsp}/`).set(a.auth);
      return res.body.verification?.task_id as string | undefined;
    });
    await t.app
      .get(InsurerSettingsService)
      .setCredentials(a.accountId, 'insurer:vision:vsp', 'u', 'p');
    const { key: bot } = await t.app
      .get(ApiKeysService)
      .create(a.accountId, 'bot', ['verification:write', 'verification:credentials']);
    // Only the verifier holding the task reads its portal password.
    await http()
      .post(`/api/auth/v1/verification-tasks/${task}/claim/`)
      .set({ Authorization: `Api ${bot}` })
      .expect(200);
    // docs/api.md, Plan designs: a saved plan of the account.
    const [{ id: designId }] = await t.app.get(DataSource).query(
      `INSERT INTO plan_designs (account_id, insurer_code, group_key, plan_name, plan_group_id, items)
         VALUES ($1, 'insurer:vision:vsp', 'GRP-1', 'VSP Choice', 'GRP-1', '[]') RETURNING id`,
      [a.accountId],
    );
    // docs/api.md, Appointments: an appointment of the account.
    await http()
      .put('/api/auth/v1/appointments/docs-visit/')
      .set(a.auth)
      .send(APPOINTMENT_BODY)
      .expect(201);
    // docs/api.md, The counter: a quote.
    const quote = await http()
      .post('/api/auth/v1/quotes/')
      .set(a.auth)
      .send({
        plan: { insurer_state: 'inn', items: [], materials: { network: 'inn' } },
        order: { frame: { retail: '100.00' } },
      })
      .expect(201);
    // docs/api.md, FHIR R4: the search's response (its Patient's id is the prefix), an extension.
    const fhirId = (
      await http()
        .get(`/fhir/R4/CoverageEligibilityResponse?identifier=${UID_SYSTEM}|${uid}`)
        .set(a.auth)
        .expect(200)
    ).body.entry[0].resource.id as string;
    const authFor = (path: string) =>
      path.endsWith('/credentials/') ? { Authorization: `Api ${bot}` } : a.auth;
    const values: Record<string, string> = {
      code: '',
      batch_uid: 'docs-batch',
      id: hook.body.id,
      request_uid: uid,
      external_id: 'docs-visit',
    };
    const fhirIds: Record<string, string> = {
      '/fhir/R4/StructureDefinition/{id}': 'wait-for',
      '/fhir/R4/CoverageEligibilityResponse/{id}': fhirId,
      '/fhir/R4/Coverage/{id}': fhirId,
      '/fhir/R4/Patient/{id}': fhirId.replace(/-\d+$/, ''),
    };
    const concrete = (path: string) =>
      path.replace(/\{(\w+)\}/g, (_, name: string) =>
        path in fhirIds
          ? fhirIds[path]
          : name === 'code'
            ? path.startsWith('/api/auth/v1/claims/')
              ? claim.code
              : path.startsWith('/api/auth/v1/patients/')
                ? pat.body.code
                : a.locationCode
            : name === 'id' && path.startsWith('/api/auth/v1/remittances/')
              ? (remittances.body.result[0].id as string)
              : name === 'id' && path.startsWith('/api/auth/v1/verification-tasks/')
                ? task
                : name === 'id' && path.startsWith('/api/auth/v1/plan-designs/')
                  ? (designId as string)
                  : name === 'id' && path.startsWith('/api/auth/v1/quotes/')
                    ? (quote.body.id as string)
                    : values[name],
      );

    const withETag: string[] = [];
    for (const [path, item] of Object.entries(doc.paths as Json)) {
      const get = (item as Json).get as Json | undefined;
      if (!get) continue;
      const url = concrete(path);
      const first = await http().get(url).set(authFor(path));
      // A claim that went the paper route has no 837P.
      if (path.endsWith('/x12/') && first.status === 404) continue;
      // Readiness without Redis, as npm test's tier runs the service: 503 (docs/api.md, Health),
      // never a 304; its 304 is test/health.redis.e2e-spec.ts's.
      if (path === '/health/ready/') {
        expect(first.status).toBe(503);
        continue;
      }
      expect([path, first.status]).toEqual([path, 200]);
      const documented = '304' in get.responses;
      expect([path, get.responses['200'].headers?.ETag !== undefined]).toEqual([path, documented]);
      if (!documented) {
        expect([path, first.headers.etag]).toEqual([path, undefined]);
        continue;
      }
      withETag.push(path);
      expect(get.parameters).toEqual(
        expect.arrayContaining([expect.objectContaining({ name: 'If-None-Match', in: 'header' })]),
      );
      const etag = first.headers.etag;
      expect([path, etag]).toEqual([path, expect.stringMatching(/^W\/".+"$/)]);
      const again = await http().get(url).set(authFor(path)).set('If-None-Match', etag);
      expect([path, again.status, again.text ?? '']).toEqual([path, 304, '']);
      expect(again.headers.etag).toBe(etag);
      expect(again.headers['x-request-id']).toBeDefined();
    }
    expect(withETag).toEqual(
      expect.arrayContaining(['/api/auth/v1/locations/', '/api/auth/v1/claims/{code}/']),
    );
    // The stored eligibility results are written as stored: no ETag, no 304 documented.
    for (const path of [
      '/api/auth/v1/eligibility/{request_uid}/',
      '/api/auth/v2/eligibility/{request_uid}/',
    ]) {
      expect(doc.paths[path].get.responses['304']).toBeUndefined();
      expect(withETag).not.toContain(path);
    }
  });

  it('lists the insurer codes as an enum wherever insurer_code or insurer_code_list appears', async () => {
    const found: string[] = [];
    const walk = (node: unknown, pointer: string) => {
      if (typeof node !== 'object' || node === null) return;
      const obj = node as Json;
      if (obj.properties?.insurer_code) {
        found.push(`${pointer}/insurer_code`);
        const schema = obj.properties.insurer_code;
        // A nullable one is `anyOf: [{enum: codes}, {enum: [null]}]` (api-document.ts).
        const codes = schema.anyOf ? schema.anyOf[0].enum : schema.enum;
        expect([pointer, codes]).toEqual([pointer, KNOWN_INSURER_CODES]);
        if (schema.anyOf) expect(schema.anyOf[1]).toEqual({ enum: [null] });
      }
      if (obj.properties?.insurer_code_list) {
        found.push(`${pointer}/insurer_code_list`);
        expect([pointer, obj.properties.insurer_code_list.items.enum]).toEqual([
          pointer,
          KNOWN_INSURER_CODES,
        ]);
      }
      for (const [key, value] of Object.entries(obj)) walk(value, `${pointer}/${key}`);
    };
    walk(doc, '#');
    const createSchema = doc.paths['/api/auth/v1/eligibility/'].post.requestBody.content[
      'application/json'
    ].schema as Json;
    const unknown = { insurer_code: 'insurer:vision:nope', patient: patient() };
    expect(checker.validateValue(createSchema, unknown)).not.toBe(true);
    expect(
      checker.validateValue(createSchema, {
        insurer_code_list: [DEMO, 'insurer:vision:vsp'],
        patient: patient(),
      }),
    ).toBe(true);
    expect(found.some((p) => p.endsWith('/insurer_code_list'))).toBe(true);
    expect(found.length).toBeGreaterThan(3);
    // Answers carry known codes only: a result validates against the enum.
    const uid = await startSearch(t.app, a.auth, { patient: patient() });
    await waitForResult(t.app, a.auth, uid);
    const result = await http().get(`/api/auth/v2/eligibility/${uid}/`).set(a.auth);
    expect(result.body.results[0].insurer_code).toBe(DEMO);
    expect(checker.check(answer(`/api/auth/v2/eligibility/${uid}/`, result))).toEqual([]);
  });

  async function createClaim(): Promise<{ code: string }> {
    const res = await http()
      .post('/api/auth/v1/claims/')
      .set(a.auth)
      .send({
        patient: MEMBER,
        primary_member: { ...MEMBER, insurer_code: 'insurer:vision:vsp' },
        services: [
          {
            codes: ['92014'],
            date: '2026-11-14',
            quantity: 1,
            cost: '120.00',
            diagnosis_codes: ['H52.13'],
          },
        ],
        paid_amount: 50,
      });
    expect([res.status, res.body]).toEqual([
      201,
      expect.objectContaining({ code: expect.any(String) }),
    ]);
    return res.body as { code: string };
  }
});

function answer(url: string, res: request.Response) {
  return {
    method: 'GET',
    url,
    status: res.status,
    contentType: res.headers['content-type'],
    headers: res.headers,
    body: res.text,
  };
}
