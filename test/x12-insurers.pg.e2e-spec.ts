import request from 'supertest';
import type { Inquiry270 } from './x12/x270.reader';
import { createTestApp, TestApp } from './support/app';
import { DEMO, patient, waitForResult } from './support/eligibility';
import { createAccount, TestAccount } from './support/factories';
import { FakeClearinghouse, ReceivedCall } from './support/fake-clearinghouse';
import { waitUntil } from './support/queues';
import { TestReceiver } from './support/receiver';
import { ERROR_DETAILS } from '@/modules/eligibility/domain/error-details';

const DAVIS = 'insurer:vision:davis_vision';
const API_KEY = 'ch-key-4b1d';
const IDENTITY = {
  npi: '1234567893',
  organization_name: 'Bright Eyes Optometry',
  tax_id: '741234567',
};
const JANE = patient({
  first_name: 'Jane',
  last_name: 'Doe',
  dob: '1980-01-15',
  member_id: 'DV1234567',
});

const X12_ENV = (fake: FakeClearinghouse): Record<string, string> => ({
  CLEARINGHOUSE_ELIGIBILITY_URL: fake.eligibilityUrl,
  X12_SUBMITTER_ID: 'VISIONELIG',
  X12_RECEIVER_ID: 'CLEARINGHOUSE',
  SEARCH_RETRY_BASE_MS: '20',
  INSURER_TIMEOUT_MS: '2000',
});

/** The 270 the fake received, read back with the X12 reader, checked against the contract. */
function expect270(
  call: ReceivedCall,
  who: Record<string, unknown> = JANE,
  serviceTypes = [['30']],
): Inquiry270 {
  expect(call.parseError).toBeNull();
  const inquiry = call.inquiry!;
  expect(inquiry.isa).toMatchObject({
    senderId: 'VISIONELIG',
    receiverId: 'CLEARINGHOUSE',
    usage: 'T',
  });
  expect(inquiry.group).toMatchObject({ functionalId: 'HS', version: '005010X279A1' });
  expect(inquiry).toMatchObject({ structure: '0022', purpose: '13' });
  expect(inquiry.payer).toMatchObject({ entity: 'PR', idQualifier: 'PI', id: 'QKZWY' });
  expect(inquiry.provider).toMatchObject({
    entity: '1P',
    lastName: 'BRIGHT EYES OPTOMETRY',
    idQualifier: 'XX',
    id: '1234567893',
  });
  expect(inquiry.subscriber.name).toMatchObject({
    entity: 'IL',
    lastName: String(who.last_name).toUpperCase(),
    firstName: String(who.first_name).toUpperCase(),
    idQualifier: who.member_id ? 'MI' : '',
    id: who.member_id ?? '',
  });
  expect(inquiry.subscriber.demographics?.dob).toBe(who.dob);
  expect(inquiry.subscriber.serviceTypes).toEqual(serviceTypes);
  expect(inquiry.subscriber.traces).toEqual([
    expect.objectContaining({ type: '1', originator: '1741234567' }),
  ]);
  // ST, BHT, 3 HL, 3 NM1, TRN, DMG, DTP, EQ, SE (+ nothing else): the SE01 the reader checked.
  expect(inquiry.segmentCount).toBe(14);
  return inquiry;
}

