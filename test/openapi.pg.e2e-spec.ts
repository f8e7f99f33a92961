import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createConfig, lintFromString } from '@redocly/openapi-core';
import request from 'supertest';
import { DEMO, patient, startSearch, waitForResult } from './support/eligibility';
import { createAccount, TestAccount } from './support/factories';
import { OpenApiChecker, OpenApiDocument } from './support/openapi';
import { answersChecked, takeViolations } from './support/openapi-responses';
import { TestReceiver } from './support/receiver';
import { createTestApp, TestApp } from './support/app';
import { isApiPath } from '@/platform/http/doors';

/** The security of a door's operation: `Api <key>` or `Bearer <key>`, either one. */
const DOOR = [{ Api: [] }, { Bearer: [] }];

type Json = Record<string, any>;

/** Every schema object of the document with its JSON pointer. */
function schemas(doc: Json): { pointer: string; schema: Json }[] {
  const out: { pointer: string; schema: Json }[] = [];
  const walk = (node: unknown, pointer: string, isSchema: boolean) => {
    if (typeof node !== 'object' || node === null) return;
    if (Array.isArray(node)) {
      node.forEach((n, i) => walk(n, `${pointer}/${i}`, isSchema));
      return;
    }
    const obj = node as Json;
    if (isSchema) out.push({ pointer, schema: obj });
    for (const [key, value] of Object.entries(obj)) {
      const child = `${pointer}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`;
      if (isSchema && key === 'properties') {
        for (const [name, prop] of Object.entries(value as Json))
          walk(prop, `${child}/${name}`, true);
      } else if (isSchema && ['items', 'additionalProperties', 'not'].includes(key)) {
        walk(value, child, true);
      } else if (isSchema && ['oneOf', 'anyOf', 'allOf'].includes(key)) {
        walk(value, child, true);
      } else if (!isSchema && key === 'schema') {
        walk(value, child, true);
      } else if (!isSchema && pointer === '#/components/schemas') {
        walk(value, child, true);
      } else if (!isSchema) {
        walk(value, child, false);
      }
    }
  };
  walk(doc, '#', false);
  return out;
}

function operations(doc: Json): { path: string; method: string; op: Json }[] {
  return Object.entries(doc.paths as Record<string, Json>).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([m]) => ['get', 'post', 'put', 'patch', 'delete'].includes(m))
      .map(([method, op]) => ({ path, method, op: op as Json })),
  );
}

