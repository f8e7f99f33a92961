import request from 'supertest';
import { fromMinor, toMinor } from '@/platform/kernel/decimal';
import { EXAMPLE_RESPONSE } from '@/modules/estimates/api/estimate.examples';
import { createTestApp, TestApp } from './support/app';
import { patient, startSearch, waitForResult } from './support/eligibility';
import { createAccount, TestAccount } from './support/factories';
import { MSG } from '@/platform/kernel/messages';
import { BENEFIT_FLAGS } from '@/lib/benefits/benefit.types';

const URL = '/api/auth/v1/estimates/';

/** A receipt: exam, frame, a pair of single-vision lenses (2 units), an unmapped refraction. */
const RECEIPT = [
  { codes: ['92014'], cost: '120.00' },
  { codes: ['v2020'], cost: 180 },
  { codes: ['V2100'], cost: '55.5', quantity: '2' },
  { codes: ['92015'], cost: '40' },
];

/** The out-of-network value of a flag-based list of a V2 plan item (four-decimal string). */
function oonValue(item: any, list: string): string {
  return item[list].find((e: any) => e.flags?.includes('oon')).value as string;
}

function findItem(items: any[], code: string): any {
  for (const item of items) {
    if (item.benefit_code === code) return item;
    const found = findItem(item.items ?? [], code);
    if (found) return found;
  }
  return null;
}

const minOf = (a: string, b: string) => (toMinor(a) < toMinor(b) ? toMinor(a) : toMinor(b));