describe('real insurers over X12 through a clearinghouse (fake clearinghouse on loopback)', () => {
  let fake: FakeClearinghouse;
  let receiver: TestReceiver;
  let t: TestApp;
  let a: TestAccount;
  let web: ReturnType<typeof request.agent>;

  const http = () => request(t.app.getHttpServer());

  async function search(body: Record<string, unknown>): Promise<string> {
    const res = await http().post('/api/auth/v1/eligibility/').set(a.auth).send(body);
    expect(res.status).toBe(201);
    return res.body.request_uid as string;
  }

  async function checkPage(uid: string): Promise<string> {
    const page = await web.get(`/app/eligibility/${uid}`);
    expect(page.status).toBe(200);
    return page.text;
  }

  beforeAll(async () => {
    fake = await FakeClearinghouse.start({ apiKey: API_KEY });
    receiver = await new TestReceiver().start();
    t = await createTestApp({ env: { ...X12_ENV(fake), CLEARINGHOUSE_API_KEY: API_KEY } });
    a = await createAccount(t.app);
    await http()
      .patch(`/api/auth/v1/locations/${a.locationCode}/`)
      .set(a.auth)
      .send(IDENTITY)
      .expect(200);
    await http()
      .post('/api/auth/v1/webhooks/')
      .set(a.auth)
      .send({ url: `http://127.0.0.1:${receiver.port}/hook`, version: 'v2' })
      .expect(201);
    web = request.agent(t.app.getHttpServer());
    const login = await web.get('/app/login');
    await web
      .post('/app/login')
      .type('form')
      .send({ _csrf: csrfOf(login.text), email: a.email, password: a.password })
      .expect(302);
  });
  afterAll(async () => {
    await t.close();
    await fake.close();
    await receiver.stop();
  });
  beforeEach(() => {
    fake.calls.length = 0;
  });

  it('finds a subscriber with a dependent: V1 and V2 field by field, the 270 as the contract says, a webhook', async () => {
    const uid = await search({ insurer_code: DAVIS, patient: JANE });
    const v1 = await waitForResult(t.app, a.auth, uid, 'v1');
    const v2 = await waitForResult(t.app, a.auth, uid, 'v2');

    expect(fake.calls).toHaveLength(1);
    expect(fake.calls[0].authorization).toBe(API_KEY);
    expect270(fake.calls[0]);

    const address = {
      line1: '100 MAIN STREET',
      line2: 'APT 4',
      city: 'AUSTIN',
      zipcode: '78701-0000',
      state: 'TX',
    };
    const jane = {
      first_name: 'JANE',
      last_name: 'DOE',
      dob: '1980-01-15',
      sex: 'female',
      member_id: 'DV1234567',
      ssn_last_four: '6789',
      type: 'self',
      address,
      email: null,
      phone: '',
      id: expect.any(Number),
      full_name: 'JANE DOE',
      is_active: true,
    };
    const timmy = {
      first_name: 'TIMMY',
      last_name: 'DOE',
      dob: '2015-06-10',
      sex: 'male',
      // A dependent without an id of their own carries the subscriber's.
      member_id: 'DV1234567',
      ssn_last_four: null,
      type: 'child',
      address: { ...address, line2: null, zipcode: '78701' },
      email: null,
      phone: '',
      id: expect.any(Number),
      full_name: 'TIMMY DOE',
      is_active: true,
      // Only in-network benefits: the token rule of docs/api.md, Eligibility.
      plan_token: expect.stringMatching(/^[0-9a-f]{64}$/),
      plan_token_expired_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
    };
    const result = {
      id: expect.any(Number),
      status: 'active',
      plan_name: 'VISION CHOICE PLAN',
      plan_group: 'ACME MANUFACTURING',
      plan_group_id: 'G-4455',
      plan_begin_date: '2026-01-01',
      plan_end_date: '2026-12-31',
      plan_refresh_date: null,
      insurer_code: DAVIS,
      plan_is_active: true,
    };
    expect(v1).toEqual({
      request_uid: uid,
      origin: null,
      status: 'complete',
      error_code: null,
      error_detail: null,
      results: [{ ...result, persons: [jane, timmy] }],
      insurers: [
        {
          insurer_code: DAVIS,
          state: 'found',
          result_ids: [v1.results[0].id],
          detail: null,
          finished_at: expect.any(String),
          verification: null,
        },
      ],
    });
    expect(v1.results[0].persons[0]).not.toHaveProperty('plan_token');
    expect(v1.results[0].persons[0]).not.toHaveProperty('plan');

    const [janeV2, timmyV2] = v2.results[0].persons;
    expect(v2.results[0]).toMatchObject({ ...result, id: v1.results[0].id });
    expect(janeV2).toMatchObject({ ...jane, id: v1.results[0].persons[0].id });
    expect(timmyV2.plan_token).toBe(v1.results[0].persons[1].plan_token);
    expect(janeV2.plan).toMatchObject({
      insurer_state: 'oon',
      begin_date: '2026-01-01',
      end_date: '2026-12-31',
      refresh_date: null,
      copayment: [{ comment: 'per visit', value: '5.0000' }],
    });
    const janeItems = Object.fromEntries(
      flatten(janeV2.plan.items).map((i) => [i.benefit_code, i]),
    );
    expect(janeItems['exam.routine']).toMatchObject({
      copayment: [
        { flags: ['inn'], comment: 'per visit; COPAY APPLIES PER VISIT', value: '10.0000' },
      ],
      coinsurance: [{ flags: ['oon'], value: '20.0000' }],
      allowance: [{ flags: ['oon'], comment: 'per visit', value: '45.0000' }],
      quantity: [{ comment: '1 every 12 months', value: 1 }],
    });
    expect(janeItems['materials.frames'].allowance).toEqual([
      {
        flags: ['inn'],
        comment: 'per calendar year; ALLOWANCE TOWARD FRAME RETAIL PRICE',
        value: '150.0000',
      },
      { flags: ['oon'], comment: 'per calendar year', value: '70.0000' },
    ]);
    expect(janeItems['materials.spectacle_lenses.bifocal'].allowance).toEqual([
      { flags: ['oon'], comment: 'per calendar year', value: '50.0000' },
    ]);
    expect(janeItems['materials.contact_lenses'].allowance).toEqual([
      { flags: ['inn'], comment: 'per calendar year', value: '150.0000' },
    ]);
    expect(janeItems['exam.contact_lens_fitting'].is_authorization_required).toEqual([
      { flags: ['inn'], value: true },
    ]);
    // Benefits the 271 does not state stay absent.
    expect(janeItems['materials.frames'].copayment).toBeUndefined();
    expect(timmyV2.plan).toMatchObject({ insurer_state: 'inn', flags: [] });
    expect(flatten(timmyV2.plan.items).map((i) => i.benefit_code)).toEqual([
      'exam',
      'exam.routine',
    ]);
    expect(flatten(timmyV2.plan.items)[1]).toMatchObject({
      copayment: [
        { flags: ['inn'], comment: 'per visit; NO EXAM COPAY UNDER AGE 19', value: '0.0000' },
      ],
      quantity: [{ comment: '1 per calendar year', value: 1 }],
    });

    // The webhook carries exactly the V2 body, and nothing of the exchange.
    const stored = await http().get(`/api/auth/v2/eligibility/${uid}/`).set(a.auth);
    const delivery = await waitFor(() =>
      receiver.received.find((r) => r.raw.toString().includes(uid)),
    );
    expect(delivery.raw.toString()).toBe(stored.text);
    expect(delivery.raw.toString()).not.toContain('ISA*');
  });

  it('shows the exchanges of a check on its page: the 270 and 271 one segment a line', async () => {
    fake.answer({ kind: 'aaa', loop: '2100C', reason: '42', followUp: 'R' }, { kind: 'found' });
    const uid = await search({ insurer_code: DAVIS, patient: JANE });
    expect((await waitForResult(t.app, a.auth, uid)).status).toBe('complete');
    const page = await checkPage(uid);
    expect(page).toContain('Insurer exchanges');
    expect(page).toContain('42 (unable to respond at current time)');
    expect(page).toMatch(/\nNM1\*PR\*2\*DAVIS VISION\*\*\*\*\*PI\*QKZWY~\n/);
    expect(page).toMatch(/\nNM1\*1P\*2\*BRIGHT EYES OPTOMETRY\*\*\*\*\*XX\*1234567893~\n/);
    expect(page).toMatch(/\nEB\*1\*FAM\*AL\*VIS\*VISION CHOICE PLAN~\n/);
    expect(page.match(/class="exchange"/g)).toHaveLength(2);
  });

  it('not found: complete with no results', async () => {
    fake.answer({ kind: 'not_found' });
    const uid = await search({ insurer_code: DAVIS, patient: JANE });
    expect(await waitForResult(t.app, a.auth, uid)).toEqual({
      request_uid: uid,
      origin: null,
      status: 'complete',
      error_code: null,
      error_detail: null,
      results: [],
      insurers: [
        {
          insurer_code: DAVIS,
          state: 'no_plan',
          result_ids: [],
          detail: 'Davis Vision found no plan for this patient.',
          finished_at: expect.any(String),
          verification: null,
        },
      ],
    });
    expect(fake.calls).toHaveLength(1);
  });

  it('AAA 42 then an answer: the search is retried and completes', async () => {
    fake.answer({ kind: 'aaa', loop: '2100A', reason: '42', followUp: 'R' }, { kind: 'found' });
    const uid = await search({ insurer_code: DAVIS, patient: JANE });
    const body = await waitForResult(t.app, a.auth, uid);
    expect(body.status).toBe('complete');
    expect(body.results).toHaveLength(1);
    expect(fake.calls).toHaveLength(2);
    fake.calls.forEach((call) => expect270(call));
    const traces = fake.calls.map((c) => c.inquiry!.subscriber.traces[0].trace);
    expect(new Set(traces).size).toBe(2);
  });

  it('AAA 42 every time: insurer_problem after the retries', async () => {
    const busy = { kind: 'aaa', loop: '2100A', reason: '42', followUp: 'R' } as const;
    fake.answer(busy, busy, busy, busy);
    const uid = await search({ insurer_code: DAVIS, patient: JANE });
    expect(await waitForResult(t.app, a.auth, uid)).toEqual({
      request_uid: uid,
      origin: null,
      status: 'error',
      error_code: 'insurer_problem',
      error_detail: ERROR_DETAILS.insurer_problem,
      results: null,
      insurers: [
        {
          insurer_code: DAVIS,
          state: 'failed',
          result_ids: [],
          detail: 'Davis Vision could not be reached.',
          finished_at: expect.any(String),
          verification: null,
        },
      ],
    });
    expect(fake.calls).toHaveLength(4);
  });

  it('AAA 43 (the provider id): insurer_problem at once, after one call, and the page says why', async () => {
    fake.answer({ kind: 'aaa', loop: '2100B', reason: '43', followUp: 'C' });
    const uid = await search({ insurer_code: DAVIS, patient: JANE });
    expect(await waitForResult(t.app, a.auth, uid)).toMatchObject({
      status: 'error',
      error_code: 'insurer_problem',
    });
    expect(fake.calls).toHaveLength(1);
    const page = await checkPage(uid);
    expect(page).toContain('43 (invalid or missing provider identification)');
  });

  it('HTTP 503 then 200: retried and complete', async () => {
    fake.answer({ kind: 'http', status: 503 }, { kind: 'found' });
    const uid = await search({ insurer_code: DAVIS, patient: JANE });
    const body = await waitForResult(t.app, a.auth, uid);
    expect(body.status).toBe('complete');
    expect(body.results[0].plan_name).toBe('VISION CHOICE PLAN');
    expect(fake.calls).toHaveLength(2);
    expect(await checkPage(uid)).toContain('HTTP 503');
  });

  it('a clearinghouse that does not answer in time: the call is abandoned and retried', async () => {
    fake.answer({ kind: 'slow', delayMs: 20_000 }, { kind: 'found' });
    const uid = await search({ insurer_code: DAVIS, patient: JANE });
    const body = await waitForResult(t.app, a.auth, uid);
    expect(body.status).toBe('complete');
    expect(fake.calls).toHaveLength(2);
    expect(await checkPage(uid)).toContain('did not answer before the deadline');
  });

  it('Universal Search over the sandbox and an X12 insurer', async () => {
    const uid = await search({ insurer_code_list: [DEMO, DAVIS], patient: JANE });
    const body = await waitForResult(t.app, a.auth, uid);
    expect(body.status).toBe('complete');
    expect(body.results.map((r: { insurer_code: string }) => r.insurer_code)).toEqual([
      DEMO,
      DAVIS,
    ]);
    expect(body.results[0].persons[0].first_name).toBe('Jane');
    expect(body.results[1].persons.map((p: { first_name: string }) => p.first_name)).toEqual([
      'JANE',
      'TIMMY',
    ]);
    expect(fake.calls).toHaveLength(1);
    // The sandbox's call is in the exchange log too.
    const page = await checkPage(uid);
    // Insurers by name on the page (issue 26), not by code.
    expect(page).toContain('Demo Vision (sandbox) · attempt 1');
    expect(page).toContain('Davis Vision · attempt 1');
  });

  it('Universal Search over an X12 insurer and one a person checks (docs/api.md, Insurers and assisted verification): complete when both answered', async () => {
    // A person is asked at once though Davis finds a plan (by default VSP would be not_asked:
    // docs/api.md, Universal Search insurer by insurer).
    const uid = await search({
      insurer_code_list: [DAVIS, 'insurer:vision:vsp'],
      patient: JANE,
      assisted: 'always',
    });
    const waiting = await waitUntil('the verification task', async () => {
      const res = await http().get(`/api/auth/v2/eligibility/${uid}/`).set(a.auth);
      return res.body.verification ? res.body : undefined;
    });
    expect(waiting.status).toBe('processing');
    // The X12 insurer answered once and is not asked again while the request waits.
    expect(fake.calls).toHaveLength(1);
    const done = await http()
      .post(`/api/auth/v1/verification-tasks/${waiting.verification.task_id}/fail/`)
      .set(a.auth)
      .send({ reason: 'member_not_found' });
    expect(done.status).toBe(200);
    const body = await waitForResult(t.app, a.auth, uid);
    expect(body.status).toBe('complete');
    expect(body.results.map((r: { insurer_code: string }) => r.insurer_code)).toEqual([DAVIS]);
    expect(fake.calls).toHaveLength(1);
  });

  it('a details request asks a 271 for the one person, with the deeper service types', async () => {
    const uid = await search({ insurer_code: DAVIS, patient: JANE });
    const first = await waitForResult(t.app, a.auth, uid);
    const [result] = first.results;
    const timmy = result.persons[1];
    const res = await http()
      .post(`/api/auth/v1/eligibility/${uid}/details/`)
      .set(a.auth)
      .send({ result_id: result.id, person_id: timmy.id, request_uid: uid });
    expect(res.status).toBe(201);
    const details = await waitForResult(t.app, a.auth, res.body.request_uid);
    expect(details.status).toBe('complete');
    expect(details.results).toHaveLength(1);
    expect(details.results[0].persons).toHaveLength(1);
    expect(details.results[0].persons[0]).toMatchObject({ first_name: 'TIMMY', type: 'child' });
    expect(fake.calls).toHaveLength(2);
    expect270(fake.calls[1], JANE, [['AL']]);
  });

  it('a location without an NPI: insurer_problem without a call, and the page says why', async () => {
    const created = await http()
      .post('/api/auth/v1/locations/')
      .set(a.auth)
      .send({ title: 'Annex' })
      .expect(201);
    expect(created.body).toMatchObject({ npi: null, organization_name: null, tax_id: null });
    const uid = await search({
      insurer_code: DAVIS,
      location_code: created.body.code,
      patient: JANE,
    });
    expect(await waitForResult(t.app, a.auth, uid)).toEqual({
      request_uid: uid,
      origin: null,
      status: 'error',
      error_code: 'insurer_problem',
      error_detail: ERROR_DETAILS.insurer_problem,
      results: null,
      insurers: [
        {
          insurer_code: DAVIS,
          state: 'failed',
          result_ids: [],
          detail: expect.any(String),
          finished_at: expect.any(String),
          verification: null,
        },
      ],
    });
    expect(fake.calls).toHaveLength(0);
    const page = await checkPage(uid);
    expect(page).toMatch(/<ul class="reasons"><li>the location has no NPI/);
    // The sandbox needs no NPI.
    const sandbox = await search({
      insurer_code: DEMO,
      location_code: created.body.code,
      patient: JANE,
    });
    expect((await waitForResult(t.app, a.auth, sandbox)).status).toBe('complete');
  });
});

