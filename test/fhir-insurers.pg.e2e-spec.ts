import request from 'supertest';
import { createTestApp, TestApp } from './support/app';
import { DEMO, patient, startSearch, waitForResult } from './support/eligibility';
import { createAccount, TestAccount } from './support/factories';
import { FakeClearinghouse } from './support/fake-clearinghouse';
import { fhirGet, pollOutcome, submit, submitBundle } from './support/fhir';
import { expectValidFhir } from './support/fhir-validators';
import { waitUntil } from './support/queues';

const VSP = 'insurer:vision:vsp';
const DAVIS = 'insurer:vision:davis_vision';
const API_KEY = 'ch-key-fhir';
const TASKS = '/api/auth/v1/verification-tasks/';

type Json = any;

/**
 * docs/api.md, FHIR R4, a Universal Search through the door: the sandbox finds no plan, an
 * insurer over X12 refuses the practice (AAA 43) and VSP, answered by a person, is checked
 * last. Its responses: complete, error with our code and the AAA code, partial until the
 * person answers, then complete; every one valid for both validators.
 */
describe('FHIR R4 door: a Universal Search insurer by insurer', () => {
  let fake: FakeClearinghouse;
  let t: TestApp;
  let a: TestAccount;
  const http = () => request(t.app.getHttpServer());

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
    await http()
      .patch(`/api/auth/v1/locations/${a.locationCode}/`)
      .set(a.auth)
      .send({ npi: '1234567893', organization_name: 'Bright Eyes Optometry', tax_id: '741234567' })
      .expect(200);
  });
  afterAll(async () => {
    await t.close();
    await fake.close();
  });

  it('answers complete, error (AAA 43), partial while a person checks, then complete', async () => {
    // What the verifier sends back: the sandbox's plans for this patient, as VSP's.
    const plans = (
      await waitForResult(t.app, a.auth, await startSearch(t.app, a.auth, { patient: patient() }))
    ).results.map((p: Json) => ({ ...p, insurer_code: VSP }));
    fake.answer({ kind: 'aaa', loop: '2100B', reason: '43', followUp: 'C' });
    const res = await submit(
      t.app,
      a.apiKey,
      submitBundle([DEMO, DAVIS, VSP], { given: 'not_found Maria' }),
    );
    expect(res.status).toBe(201);
    const bundle = JSON.parse(res.text);
    expectValidFhir(bundle);
    expect(bundle).toMatchObject({ resourceType: 'Bundle', type: 'collection' });
    const [demo, davis, vsp] = bundle.entry.map((e: Json) => e.resource);
    expect([demo.outcome, davis.outcome, vsp.outcome]).toEqual(['queued', 'queued', 'queued']);
    expect(bundle.entry.map((e: Json) => e.resource.insurer.identifier.value)).toEqual([
      DEMO,
      DAVIS,
      VSP,
    ]);

    const demoDone = await pollOutcome(t.app, a.apiKey, demo.id);
    expect(demoDone.outcome).toBe('complete');
    expect(demoDone.insurance).toBeUndefined();
    expectValidFhir(demoDone);

    const davisDone = await pollOutcome(t.app, a.apiKey, davis.id);
    expect(davisDone.outcome).toBe('error');
    expect(davisDone.error[0].code.coding).toEqual([
      { system: 'urn:vision-eligibility:error-code', code: 'insurer_problem' },
      { system: 'urn:vision-eligibility:x12-aaa-reject-reason', code: '43' },
    ]);
    expectValidFhir(davisDone);

    const waiting = await pollOutcome(t.app, a.apiKey, vsp.id, ['partial']);
    expect(waiting.disposition).toMatch(/^Waiting for a person to check /);
    expectValidFhir(waiting);

    // The person answers: VSP's response is complete with the plan.
    const uid = vsp.identifier[0].value;
    const task = await waitUntil('VSP task', async () => {
      const list = await http().get(TASKS).query({ limit: 200 }).set(a.auth).expect(200);
      return list.body.result.find((x: Json) => x.request_uid === uid && x.insurer_code === VSP);
    });
    await http()
      .post(`${TASKS}${task.id}/complete/`)
      .set(a.auth)
      .send({ plans, evidence: { source: 'portal', checked_at: '2026-11-24T15:04:00Z' } })
      .expect(200);
    const vspDone = await pollOutcome(t.app, a.apiKey, vsp.id);
    expect(vspDone.outcome).toBe('complete');
    expect(vspDone.insurance[0].inforce).toBe(true);
    expect(vspDone.insurance[0].item.length).toBeGreaterThan(0);
    expectValidFhir(vspDone);

    // The search by request uid answers the three, as they stand now.
    const search = JSON.parse(
      (
        await fhirGet(
          t.app,
          a.apiKey,
          `CoverageEligibilityResponse?identifier=urn:vision-eligibility:request-uid|${uid}`,
        ).expect(200)
      ).text,
    );
    expect(search.entry.map((e: Json) => e.resource.outcome)).toEqual([
      'complete',
      'error',
      'complete',
    ]);
    expectValidFhir(search);
  });
});