describe('reimbursement estimates (docs/api.md, Estimates)', () => {
  let t: TestApp;
  let a: TestAccount;
  let b: TestAccount;
  let uid: string;
  let result: any;
  const http = () => request(t.app.getHttpServer());
  const post = (body: unknown, auth = a.auth) =>
    http()
      .post(URL)
      .set(auth)
      .send(body as object);

  beforeAll(async () => {
    t = await createTestApp();
    a = await createAccount(t.app);
    b = await createAccount(t.app);
    uid = await startSearch(t.app, a.auth, {
      request_uid: 'estimate-visit-0001',
      patient: patient({ last_name: 'Garcia big_family' }),
    });
    result = await waitForResult(t.app, a.auth, uid);
  });

  afterAll(async () => {
    await t?.close();
  });

  it("estimates a receipt on a stored sandbox person's plan, line by line", async () => {
    const person = result.results[0].persons[0];
    const res = await post({ request_uid: uid, person_id: person.id, services: RECEIPT });
    expect(res.status).toBe(200);

    const items = person.plan.items;
    const examCap = oonValue(findItem(items, 'exam'), 'allowance');
    const framesCap = oonValue(findItem(items, 'materials.frames'), 'allowance');
    const lensCap = oonValue(
      findItem(items, 'materials.spectacle_lenses.single_vision'),
      'allowance',
    );
    expect(res.body.lines.map((l: any) => [l.benefit_code, l.charge, l.cap])).toEqual([
      ['exam.routine', '120.0000', examCap],
      ['materials.frames', '180.0000', framesCap],
      ['materials.spectacle_lenses.single_vision', '111.0000', lensCap],
      [null, '40.0000', null],
    ]);
    expect(res.body.lines[1].codes).toEqual(['V2020']);
    expect(res.body.lines[2].quantity).toBe(2);
    expect(res.body.lines[3].notes).toEqual(['no benefit is mapped for 92015: not reimbursed']);
    const expected = minOf('120', examCap) + minOf('180', framesCap) + minOf('111', lensCap);
    expect(res.body).toMatchObject({
      network: 'oon',
      total_cost: '451.0000',
      estimated_reimbursement: fromMinor(expected),
      patient_responsibility: fromMinor(toMinor('451') - expected),
    });
    expect(res.body.groups.map((g: any) => g.benefit_code)).toEqual([
      'exam.routine',
      'materials.frames',
      'materials.spectacle_lenses.single_vision',
    ]);
  });

  it('gives the same answer for the same plan sent inline', async () => {
    for (const person of result.results[0].persons) {
      const stored = await post({ request_uid: uid, person_id: person.id, services: RECEIPT });
      const inline = await post({ plan: person.plan, services: RECEIPT });
      expect(stored.status).toBe(200);
      expect(inline.status).toBe(200);
      expect(inline.body).toEqual(stored.body);
      const innStored = await post({
        request_uid: uid,
        person_id: person.id,
        network: 'inn',
        services: RECEIPT,
      });
      const innInline = await post({ plan: person.plan, network: 'inn', services: RECEIPT });
      expect(innInline.body).toEqual(innStored.body);
      expect(innStored.body.network).toBe('inn');
    }
  });

  it('estimates in network with the in-network allowance', async () => {
    const person = result.results[0].persons[0];
    const framesInn = findItem(person.plan.items, 'materials.frames').allowance.find((e: any) =>
      e.flags?.includes('inn'),
    ).value as string;
    const res = await post({
      request_uid: uid,
      person_id: person.id,
      network: 'inn',
      services: [{ codes: ['V2020'], cost: '500' }],
    });
    expect(res.status).toBe(200);
    expect(res.body.lines[0]).toMatchObject({ cap: framesInn, capped: framesInn });
    expect(res.body.lines[0].notes).toContain(
      `in-network allowance $${framesInn.slice(0, -2)} on materials.frames`,
    );
  });

  it('reimburses nothing for the used exam of a dt_exam_used person', async () => {
    const usedUid = await startSearch(t.app, a.auth, {
      patient: patient({ first_name: 'Ana dt_exam_used' }),
    });
    const used = await waitForResult(t.app, a.auth, usedUid);
    const res = await post({
      request_uid: usedUid,
      person_id: used.results[0].persons[0].id,
      services: [{ codes: ['92014'], cost: '120' }],
    });
    expect(res.status).toBe(200);
    expect(res.body.lines[0]).toMatchObject({ cap: '0.0000', capped: '0.0000' });
    expect(res.body.lines[0].notes).toContain('benefit used this period (1 of 1 used)');
    expect(res.body.estimated_reimbursement).toBe('0.0000');
  });

  it('answers an unknown request_uid and another account’s request_uid with the same 404', async () => {
    const person = result.results[0].persons[0];
    const missing = await post({ request_uid: 'no-such-visit', person_id: 1, services: RECEIPT });
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ detail: 'Eligibility request no-such-visit not found.' });
    const foreign = await post(
      { request_uid: uid, person_id: person.id, services: RECEIPT },
      b.auth,
    );
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual({ detail: `Eligibility request ${uid} not found.` });
  });

  it('refuses a request that is not complete, and a person not in it, as field errors', async () => {
    const slow = await startSearch(t.app, a.auth, {
      patient: patient({ first_name: 'Rosa delay_30' }),
    });
    const processing = await post({ request_uid: slow, person_id: 1, services: RECEIPT });
    expect(processing.status).toBe(400);
    expect(processing.body).toEqual({
      errors: { request_uid: { $: [`Eligibility request ${slow} is not complete.`] } },
    });

    const failed = await startSearch(t.app, a.auth, {
      patient: patient({ first_name: 'Rosa in_err_int' }),
    });
    expect((await waitForResult(t.app, a.auth, failed)).status).toBe('error');
    const error = await post({ request_uid: failed, person_id: 1, services: RECEIPT });
    expect(error.body).toEqual({
      errors: { request_uid: { $: [`Eligibility request ${failed} is not complete.`] } },
    });

    const notIn = await post({ request_uid: uid, person_id: 999999, services: RECEIPT });
    expect(notIn.status).toBe(400);
    expect(notIn.body).toEqual({
      errors: { person_id: { $: [`Person 999999 is not in eligibility request ${uid}.`] } },
    });
  });

  it('asks for one source of the plan', async () => {
    const person = result.results[0].persons[0];
    const none = await post({ services: RECEIPT });
    expect(none.status).toBe(400);
    expect(none.body).toEqual({
      errors: { $: ['Give either request_uid and person_id, or plan.'] },
    });
    const both = await post({
      request_uid: uid,
      person_id: person.id,
      plan: person.plan,
      services: RECEIPT,
    });
    expect(both.body).toEqual({
      errors: { $: ['Give either request_uid and person_id, or plan, not both.'] },
    });
    const uidOnly = await post({ request_uid: uid, services: RECEIPT });
    expect(uidOnly.body).toEqual({ errors: { person_id: { $: ['This field is required.'] } } });
    const personOnly = await post({ person_id: person.id, services: RECEIPT });
    expect(personOnly.body).toEqual({
      errors: { request_uid: { $: ['This field is required.'] } },
    });
  });

  it('reports every invalid field of the request together, in the error envelope', async () => {
    const res = await post({
      request_uid: uid,
      person_id: 'one',
      network: 'xyz',
      services: [
        { codes: ['92014'], cost: 'abc' },
        { codes: [], cost: '-5', quantity: 0 },
        { codes: ['not a code'], cost: '1.23456', quantity: 1.5, benefit_code: '' },
        { cost: null },
      ],
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      errors: {
        person_id: { $: ['A valid integer is required.'] },
        network: { $: ['"xyz" is not a valid choice.', 'Allowed values: oon, inn.'] },
        services: {
          '0': { cost: { $: ['A valid number is required.'] } },
          '1': {
            codes: { $: ['Ensure this field has at least 1 elements.'] },
            cost: { $: ['Ensure this value is greater than or equal to 0.'] },
            quantity: { $: ['Ensure this value is greater than or equal to 1.'] },
          },
          '2': {
            codes: { '0': { $: ['Enter a CPT or HCPCS code (for example 92014 or V2100).'] } },
            cost: { $: ['Ensure that there are no more than 4 decimal places.'] },
            quantity: { $: ['A valid integer is required.'] },
            benefit_code: { $: ['This field may not be blank.'] },
          },
          '3': {
            codes: { $: ['This field is required.'] },
            cost: { $: ['This field may not be null.'] },
          },
        },
      },
    });
  });

  it('bounds the number of services', async () => {
    const missing = await post({ plan: result.results[0].persons[0].plan });
    expect(missing.body).toEqual({ errors: { services: { $: ['This field is required.'] } } });
    const empty = await post({ request_uid: uid, person_id: 1, services: [] });
    expect(empty.body).toEqual({
      errors: { services: { $: ['Ensure this field has at least 1 elements.'] } },
    });
    const many = Array.from({ length: 21 }, () => RECEIPT[0]);
    const tooMany = await post({ request_uid: uid, person_id: 1, services: many });
    expect(tooMany.body).toEqual({
      errors: { services: { $: ['Ensure this field has no more than 20 elements.'] } },
    });
    const notList = await post({ request_uid: uid, person_id: 1, services: { codes: ['92014'] } });
    expect(notList.body).toEqual({ errors: { services: { $: ['Expected a list of items.'] } } });
  });

  it('refuses a malformed inline plan with the path of each problem, never a 500', async () => {
    const plan = structuredClone(result.results[0].persons[0].plan);
    plan.items[0].allowance[0].value = 'lots';
    plan.items[0].flags = ['oon', 'sometimes'];
    plan.items[0].quantity = [{ value: -1 }];
    plan.items[1].items[0].coinsurance = [{ flags: ['oon'], value: '150' }];
    plan.items[1].items[0].benefit_code = '';
    delete plan.items[1].refresh_date;
    delete plan.insurer_state;
    const res = await post({ plan, services: RECEIPT });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      errors: {
        plan: {
          insurer_state: { $: ['This field is required.'] },
          items: {
            '0': {
              allowance: { '0': { value: { $: ['A valid number is required.'] } } },
              flags: {
                '1': {
                  $: ['"sometimes" is not a valid choice.', MSG.allowedChoices(BENEFIT_FLAGS)],
                },
              },
              quantity: {
                '0': { value: { $: ['Ensure this value is greater than or equal to 0.'] } },
              },
            },
            '1': {
              refresh_date: { $: ['This field is required.'] },
              items: {
                '0': {
                  benefit_code: { $: ['This field may not be blank.'] },
                  coinsurance: {
                    '0': { value: { $: ['Ensure this value is less than or equal to 100.'] } },
                  },
                },
              },
            },
          },
        },
      },
    });

    for (const [bad, errors] of [
      ['a plan', { plan: { $: ['Invalid data. Expected a dictionary.'] } }],
      [
        { insurer_state: 'oon', items: {} },
        { plan: { items: { $: ['Expected a list of items.'] } } },
      ],
      [
        { insurer_state: 'oon', items: [{ benefit_code: 'exam', refresh_date: '2027-02-30' }] },
        {
          plan: {
            items: {
              '0': {
                refresh_date: {
                  $: [
                    'Date has wrong format. Use YYYY-MM-DD.',
                    '2027-02-30 is not a date: that month has 28 days.',
                  ],
                },
              },
            },
          },
        },
      ],
      [
        {
          insurer_state: 'oon',
          items: [{ benefit_code: 'exam', refresh_date: '2027-01-01', items: [7] }],
        },
        {
          plan: {
            items: { '0': { items: { '0': { $: ['Invalid data. Expected a dictionary.'] } } } },
          },
        },
      ],
      [
        { insurer_state: 'oon', items: [], allowance: [{ value: true }] },
        { plan: { allowance: { '0': { value: { $: ['A valid number is required.'] } } } } },
      ],
    ] as [unknown, unknown][]) {
      const r = await post({ plan: bad, services: RECEIPT });
      expect({ status: r.status, body: r.body }).toEqual({ status: 400, body: { errors } });
    }
  });

  it('accepts a minimal hand-written plan with numbers for money', async () => {
    const res = await post({
      plan: {
        insurer_state: 'oon',
        items: [
          {
            benefit_code: 'materials.frames',
            refresh_date: '2027-01-01',
            allowance: [{ flags: ['oon'], value: 62.5 }],
          },
        ],
      },
      services: [{ codes: ['V2020'], cost: 80 }],
    });
    expect(res.status).toBe(200);
    expect(res.body.lines[0]).toMatchObject({ cap: '62.5000', capped: '62.5000' });
    expect(res.body.estimated_reimbursement).toBe('62.5000');
  });

  it('refuses a body that is not JSON with the whole-request error', async () => {
    const res = await http()
      .post(URL)
      .set(a.auth)
      .set('Content-Type', 'application/json')
      .send('{"services": [');
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ errors: { $: ['Malformed JSON body.'] } });
  });

  it('needs an API key', async () => {
    const res = await http().post(URL).send({ services: RECEIPT });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({
      detail: 'Authentication credentials were not provided.',
      hint: 'Send the header Authorization: Api <key>.',
    });
  });

  it('documents the endpoint with a worked example in the OpenAPI document', async () => {
    const doc = (await http().get('/docs-json').expect(200)).body;
    const op = (doc.paths['/api/auth/v1/estimates/'] ?? doc.paths['/api/auth/v1/estimates']).post;
    expect(Object.keys(op.requestBody.content['application/json'].examples)).toEqual([
      'inlinePlan',
      'storedResult',
    ]);
    expect(op.responses['200'].content['application/json'].example).toEqual(EXAMPLE_RESPONSE);
    expect(op.responses['404']).toBeDefined();
    expect(doc.components.schemas.CreateEstimateDto.required).toEqual(['services']);
    // The inline plan's benefit items nest: the schema refers to itself.
    expect(doc.components.schemas.PlanBenefitItemDto.properties.items.items.$ref).toBe(
      '#/components/schemas/PlanBenefitItemDto',
    );
    expect(doc.components.schemas.EstimateResponse.properties.lines.items.$ref).toBe(
      '#/components/schemas/EstimateLineResponse',
    );
  });
});