describe('a clearinghouse with OAuth2 client credentials', () => {
  const OAUTH = { clientId: 'vision-client', clientSecret: 'vision-secret' };
  let fake: FakeClearinghouse;
  let t: TestApp;
  let a: TestAccount;

  beforeAll(async () => {
    fake = await FakeClearinghouse.start({ oauth: OAUTH });
    t = await createTestApp({
      env: {
        ...X12_ENV(fake),
        CLEARINGHOUSE_TOKEN_URL: fake.tokenUrl,
        CLEARINGHOUSE_CLIENT_ID: OAUTH.clientId,
        CLEARINGHOUSE_CLIENT_SECRET: OAUTH.clientSecret,
      },
    });
    a = await createAccount(t.app);
    await request(t.app.getHttpServer())
      .patch(`/api/auth/v1/locations/${a.locationCode}/`)
      .set(a.auth)
      .send(IDENTITY)
      .expect(200);
  });
  afterAll(async () => {
    await t.close();
    await fake.close();
  });

  it('fetches the token once and reuses it for every call', async () => {
    for (const first_name of ['Jane', 'Janet', 'Joan']) {
      const res = await request(t.app.getHttpServer())
        .post('/api/auth/v1/eligibility/')
        .set(a.auth)
        .send({ insurer_code: DAVIS, patient: { ...JANE, first_name } })
        .expect(201);
      const body = await waitForResult(t.app, a.auth, res.body.request_uid);
      expect(body.status).toBe('complete');
    }
    expect(fake.calls).toHaveLength(3);
    expect(fake.tokenFetches).toBe(1);
    const tokens = new Set(fake.calls.map((c) => c.authorization));
    expect(tokens.size).toBe(1);
    expect([...tokens][0]).toMatch(/^Bearer [0-9a-f]{32}$/);
  });
});

interface Item {
  benefit_code: string;
  items?: Item[];
  [key: string]: unknown;
}

function flatten(items: Item[]): Item[] {
  return items.flatMap((i) => [i, ...flatten(i.items ?? [])]);
}

async function waitFor<T>(find: () => T | undefined, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = find();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 50));
  }
}

function csrfOf(html: string): string {
  return /name="_csrf" value="([^"]+)"/.exec(html)![1];
}
