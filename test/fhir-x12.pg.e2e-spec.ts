import request from 'supertest';
import { createTestApp, TestApp } from './support/app';
import { createAccount, TestAccount } from './support/factories';
import { FakeClearinghouse } from './support/fake-clearinghouse';
import { fhirGet, pollOutcome, submit, submitBundle } from './support/fhir';
import { expectValidFhir } from './support/fhir-validators';

const DAVIS = 'insurer:vision:davis_vision';
const API_KEY = 'ch-key-fhir-x12';

type Json = any;

/**
 * docs/api.md, FHIR R4 over a real insurer: the fake clearinghouse's 271 (test/x12/fixtures.ts,
 * Jane Doe's plan with in- and out-of-network benefits) mapped to a CoverageEligibilityResponse,
 * valid for both validators, item by item as the V2 tree says it.
 */
describe('FHIR R4 door: a 271 from a clearinghouse', () => {
  let fake: FakeClearinghouse;
  let t: TestApp;
  let a: TestAccount;
  let done: Json;

  beforeAll(async () => {
    fake = await FakeClearinghouse.start({ apiKey: API_KEY });
    t = await createTestApp({
      env: {
        CLEARINGHOUSE_ELIGIBILITY_URL: fake.eligibilityUrl,
        CLEARINGHOUSE_API_KEY: API_KEY,
        X12_SUBMITTER_ID: 'VISIONELIG',
        X12_RECEIVER_ID: 'CLEARINGHOUSE',
        SEARCH_RETRY_BASE_MS: '20',
        INSURER_TIMEOUT_MS: '2000',
      },
    });
    a = await createAccount(t.app);
    await request(t.app.getHttpServer())
      .patch(`/api/auth/v1/locations/${a.locationCode}/`)
      .set(a.auth)
      .send({ npi: '1234567893', organization_name: 'Bright Eyes Optometry', tax_id: '741234567' })
      .expect(200);
    fake.answer({ kind: 'found' });
    const bundle = submitBundle([DAVIS], {
      given: 'Jane',
      family: 'Doe',
      birthDate: '1980-01-15',
      memberId: 'DV1234567',
    });
    const res = await submit(t.app, a.apiKey, bundle);
    expect(res.status).toBe(201);
    done = await pollOutcome(t.app, a.apiKey, JSON.parse(res.text).id);
  });
  afterAll(async () => {
    await t.close();
    await fake.close();
  });

  const items = () => done.insurance[0].item as Json[];
  const named = (code: string, network: 'in' | 'out') =>
    items().find((i) => i.name === code && i.network.coding[0].code === network);

  it('is complete, in force for the plan year, and valid for both validators', () => {
    expect(fake.calls).toHaveLength(1);
    expect(done.outcome).toBe('complete');
    expect(done.insurance[0]).toMatchObject({
      inforce: true,
      benefitPeriod: { start: '2026-01-01', end: '2026-12-31' },
    });
    expectValidFhir(done);
  });

  it('states each benefit by service type or by procedure code, never both, in and out of network', () => {
    expect(named('exam.routine', 'in')?.category.coding).toEqual([
      { system: 'https://x12.org/codes/service-type-codes', code: 'AN' },
    ]);
    expect(named('materials.frames', 'in')?.category.coding[0].code).toBe('AM');
    const fitting = named('exam.contact_lens_fitting', 'in');
    expect(fitting?.productOrService.coding).toEqual([
      { system: 'http://www.ama-assn.org/go/cpt', code: '92310' },
    ]);
    expect(fitting?.category).toBeUndefined();
    expect(fitting?.authorizationRequired).toBe(true);
    for (const item of items())
      expect(Boolean(item.category) !== Boolean(item.productOrService)).toBe(true);
  });

  it('puts copays and allowances in allowedMoney, per network', () => {
    const benefit = (item: Json, type: string) =>
      item?.benefit?.find((b: Json) => b.type.coding[0].code === type);
    expect(benefit(named('exam.routine', 'in'), 'copay').allowedMoney).toEqual({
      value: 10,
      currency: 'USD',
    });
    expect(benefit(named('exam.routine', 'out'), 'benefit').allowedMoney).toEqual({
      value: 45,
      currency: 'USD',
    });
    expect(benefit(named('exam.routine', 'out'), 'copay-percent').allowedString).toBe('20.0000');
    expect(benefit(named('materials.frames', 'in'), 'benefit').allowedMoney.value).toBe(150);
    expect(benefit(named('materials.frames', 'out'), 'benefit').allowedMoney.value).toBe(70);
    expect(benefit(named('materials.contact_lenses', 'in'), 'benefit').allowedMoney.value).toBe(
      150,
    );
  });

  it('reads back the Patient (US Core) and the Coverage asked about', async () => {
    const patientId = done.patient.reference.split('/')[1];
    const patient = JSON.parse(
      (await fhirGet(t.app, a.apiKey, `Patient/${patientId}`).expect(200)).text,
    );
    expect(patient).toMatchObject({ name: [{ family: 'Doe', given: ['Jane'] }], gender: 'female' });
    expectValidFhir(patient);
    const coverageId = done.insurance[0].coverage.reference.split('/')[1];
    const coverage = JSON.parse(
      (await fhirGet(t.app, a.apiKey, `Coverage/${coverageId}`).expect(200)).text,
    );
    expect(coverage).toMatchObject({
      subscriberId: 'DV1234567',
      payor: [{ identifier: { value: DAVIS } }],
    });
    expectValidFhir(coverage);
  });
});