describe('the OpenAPI document at /docs-json tells the truth', () => {
  let t: TestApp;
  let a: TestAccount;
  let doc: Json;
  let checker: OpenApiChecker;
  const http = () => request(t.app.getHttpServer());

  beforeAll(async () => {
    t = await createTestApp();
    a = await createAccount(t.app);
    doc = (await http().get('/docs-json').expect(200)).body as Json;
    checker = new OpenApiChecker(doc as OpenApiDocument);
  });
  afterAll(() => t.close());

  it('documents every API path with its trailing slash; the service answers both forms', async () => {
    const api = Object.keys(doc.paths).filter((p) => p.startsWith('/api/'));
    expect(api.length).toBeGreaterThan(10);
    expect(api.filter((p) => !p.endsWith('/'))).toEqual([]);
    expect(api).toContain('/api/auth/v2/eligibility/{request_uid}/');
    for (const path of ['/api/auth/v1/locations/', '/api/auth/v1/locations']) {
      const res = await http().get(path).set(a.auth);
      expect(res.status).toBe(200);
    }
  });

  it('names the server from PUBLIC_URL and requires the API key everywhere but the probes', () => {
    expect(doc.servers).toEqual([{ url: t.config.publicUrl }]);
    expect(doc.security).toEqual([{ Api: [] }]);
    for (const { path, op } of operations(doc)) {
      if (path.startsWith('/health/')) expect(op.security).toEqual([]);
      // The doors take `Bearer <key>` as well (docs/api.md, Authentication).
      else if (!path.startsWith('/api/')) expect([path, op.security]).toEqual([path, DOOR]);
      else expect(op.security ?? doc.security).toEqual([{ Api: [] }]);
    }
  });

  it('is the checked-in openapi.json, but for the server it names', () => {
    const file = JSON.parse(readFileSync(join(__dirname, '..', 'openapi.json'), 'utf8')) as Json;
    expect(file.servers).toEqual([{ url: 'http://localhost:3000' }]);
    expect({ ...doc, servers: file.servers }).toEqual(file);
  });

  it('documents the health probes with their trailing slash; both forms answer', async () => {
    expect(Object.keys(doc.paths).filter((p) => p.startsWith('/health/'))).toEqual([
      '/health/live/',
      '/health/ready/',
    ]);
    // Without Redis, as npm test's tier runs the service (jest.config.js), ready answers its
    // documented 503 (docs/api.md, Health; the 200 is test/health.redis.e2e-spec.ts's).
    expect(doc.paths['/health/ready/'].get.responses['503']).toBeDefined();
    for (const path of ['/health/ready/', '/health/ready', '/health/live/', '/health/live']) {
      const res = await http().get(path);
      expect([path, res.status]).toEqual([path, path.includes('ready') ? 503 : 200]);
      expect(checker.check(answer('GET', path, res))).toEqual([]);
    }
  });

  it('declares Retry-After on the 429 answer of every API operation', () => {
    for (const { path, op } of operations(doc)) {
      if (!isApiPath(path)) continue;
      expect([path, op.responses['429']?.headers?.['Retry-After']?.required]).toEqual([path, true]);
    }
  });

  it('gives every field a real type: integers as integer, timestamps as date-time, null only where nullable', () => {
    const problems: string[] = [];
    for (const { pointer, schema } of schemas(doc)) {
      // The null alternative of a nullable enum or reference (api-document.ts).
      const nullOnly =
        JSON.stringify(Object.keys(schema)) === '["enum"]' && schema.enum[0] === null;
      const typed =
        nullOnly ||
        'type' in schema ||
        '$ref' in schema ||
        'oneOf' in schema ||
        'anyOf' in schema ||
        'allOf' in schema;
      if (!typed) problems.push(`${pointer}: no type`);
      // Numbers only as the number form of money inputs (beside their decimal-string form), and
      // measures: the directory's median minutes, to one decimal (docs/api.md, The insurer
      // directory), insurer health's share answered and seconds, to three (Insurer health).
      const measure =
        pointer.endsWith('/InsurerDirectoryEntryDoc/properties/median_minutes_to_answer') ||
        /\/InsurerHealthEntryDoc\/properties\/(answered_share|p50_seconds|p95_seconds)$/.test(
          pointer,
        );
      if (schema.type === 'number' && !/\/oneOf\/\d+$/.test(pointer) && !measure)
        problems.push(`${pointer}: number (integers are integer)`);
      if (schema.nullable && !schema.type) problems.push(`${pointer}: nullable without a type`);
      // Tools that turn `nullable` into JSON Schema add null to the enum; a second null makes
      // the schema uncompilable (test/openapi-validators.spec.ts).
      if (schema.nullable && schema.enum)
        problems.push(`${pointer}: nullable enum (write anyOf [enum, {enum: [null]}])`);
      if (schema.enum?.includes(null) && !nullOnly) problems.push(`${pointer}: null in an enum`);
      if (schema.nullable && schema.type === 'object' && !schema.properties) {
        const nullOnly = schema.enum?.length === 1 && schema.enum[0] === null;
        const freeForm = schema.additionalProperties === true;
        if (!nullOnly && !freeForm) problems.push(`${pointer}: nullable untyped object`);
      }
      if (schema.allOf && schema.nullable) problems.push(`${pointer}: allOf rejects null`);
      const name = pointer.split('/').pop()!;
      // the Claim reports and remittances names a remittance section's (docs/api.md) payment date (BPR16, a date) `paid_at`.
      const dateNamedAt = name === 'paid_at' && /Remittance/.test(pointer);
      if (
        /_at$/.test(name) &&
        name !== 'plan_token_expired_at' &&
        !(dateNamedAt && schema.format === 'date') &&
        schema.format !== 'date-time'
      )
        problems.push(`${pointer}: timestamp without format date-time`);
      if (/(^id|_id|_ms|_count|_code)$/.test(name) && schema.type === 'number')
        problems.push(`${pointer}: integer documented as number`);
    }
    expect(problems).toEqual([]);
    const person = doc.components.schemas.PersonV2Doc.properties as Json;
    expect(person.id.type).toBe('integer');
    expect(person.member_id).toMatchObject({ type: 'string', nullable: true });
    expect(person.is_active).toMatchObject({ type: 'boolean', nullable: true });
    expect(doc.components.schemas.AttemptResponse.properties!.status_code).toMatchObject({
      type: 'integer',
      nullable: true,
    });
    expect(doc.components.schemas.EligibilityResultV2.properties!.error_code.anyOf).toEqual([
      { type: 'string', enum: ['insurer_problem', 'unexpected_error'] },
      { enum: [null] },
    ]);
  });

  it('has examples that validate against their own schemas', () => {
    const problems: string[] = [];
    const check = (pointer: string, example: unknown) => {
      const result = checker.validateValue({ $ref: `doc${pointer}` }, example);
      if (result !== true) problems.push(`${pointer}: ${result.join('; ')}`);
    };
    for (const { pointer, schema } of schemas(doc)) {
      if ('example' in schema) check(encode(pointer), schema.example);
    }
    // Media-type and parameter examples, against their `schema`.
    const walk = (node: unknown, pointer: string) => {
      if (typeof node !== 'object' || node === null) return;
      const obj = node as Json;
      if ('schema' in obj && !pointer.includes('/properties/')) {
        if ('example' in obj) check(encode(`${pointer}/schema`), obj.example);
        for (const ex of Object.values((obj.examples ?? {}) as Json))
          check(encode(`${pointer}/schema`), (ex as Json).value);
      }
      for (const [key, value] of Object.entries(obj))
        walk(value, `${pointer}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`);
    };
    walk(doc.paths, '#/paths');
    expect(problems).toEqual([]);
  });

  it('accepts the money and quantity forms of the contract in a claim body (12.22, "12.22", "2")', async () => {
    const claim = doc.paths['/api/auth/v1/claims/'].post.requestBody.content['application/json'];
    const member = {
      first_name: 'Maria',
      last_name: 'Gonzalez',
      dob: '1986-04-12',
      sex: 'female',
      member_id: 'VSP104882211',
    };
    const body = {
      patient: member,
      primary_member: { ...member, insurer_code: 'insurer:vision:vsp' },
      services: [
        {
          codes: ['92014'],
          date: '2026-11-14',
          quantity: '2',
          cost: 12.22,
          diagnosis_codes: ['H52.13'],
        },
        { codes: ['V2100'], date: '2026-11-14', quantity: 1, cost: '44.21' },
      ],
      paid_amount: 50,
    };
    expect(checker.validateValue(claim.schema, body)).toBe(true);
    const res = await http().post('/api/auth/v1/claims/').set(a.auth).send(body);
    expect(res.status).toBe(201);
    expect(res.body.services.map((s: Json) => [s.quantity, s.cost])).toEqual([
      [2, '12.2200'],
      [1, '44.2100'],
    ]);
  });

  it('describes the webhook deliveries: the payload of each version and the headers the service sends', async () => {
    const callbacks = doc.paths['/api/auth/v1/webhooks/'].post.callbacks as Json;
    expect(Object.keys(callbacks)).toEqual([
      'eligibility.finished',
      'eligibility.updated',
      'claim.status_changed',
      'eligibility.batch_finished',
      'remittance.received',
      'verification_task.created',
      'verification_task.overdue',
      'appointment.checked',
      'appointment.coverage_changed',
    ]);
    const delivery = callbacks['eligibility.finished']['{$request.body#/url}'].post;
    const headers = (delivery.parameters as Json[]).map((p) =>
      p.$ref ? (doc.components.parameters[(p.$ref as string).split('/').pop()!] as Json) : p,
    );
    expect(headers.map((h) => h.name)).toEqual(
      expect.arrayContaining([
        'X-Event-Type',
        'X-Delivery-Id',
        'X-Signature',
        'webhook-id',
        'webhook-timestamp',
        'webhook-signature',
      ]),
    );
    const payload = delivery.requestBody.content['application/json'].schema;

    const receiver = await new TestReceiver().start();
    try {
      for (const [version, path] of [
        ['v2', '/v2'],
        ['v1', '/v1'],
      ]) {
        await http()
          .post('/api/auth/v1/webhooks/')
          .set(a.auth)
          .send({ url: receiver.url(path), version, secret: 'a-shared-secret-1' })
          .expect(201);
      }
      const uid = await startSearch(t.app, a.auth, { patient: patient() });
      const [v2] = await receiver.waitFor('/v2', 1);
      const [v1] = await receiver.waitFor('/v1', 1);
      for (const [received, version] of [
        [v2, 'V2'],
        [v1, 'V1'],
      ] as const) {
        for (const h of headers) {
          const value = received.headers[h.name.toLowerCase()];
          if (h.required) expect([h.name, value]).toEqual([h.name, expect.any(String)]);
          if (value !== undefined)
            expect([h.name, checker.validateValue(h.schema, value)]).toEqual([h.name, true]);
        }
        expect(received.headers['x-event-type']).toBe('eligibility.finished');
        const body = JSON.parse(received.raw.toString('utf8'));
        expect(body.request_uid).toBe(uid);
        expect(checker.validateValue(payload, body)).toBe(true);
        const exact = { $ref: `doc#/components/schemas/EligibilityResult${version}` };
        expect(checker.validateValue(exact, body)).toBe(true);
      }
    } finally {
      await receiver.stop();
    }
  });

  it('runs every documented example of the eligibility POST as it is on a fresh account (201)', async () => {
    const fresh = await createAccount(t.app);
    const examples = doc.paths['/api/auth/v1/eligibility/'].post.requestBody.content[
      'application/json'
    ].examples as Record<string, { value: Json }>;
    expect(Object.keys(examples)).toEqual(['sandbox', 'universal']);
    for (const [name, example] of Object.entries(examples)) {
      const res = await http()
        .post('/api/auth/v1/eligibility/')
        .set(fresh.auth)
        .send(example.value);
      expect([name, res.status, res.body]).toEqual([
        name,
        201,
        { request_uid: expect.any(String) },
      ]);
    }
  });

  it('says that Universal Search leaves a failed insurer out of a complete result, and it does', async () => {
    const text = JSON.stringify(doc.components.schemas.EligibilityResultV2.properties!.results);
    expect(text).toMatch(/which failed and why/);
    expect(doc.paths['/api/auth/v1/eligibility/'].post.description).toMatch(/left out/);
    // Spectera has no path here (no clearinghouse): it fails, the sandbox answers.
    const uid = await startSearch(t.app, a.auth, {
      insurer_code: undefined,
      insurer_code_list: [DEMO, 'insurer:vision:spectera'],
      patient: patient(),
    });
    const result = await waitForResult(t.app, a.auth, uid);
    expect(result.status).toBe('complete');
    expect(new Set(result.results.map((r: Json) => r.insurer_code))).toEqual(new Set([DEMO]));
    expect(result.insurers.map((e: Json) => [e.insurer_code, e.state])).toEqual([
      [DEMO, 'found'],
      ['insurer:vision:spectera', 'failed'],
    ]);
  });

  it('catches answers that drift from the document', () => {
    const ok = {
      status: 200,
      contentType: 'application/json',
      headers: { 'x-request-id': 'req-1', etag: 'W/"5d-abc"' } as Record<string, unknown>,
    };
    const location = {
      code: 'LOC7K2M9QXA',
      title: 'x',
      status: 'enabled',
      is_default: true,
      npi: null,
      organization_name: null,
      tax_id: null,
      address: null,
      taxonomy_code: '152W00000X',
      rendering_provider: null,
      time_zone: null,
      created_at: '2026-11-21T13:51:16.926+00:00',
    };
    const list = (extra: Json) => ({ result: [{ ...location, ...extra }] });
    const get = (body: unknown, more: Json = {}) =>
      checker.check({
        ...ok,
        method: 'GET',
        url: '/api/auth/v1/locations',
        body: JSON.stringify(body),
        ...more,
      });
    expect(get(list({}))).toEqual([]);
    expect(get(list({ is_new: 1 })).join()).toMatch(/additional properties \(is_new\)/);
    expect(get(list({ title: null })).join()).toMatch(/\/result\/0\/title must be string/);
    expect(get(list({ created_at: '21/11/2026' })).join()).toMatch(/date-time/);
    expect(get(list({}), { headers: { etag: 'W/"5d-abc"' } })).toEqual([
      'header X-Request-Id is documented as required but missing',
    ]);
    expect(get(list({}), { headers: { ...ok.headers, etag: '"strong"' } }).join()).toMatch(
      /header ETag: \(body\) must match pattern/,
    );
    expect(get({ detail: 'x' }, { status: 418 })).toEqual(['status 418 is not documented']);
    expect(get({ detail: 'x' }, { status: 429 })).toEqual([
      'header Retry-After is documented as required but missing',
    ]);
    expect(get({ ok: true }, { url: '/api/auth/v1/secret-endpoint/' })).toEqual([
      'no documented operation answers 200 here',
    ]);
    expect(get({ detail: 'Not found.' }, { url: '/api/auth/v1/nope/', status: 404 })).toEqual([]);
  });

  it('checks every answer the e2e tests receive (test/support/openapi-responses.ts)', async () => {
    const before = answersChecked();
    await http().get('/api/auth/v1/locations/').set(a.auth).expect(200);
    await http().get('/api/auth/v1/patients/NOPE/').set(a.auth).expect(404);
    expect(answersChecked()).toBe(before + 2);
    expect(takeViolations()).toEqual([]);
  });

  it('passes the Redocly linter (recommended rules) without errors', async () => {
    const config = await createConfig({
      extends: ['recommended'],
      // The contract's paths end with a slash (docs/api.md, Conventions), which this rule forbids.
      rules: { 'no-path-trailing-slash': 'off' },
    });
    const problems = await lintFromString({
      source: JSON.stringify(doc),
      absoluteRef: `${t.config.publicUrl}/docs-json`,
      config,
    });
    const errors = problems
      .filter((p) => p.severity === 'error')
      .map((p) => `${p.ruleId}: ${p.message} at ${p.location[0]?.pointer}`);
    expect(errors).toEqual([]);
  });
});

function answer(method: string, url: string, res: request.Response) {
  return {
    method,
    url,
    status: res.status,
    contentType: res.headers['content-type'],
    headers: res.headers,
    body: res.text,
  };
}

/** A JSON pointer as a URI fragment (ajv resolves `$ref`s as URIs). */
function encode(pointer: string): string {
  return pointer
    .split('/')
    .map((s, i) => (i === 0 ? s : encodeURIComponent(s)))
    .join('/');
}
