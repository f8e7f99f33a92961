import request from 'supertest';
import { createTestApp, TestApp } from './support/app';
import { patient, waitForResult } from './support/eligibility';
import { createAccount, TestAccount } from './support/factories';
import { FakeClearinghouse } from './support/fake-clearinghouse';
import { dependent271 } from './x12/fixtures';

const DAVIS = 'insurer:vision:davis_vision';
const API_KEY = 'ch-key-dep-30';
const TIMMY = patient({ first_name: 'Timmy', last_name: 'Doe', dob: '2015-06-10' });
const JANE = { first_name: 'Jane', last_name: 'Doe', dob: '1980-01-15', member_id: 'DV1234567' };

/** docs/api.md, Real insurers: a dependent asked with `subscriber`, answered as the guide shapes it. */
describe('a dependent through the clearinghouse (fake clearinghouse on loopback)', () => {
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
      .send({ npi: '1234567893', organization_name: 'Bright Eyes Optometry' })
      .expect(200);
  });
  afterAll(async () => {
    await t.close();
    await fake.close();
  });
  beforeEach(() => {
    fake.calls.length = 0;
  });

  async function signIn() {
    const web = request.agent(t.app.getHttpServer());
    const login = await web.get('/app/login');
    await web
      .post('/app/login')
      .type('form')
      .send({
        _csrf: /name="_csrf" value="([^"]+)"/.exec(login.text)![1],
        email: a.email,
        password: a.password,
      })
      .expect(302);
    return web;
  }

  async function search(body: Record<string, unknown>): Promise<string> {
    const res = await http().post('/api/auth/v1/eligibility/').set(a.auth).send(body);
    expect(res.status).toBe(201);
    return res.body.request_uid as string;
  }

  it('asks about the subscriber in 2000C and the patient in 2000D; the child comes back with the plan', async () => {
    fake.answer({
      kind: 'x12',
      // SE02 ≠ ST02 as well: an envelope slip, tolerated (docs/api.md, Real insurers).
      build: (inquiry) =>
        dependent271({ trace: inquiry.dependent!.traces[0].trace }).replace(
          /SE\*(\d+)\*0001~/,
          'SE*$1*0009~',
        ),
    });
    const uid = await search({ insurer_code: DAVIS, patient: TIMMY, subscriber: JANE });
    const v2 = await waitForResult(t.app, a.auth, uid, 'v2');

    expect(fake.calls).toHaveLength(1);
    const inquiry = fake.calls[0].inquiry!;
    expect(inquiry.subscriber.name).toMatchObject({
      entity: 'IL',
      lastName: 'DOE',
      firstName: 'JANE',
      idQualifier: 'MI',
      id: 'DV1234567',
    });
    expect(inquiry.subscriber.demographics?.dob).toBe('1980-01-15');
    expect(inquiry.subscriber.traces).toEqual([]);
    expect(inquiry.dependent).toMatchObject({
      name: { entity: '03', lastName: 'DOE', firstName: 'TIMMY' },
      demographics: { dob: '2015-06-10' },
      serviceTypes: [['30']],
      traces: [expect.objectContaining({ type: '1' })],
    });

    expect(v2.status).toBe('complete');
    expect(v2.results).toHaveLength(1);
    const [result] = v2.results;
    expect(result).toMatchObject({ plan_name: 'KIDS VISION PLAN', plan_is_active: true });
    const child = result.persons.find((p: { first_name: string }) => p.first_name === 'TIMMY');
    expect(child).toMatchObject({ type: 'child', dob: '2015-06-10', member_id: 'DV1234567' });
    expect(child.plan.comment).toBe(
      '53 (inquired benefit inconsistent with provider type) (service type AO)',
    );
    const frames = child.plan.items[1].items[0];
    expect(frames).toMatchObject({
      benefit_code: 'materials.frames',
      allowance: [{ flags: ['inn'], value: '120.0000' }],
      allowance_accepted: [{ flags: ['inn'], value: '120.0000' }],
    });
  });

  it('the exchange log keeps the envelope slip and the line-level AAA of a found answer', async () => {
    fake.answer({
      kind: 'x12',
      build: (inquiry) =>
        dependent271({ trace: inquiry.dependent!.traces[0].trace }).replace(
          'GE*1*101~',
          'GE*1*102~',
        ),
    });
    const uid = await search({ insurer_code: DAVIS, patient: TIMMY, subscriber: JANE });
    expect((await waitForResult(t.app, a.auth, uid)).status).toBe('complete');
    const page = await (await signIn()).get(`/app/eligibility/${uid}`);
    expect(page.status).toBe(200);
    expect(page.text).toContain('mismatched control numbers: GE02 is &quot;102&quot;');
    expect(page.text).toContain(
      'AAA 53 (inquired benefit inconsistent with provider type) in 2110D',
    );
  });

  it('garbage in a benefit loop: the rest of the plan is kept and the log says what was skipped', async () => {
    fake.answer({
      kind: 'x12',
      build: (inquiry) =>
        dependent271({ trace: inquiry.dependent!.traces[0].trace }).replace(
          'EB*F*IND*AM***24*120*****Y~',
          'EB*F*IND*AM***24*1X0*****Y~',
        ),
    });
    const uid = await search({ insurer_code: DAVIS, patient: TIMMY, subscriber: JANE });
    const body = await waitForResult(t.app, a.auth, uid);
    expect(body.status).toBe('complete');
    const child = body.results[0].persons.find(
      (p: { first_name: string }) => p.first_name === 'TIMMY',
    );
    const frames = child.plan.items[1].items[0];
    expect(frames.allowance).toEqual([
      { flags: ['inn'], comment: 'per calendar year', value: '120.0000' },
    ]);
    expect(frames).not.toHaveProperty('allowance_accepted');
    const page = await (await signIn()).get(`/app/eligibility/${uid}`);
    expect(page.text).toContain('EB07 &quot;1X0&quot; is not a number');
  });

  it('a 271 that names the patient as a dependent without a 270 subscriber completes too', async () => {
    fake.answer({
      kind: 'x12',
      build: (inquiry) => dependent271({ trace: inquiry.subscriber.traces[0].trace }),
    });
    const uid = await search({ insurer_code: DAVIS, patient: TIMMY });
    const body = await waitForResult(t.app, a.auth, uid);
    expect(body.status).toBe('complete');
    expect(fake.calls[0].inquiry!.dependent).toBeNull();
  });

  it('validates subscriber like patient: required fields, dates, lengths, all errors together', async () => {
    const res = await http()
      .post('/api/auth/v1/eligibility/')
      .set(a.auth)
      .send({
        insurer_code: DAVIS,
        patient: TIMMY,
        subscriber: { first_name: '', dob: '2999-01-01', member_id: 'x'.repeat(65) },
      });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      errors: {
        subscriber: {
          first_name: { $: ['This field may not be blank.'] },
          last_name: { $: ['This field is required.'] },
          dob: { $: [expect.any(String)] },
          member_id: { $: ['Ensure this field has no more than 64 characters.'] },
        },
      },
    });
    const notObject = await http()
      .post('/api/auth/v1/eligibility/')
      .set(a.auth)
      .send({ insurer_code: DAVIS, patient: TIMMY, subscriber: 'Jane' });
    expect(notObject.status).toBe(400);
    expect(notObject.body.errors.subscriber.$).toHaveLength(1);
  });
});
