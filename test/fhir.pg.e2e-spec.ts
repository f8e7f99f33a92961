import request from 'supertest';
import { DataSource } from 'typeorm';
import { ApiKeysService } from '@/modules/auth/domain/api-keys.service';
import { createTestApp, TestApp } from './support/app';
import { DEMO } from './support/eligibility';
import { createAccount, TestAccount } from './support/factories';
import { expectValidFhir } from './support/fhir-validators';
import {
  CANONICAL,
  FHIR,
  FHIR_JSON,
  fhirGet,
  pollOutcome,
  submit,
  submitBundle,
  UID_SYSTEM,
} from './support/fhir';

type Json = any;

/**
 * docs/api.md, FHIR R4: a sandbox check through the door, every resource it answers valid for
 * two independent validators (and the Patient for US Core), its errors as OperationOutcomes with
 * the JSON API's statuses, and nothing stored for a body it refuses.
 */
describe('FHIR R4 door (docs/api.md, FHIR R4)', () => {
  let t: TestApp;
  let a: TestAccount;
  let b: TestAccount;
  let db: DataSource;
  const http = () => request(t.app.getHttpServer());
  const parse = (res: { text: string }) => JSON.parse(res.text);
  const requestCount = async () =>
    Number((await db.query('SELECT count(*)::int AS n FROM eligibility_requests'))[0].n);

  beforeAll(async () => {
    t = await createTestApp();
    db = t.app.get(DataSource);
    a = await createAccount(t.app);
    b = await createAccount(t.app);
  });
  afterAll(() => t.close());

  describe('a sandbox check', () => {
    let queued: Json;
    let location: string;

    beforeAll(async () => {
      const res = await submit(t.app, a.apiKey, submitBundle([DEMO], { memberId: 'VSP123456789' }));
      expect(res.status).toBe(201);
      expect(res.headers['content-type']).toMatch(/^application\/fhir\+json/);
      queued = parse(res);
      location = res.headers.location;
    });

    it('answers 201 with one queued CoverageEligibilityResponse, its Location and identifier', () => {
      expect(queued).toMatchObject({
        resourceType: 'CoverageEligibilityResponse',
        status: 'active',
        outcome: 'queued',
        purpose: ['benefits'],
        identifier: [{ system: UID_SYSTEM, value: expect.any(String) }],
        request: { identifier: { system: UID_SYSTEM, value: queued.identifier[0].value } },
        insurer: { identifier: { system: 'urn:vision-eligibility:insurer-code', value: DEMO } },
      });
      expect(queued.id).toMatch(/^\d+-1$/);
      expect(queued.patient).toEqual({ reference: `Patient/${queued.id.split('-')[0]}` });
      expect(location).toMatch(new RegExp(`${FHIR}/CoverageEligibilityResponse/${queued.id}$`));
      expectValidFhir(queued);
    });

    it('is an ordinary eligibility request: the JSON API sees it', async () => {
      const uid = queued.identifier[0].value;
      await http().get(`/api/auth/v2/eligibility/${uid}/`).set(a.auth).expect(200);
    });

    it('polls to complete with the plan mapped, valid for both validators', async () => {
      const done = await pollOutcome(t.app, a.apiKey, queued.id);
      expect(done.outcome).toBe('complete');
      expectValidFhir(done);
      const [insurance] = done.insurance;
      expect(insurance.inforce).toBe(true);
      expect(insurance.coverage).toEqual({ reference: `Coverage/${queued.id}` });
      expect(insurance.benefitPeriod.start).toMatch(/^\d{4}-\d\d-\d\d$/);
      const items: Json[] = insurance.item;
      expect(items.length).toBeGreaterThan(0);
      for (const item of items) {
        // R4 ces-1: a category or a product or service, never both.
        expect(Boolean(item.category) !== Boolean(item.productOrService)).toBe(true);
        expect(['in', 'out']).toContain(item.network.coding[0].code);
      }
      const exam = items.find((i) => i.category?.coding[0].code === 'AN');
      expect(exam?.category.coding[0].system).toBe('https://x12.org/codes/service-type-codes');
      const copays = items
        .flatMap((i) => i.benefit ?? [])
        .filter((x: Json) => x.type.coding[0].code === 'copay');
      expect(copays.length).toBeGreaterThan(0);
      expect(copays[0].allowedMoney).toEqual({ value: expect.any(Number), currency: 'USD' });
      const extensions = items.flatMap((i) => i.extension ?? []).map((x: Json) => x.url);
      expect(extensions).toContain(`${CANONICAL}/StructureDefinition/benefit-frequency`);
      expect(extensions).toContain(`${CANONICAL}/StructureDefinition/next-eligible-date`);
    });

    it('reads back its Patient (US Core) and Coverage', async () => {
      const patientId = queued.id.split('-')[0];
      const p = await fhirGet(t.app, a.apiKey, `Patient/${patientId}`).expect(200);
      expect(p.headers['content-type']).toMatch(/^application\/fhir\+json/);
      const patient = parse(p);
      expect(patient).toMatchObject({
        resourceType: 'Patient',
        id: patientId,
        name: [{ family: 'Garcia', given: ['Maria'] }],
        birthDate: '1984-06-15',
        meta: { profile: ['http://hl7.org/fhir/us/core/StructureDefinition/us-core-patient'] },
      });
      expectValidFhir(patient);
      const coverage = parse(await fhirGet(t.app, a.apiKey, `Coverage/${queued.id}`).expect(200));
      expect(coverage).toMatchObject({
        resourceType: 'Coverage',
        subscriberId: 'VSP123456789',
        beneficiary: { reference: `Patient/${patientId}` },
        payor: [{ identifier: { value: DEMO } }],
      });
      expectValidFhir(coverage);
    });

    it('finds it by identifier, patient, request and created (a searchset Bundle)', async () => {
      const uid = queued.identifier[0].value;
      const patientId = queued.id.split('-')[0];
      for (const query of [
        `identifier=${encodeURIComponent(`${UID_SYSTEM}|${uid}`)}`,
        `patient=Patient/${patientId}`,
        `request=CoverageEligibilityRequest/${patientId}`,
        `patient=${patientId}&created=ge2020-01-01`,
      ]) {
        const res = await fhirGet(t.app, a.apiKey, `CoverageEligibilityResponse?${query}`).expect(
          200,
        );
        const bundle = parse(res);
        expect(bundle).toMatchObject({ resourceType: 'Bundle', type: 'searchset', total: 1 });
        expect(bundle.entry[0].resource.id).toBe(queued.id);
        expectValidFhir(bundle);
      }
      const none = parse(
        await fhirGet(
          t.app,
          a.apiKey,
          `CoverageEligibilityResponse?patient=${patientId}&created=lt2020-01-01`,
        ).expect(200),
      );
      expect(none.total).toBe(0);
      expectValidFhir(none);
      // Two parameters narrow each other; one parameter's comma-separated values are alternatives.
      const both = `patient=${patientId}&request=CoverageEligibilityRequest/${Number(patientId) + 1000}`;
      expect(
        parse(await fhirGet(t.app, a.apiKey, `CoverageEligibilityResponse?${both}`).expect(200))
          .total,
      ).toBe(0);
      const either = `patient=${Number(patientId) + 1000},${patientId}`;
      expect(
        parse(await fhirGet(t.app, a.apiKey, `CoverageEligibilityResponse?${either}`).expect(200))
          .total,
      ).toBe(1);
    });

    it('is audited as the JSON API audits a request: created and read, by its uid', async () => {
      const uid = queued.identifier[0].value;
      const rows = await db.query(
        `SELECT DISTINCT action FROM audit_events
          WHERE account_id = $1 AND resource_type = 'eligibility_request' AND resource_id = $2`,
        [a.accountId, uid],
      );
      expect(rows.map((r: Json) => r.action).sort()).toEqual(['create', 'read']);
    });

    it("answers another account's ids 404, as OperationOutcomes", async () => {
      const patientId = queued.id.split('-')[0];
      for (const path of [
        `CoverageEligibilityResponse/${queued.id}`,
        `Patient/${patientId}`,
        `Coverage/${queued.id}`,
      ]) {
        const res = await fhirGet(t.app, b.apiKey, path).expect(404);
        expect(res.headers['content-type']).toMatch(/^application\/fhir\+json/);
        const outcome = parse(res);
        expect(outcome.issue[0]).toMatchObject({ severity: 'error', code: 'not-found' });
        expectValidFhir(outcome);
      }
      const search = parse(
        await fhirGet(t.app, b.apiKey, `CoverageEligibilityResponse?patient=${patientId}`).expect(
          200,
        ),
      );
      expect(search.total).toBe(0);
    });

    it('refuses a key without eligibility:read (403)', async () => {
      const { key } = await t.app
        .get(ApiKeysService)
        .create(a.accountId, 'no reads', ['patients:read']);
      const res = await fhirGet(t.app, key, `CoverageEligibilityResponse/${queued.id}`).expect(403);
      const outcome = parse(res);
      expect(outcome.issue[0]).toMatchObject({
        code: 'forbidden',
        diagnostics: 'This API key is not allowed to read eligibility requests.',
      });
      expectValidFhir(outcome);
      // metadata takes any valid key.
      await fhirGet(t.app, key, 'metadata').expect(200);
    });
  });

  it('takes the key as Api too, and answers 401 without one', async () => {
    await request(t.app.getHttpServer()).get(`${FHIR}/metadata`).set(a.auth).expect(200);
    const res = await request(t.app.getHttpServer()).get(`${FHIR}/metadata`).expect(401);
    const outcome = parse(res);
    expect(outcome.issue[0].code).toBe('security');
    expectValidFhir(outcome);
  });

  describe('bad input: an OperationOutcome with the right status, nothing stored', () => {
    const cases: [string, () => unknown, number, RegExp][] = [
      [
        'no Patient',
        () => {
          const b = submitBundle([DEMO]);
          b.entry = b.entry.filter((e: Json) => e.resource.resourceType !== 'Patient');
          return b;
        },
        400,
        /exactly one Patient/,
      ],
      [
        'an unknown insurer identifier',
        () => submitBundle(['insurer:vision:nope']),
        400,
        /Unknown insurer code: insurer:vision:nope\./,
      ],
      [
        'a body that is no Bundle',
        () => ({ resourceType: 'Patient' }),
        400,
        /must be a FHIR Bundle/,
      ],
      [
        'a Bundle of another type',
        () => ({ ...submitBundle([DEMO]), type: 'transaction' }),
        400,
        /type "collection"/,
      ],
      [
        'a resource of the wrong type',
        () => {
          const b = submitBundle([DEMO]);
          b.entry.push({ resource: { resourceType: 'Observation', status: 'final' } });
          return b;
        },
        400,
        /Bundle.entry\[\d+\] is a Observation/,
      ],
      [
        'a patient without a birth date',
        () => {
          const b = submitBundle([DEMO]);
          delete b.entry.find((e: Json) => e.resource.resourceType === 'Patient').resource
            .birthDate;
          return b;
        },
        400,
        /Patient.birthDate: /,
      ],
    ];

    cases.push([
      'an unknown wait-for',
      () => submitBundle([DEMO, 'insurer:vision:vsp'], {}, { waitFor: 'soon' }),
      400,
      /^CoverageEligibilityRequest.extension\('https:\/\/fhir.vision-eligibility.example\/fhir\/R4\/StructureDefinition\/wait-for'\): /,
    ]);

    it.each(cases)('%s', async (_name, body, status, words) => {
      const before = await requestCount();
      const res = await submit(t.app, a.apiKey, body());
      expect(res.status).toBe(status);
      expect(res.headers['content-type']).toMatch(/^application\/fhir\+json/);
      const outcome = parse(res);
      expect(outcome.resourceType).toBe('OperationOutcome');
      expect(outcome.issue[0]).toMatchObject({ severity: 'error', code: 'invalid' });
      expect(outcome.issue.map((i: Json) => i.diagnostics).join('\n')).toMatch(words);
      expectValidFhir(outcome);
      expect(await requestCount()).toBe(before);
    });

    it("a request uid already used: the JSON API's message, named where the Bundle gives it", async () => {
      const bundle = submitBundle([DEMO], {}, { requestUid: 'fhir-dup-1' });
      expect((await submit(t.app, a.apiKey, bundle)).status).toBe(201);
      const before = await requestCount();
      const res = await submit(t.app, a.apiKey, bundle);
      expect(res.status).toBe(400);
      expect(parse(res).issue).toEqual([
        {
          severity: 'error',
          code: 'invalid',
          diagnostics:
            'CoverageEligibilityRequest.identifier: Eligibility request with this request uid already exists.',
          expression: ['CoverageEligibilityRequest.identifier'],
        },
      ]);
      expect(await requestCount()).toBe(before);
    });

    it("takes the Bundle inside a Parameters resource too ($submit's standard input)", async () => {
      const res = await submit(t.app, a.apiKey, {
        resourceType: 'Parameters',
        parameter: [{ name: 'resource', resource: submitBundle([DEMO]) }],
      });
      expect(res.status).toBe(201);
      expect(parse(res).outcome).toBe('queued');
    });

    it('malformed JSON', async () => {
      const before = await requestCount();
      const res = await http()
        .post(`${FHIR}/CoverageEligibilityRequest/$submit`)
        .set('Authorization', `Bearer ${a.apiKey}`)
        .set('Content-Type', FHIR_JSON)
        .send('{"resourceType": "Bundle", ');
      expect(res.status).toBe(400);
      expect(parse(res).issue[0].code).toBe('invalid');
      expect(await requestCount()).toBe(before);
    });

    it('a huge Bundle: 413 too-costly', async () => {
      const before = await requestCount();
      const bundle = submitBundle([DEMO]);
      bundle.entry.push({
        resource: { resourceType: 'Organization', name: 'x'.repeat(3 * 1024 * 1024) },
      });
      const res = await submit(t.app, a.apiKey, bundle);
      expect(res.status).toBe(413);
      const outcome = parse(res);
      expect(outcome.issue[0].code).toBe('too-costly');
      expectValidFhir(outcome);
      expect(await requestCount()).toBe(before);
    });

    it('a key without eligibility:write: 403, nothing stored', async () => {
      const { key } = await t.app
        .get(ApiKeysService)
        .create(a.accountId, 'reads', ['eligibility:read']);
      const before = await requestCount();
      const res = await submit(t.app, key, submitBundle([DEMO]));
      expect(res.status).toBe(403);
      expect(parse(res).issue[0].code).toBe('forbidden');
      expect(await requestCount()).toBe(before);
    });
  });

  it('serves a CapabilityStatement of its routes', async () => {
    const res = await fhirGet(t.app, a.apiKey, 'metadata').expect(200);
    expect(res.headers['content-type']).toMatch(/^application\/fhir\+json/);
    const cs = parse(res);
    expect(cs).toMatchObject({
      resourceType: 'CapabilityStatement',
      status: 'active',
      kind: 'instance',
      fhirVersion: '4.0.1',
      format: ['json'],
      rest: [{ mode: 'server' }],
    });
    const types = cs.rest[0].resource.map((r: Json) => r.type);
    expect(types).toEqual(
      expect.arrayContaining([
        'CoverageEligibilityRequest',
        'CoverageEligibilityResponse',
        'Patient',
        'Coverage',
      ]),
    );
    expectValidFhir(cs);
  });

  it.each(['wait-for', 'benefit-frequency', 'next-eligible-date'])(
    'serves the StructureDefinition of %s at its canonical URL',
    async (id) => {
      const sd = parse(await fhirGet(t.app, a.apiKey, `StructureDefinition/${id}`).expect(200));
      expect(sd).toMatchObject({
        resourceType: 'StructureDefinition',
        id,
        url: `${CANONICAL}/StructureDefinition/${id}`,
        kind: 'complex-type',
        type: 'Extension',
        derivation: 'constraint',
        baseDefinition: 'http://hl7.org/fhir/StructureDefinition/Extension',
      });
      expectValidFhir(sd);
    },
  );

  it('answers an unknown path under the door 404 as an OperationOutcome', async () => {
    for (const path of ['Nope/1', 'StructureDefinition/nope', 'CoverageEligibilityResponse/abc']) {
      const res = await fhirGet(t.app, a.apiKey, path).expect(404);
      expect(res.headers['content-type']).toMatch(/^application\/fhir\+json/);
      const outcome = parse(res);
      expect(outcome.issue[0].code).toBe('not-found');
      expectValidFhir(outcome);
    }
  });
});
