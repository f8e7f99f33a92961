import request from 'supertest';
import { DataSource } from 'typeorm';
import { createTestApp, TestApp } from './support/app';
import { DEMO, patient, startSearch, waitForResult } from './support/eligibility';
import { createAccount, TestAccount } from './support/factories';
import { waitUntil } from './support/queues';
import { ERROR_DETAILS, notConnectedDetail } from '@/modules/eligibility/domain/error-details';

type Json = any;

/** Every benefit item of a plan, depth first. */
function allItems(items: Json[]): Json[] {
  return items.flatMap((i: Json) => [i, ...allItems(i.items ?? [])]);
}

function findItem(plan: Json, code: string): Json {
  const item = allItems(plan.items).find((i: Json) => i.benefit_code === code);
  if (!item) throw new Error(`no benefit ${code}`);
  return item;
}

function networkFlagsIn(plan: Json): Set<string> {
  const flags = new Set<string>();
  const visit = (o: Json) => {
    if (Array.isArray(o)) o.forEach(visit);
    else if (o && typeof o === 'object') {
      if (Array.isArray(o.flags)) o.flags.forEach((f: string) => flags.add(f));
      Object.values(o).forEach(visit);
    }
  };
  visit(plan);
  return flags;
}

describe('eligibility', () => {
  let t: TestApp;
  let a: TestAccount;
  let b: TestAccount;
  const http = () => request(t.app.getHttpServer());

  beforeAll(async () => {
    t = await createTestApp({ env: { SEARCH_RETRY_BASE_MS: '50' } });
    a = await createAccount(t.app);
    b = await createAccount(t.app);
  });
  afterAll(() => t.close());

  /** Runs a sandbox search to its end and returns [V1, V2]. */
  async function search(body: Record<string, unknown>): Promise<[Json, Json]> {
    const uid = await startSearch(t.app, a.auth, body);
    const v2 = await waitForResult(t.app, a.auth, uid, 'v2');
    const v1 = await waitForResult(t.app, a.auth, uid, 'v1');
    return [v1, v2];
  }

  describe('POST /api/auth/v1/eligibility/', () => {
    it('answers 201 with a generated 32-hex request_uid, and the result starts as processing', async () => {
      const res = await http()
        .post('/api/auth/v1/eligibility/')
        .set(a.auth)
        .send({ insurer_code: DEMO, patient: patient({ last_name: 'delay_10' }) });
      expect(res.status).toBe(201);
      expect(res.body).toEqual({ request_uid: expect.stringMatching(/^[0-9a-f]{32}$/) });
      const poll = await http()
        .get(`/api/auth/v2/eligibility/${res.body.request_uid}/`)
        .set(a.auth);
      expect(poll.status).toBe(200);
      expect(poll.body).toEqual({
        request_uid: res.body.request_uid,
        origin: null,
        status: 'processing',
        error_code: null,
        error_detail: null,
        results: null,
        // docs/api.md, Universal Search insurer by insurer: the sandbox was asked, not answered.
        insurers: [
          {
            insurer_code: DEMO,
            state: expect.stringMatching(/^(queued|running)$/),
            result_ids: [],
            detail: null,
            finished_at: null,
            verification: null,
          },
        ],
      });
    });

    it('keeps a request_uid the caller gives, and refuses it a second time', async () => {
      const body = { insurer_code: DEMO, request_uid: 'visit-0042', patient: patient() };
      const first = await http().post('/api/auth/v1/eligibility/').set(a.auth).send(body);
      expect(first.status).toBe(201);
      expect(first.body).toEqual({ request_uid: 'visit-0042' });
      const again = await http().post('/api/auth/v1/eligibility/').set(a.auth).send(body);
      expect(again.status).toBe(400);
      expect(again.body).toEqual({
        errors: {
          request_uid: { $: ['Eligibility request with this request uid already exists.'] },
        },
      });
      // Unique per account: another account may use the same uid.
      expect((await http().post('/api/auth/v1/eligibility/').set(b.auth).send(body)).status).toBe(
        201,
      );
    });

    it('gives exactly one 201 and one 400 to two concurrent requests with one request_uid', async () => {
      for (let round = 0; round < 5; round++) {
        const body = { insurer_code: DEMO, request_uid: `race-${round}`, patient: patient() };
        const answers = await Promise.all([
          http().post('/api/auth/v1/eligibility/').set(a.auth).send(body),
          http().post('/api/auth/v1/eligibility/').set(a.auth).send(body),
        ]);
        expect(answers.map((r) => r.status).sort()).toEqual([201, 400]);
        const refused = answers.find((r) => r.status === 400)!;
        expect(refused.body.errors.request_uid.$).toEqual([
          'Eligibility request with this request uid already exists.',
        ]);
      }
    });

    it.each([
      ['no insurer', { patient: patient() }, { insurer_code: { $: ['This field is required.'] } }],
      ['no patient', { insurer_code: DEMO }, { patient: { $: ['This field is required.'] } }],
      [
        'a patient that is not an object',
        { insurer_code: DEMO, patient: 'Maria' },
        { patient: { $: ['Invalid data. Expected a dictionary.'] } },
      ],
      [
        'a blank first name',
        { insurer_code: DEMO, patient: patient({ first_name: '  ' }) },
        { patient: { first_name: { $: ['This field may not be blank.'] } } },
      ],
      [
        'a missing last name',
        { insurer_code: DEMO, patient: patient({ last_name: undefined }) },
        { patient: { last_name: { $: ['This field is required.'] } } },
      ],
      [
        'a 101-character first name',
        { insurer_code: DEMO, patient: patient({ first_name: 'x'.repeat(101) }) },
        { patient: { first_name: { $: ['Ensure this field has no more than 100 characters.'] } } },
      ],
      [
        'a badly formed dob',
        { insurer_code: DEMO, patient: patient({ dob: '15/06/1984' }) },
        { patient: { dob: { $: ['Date has wrong format. Use YYYY-MM-DD.'] } } },
      ],
      [
        'an impossible dob',
        { insurer_code: DEMO, patient: patient({ dob: '1984-02-30' }) },
        {
          patient: {
            dob: {
              $: [
                'Date has wrong format. Use YYYY-MM-DD.',
                '1984-02-30 is not a date: that month has 29 days.',
              ],
            },
          },
        },
      ],
      [
        'a dob in the future',
        { insurer_code: DEMO, patient: patient({ dob: '2999-01-01' }) },
        { patient: { dob: { $: ['Date may not be in the future.'] } } },
      ],
      [
        'a dob before 1900',
        { insurer_code: DEMO, patient: patient({ dob: '1899-12-31' }) },
        { patient: { dob: { $: ['Date may not be before 1900-01-01.'] } } },
      ],
      [
        'a bad zipcode',
        { insurer_code: DEMO, patient: patient({ zipcode: '7870' }) },
        { patient: { zipcode: { $: ['Enter a valid ZIP code (NNNNN or NNNNN-NNNN).'] } } },
      ],
      [
        'a missing zipcode',
        { insurer_code: DEMO, patient: patient({ zipcode: undefined }) },
        { patient: { zipcode: { $: ['This field is required.'] } } },
      ],
      [
        'a 3-digit ssn_last_four',
        { insurer_code: DEMO, patient: patient({ ssn_last_four: '123' }) },
        { patient: { ssn_last_four: { $: ['Enter exactly 4 digits.'] } } },
      ],
      [
        'a 65-character member_id',
        { insurer_code: DEMO, patient: patient({ member_id: 'M'.repeat(65) }) },
        { patient: { member_id: { $: ['Ensure this field has no more than 64 characters.'] } } },
      ],
      [
        'a 257-character request_uid',
        { insurer_code: DEMO, request_uid: 'u'.repeat(257), patient: patient() },
        { request_uid: { $: ['Ensure this field has no more than 256 characters.'] } },
      ],
      [
        'an empty insurer_code_list',
        { insurer_code_list: [], patient: patient() },
        { insurer_code_list: { $: ['Ensure this field has at least 1 elements.'] } },
      ],
      [
        '11 insurer codes',
        {
          insurer_code_list: Array.from({ length: 11 }, (_, i) => `insurer:x:${i}`),
          patient: patient(),
        },
        { insurer_code_list: { $: ['Ensure this field has no more than 10 elements.'] } },
      ],
      [
        'duplicate insurer codes',
        { insurer_code_list: [DEMO, DEMO], patient: patient() },
        { insurer_code_list: { $: ['Duplicate values are not allowed.'] } },
      ],
      [
        'an unknown location',
        { insurer_code: DEMO, location_code: 'LOC00000000', patient: patient() },
        { location_code: { $: ['Location LOC00000000 does not exist.'] } },
      ],
    ])('refuses %s with the exact field error', async (_name, body, errors) => {
      const res = await http().post('/api/auth/v1/eligibility/').set(a.auth).send(body);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ errors });
    });

    it('refuses an unknown insurer code with a whole-request error', async () => {
      const res = await http()
        .post('/api/auth/v1/eligibility/')
        .set(a.auth)
        .send({ insurer_code: 'insurer:vision:nope', patient: patient() });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ errors: { $: ['Unknown insurer code: insurer:vision:nope.'] } });
      const list = await http()
        .post('/api/auth/v1/eligibility/')
        .set(a.auth)
        .send({ insurer_code_list: [DEMO, 'insurer:vision:nope'], patient: patient() });
      expect(list.body).toEqual({ errors: { $: ['Unknown insurer code: insurer:vision:nope.'] } });
    });

    it('reports several field errors of one request together', async () => {
      const res = await http()
        .post('/api/auth/v1/eligibility/')
        .set(a.auth)
        .send({ insurer_code: DEMO, patient: { first_name: '', dob: 'x', zipcode: '1' } });
      expect(res.status).toBe(400);
      expect(Object.keys(res.body.errors.patient).sort()).toEqual([
        'dob',
        'first_name',
        'last_name',
        'zipcode',
      ]);
    });

    it("accepts the account's own location code, another account's is unknown, empty means the default", async () => {
      const created = await http()
        .post('/api/auth/v1/locations/')
        .set(a.auth)
        .send({ title: 'North' });
      expect(
        (
          await http()
            .post('/api/auth/v1/eligibility/')
            .set(a.auth)
            .send({ insurer_code: DEMO, location_code: created.body.code, patient: patient() })
        ).status,
      ).toBe(201);
      expect(
        (
          await http()
            .post('/api/auth/v1/eligibility/')
            .set(a.auth)
            .send({ insurer_code: DEMO, location_code: '', patient: patient() })
        ).status,
      ).toBe(201);
      const foreign = await http()
        .post('/api/auth/v1/eligibility/')
        .set(b.auth)
        .send({ insurer_code: DEMO, location_code: created.body.code, patient: patient() });
      expect(foreign.status).toBe(400);
      expect(foreign.body.errors.location_code.$[0]).toContain('does not exist');
    });
  });

  describe('results', () => {
    it('V2 carries the plan tree; V1 is the same result without plan', async () => {
      const [v1, v2] = await search({
        patient: patient({ ssn_last_four: '6789', member_id: 'VSP1234' }),
      });
      expect(v2).toMatchObject({ status: 'complete', error_code: null });
      expect(v2.results).toHaveLength(1);
      const entry = v2.results[0];
      expect(Object.keys(entry)).toEqual([
        'id',
        'status',
        'plan_name',
        'plan_group',
        'plan_group_id',
        'plan_begin_date',
        'plan_end_date',
        'plan_refresh_date',
        'insurer_code',
        'plan_is_active',
        'persons',
      ]);
      expect(entry).toMatchObject({
        id: expect.any(Number),
        status: 'active',
        insurer_code: DEMO,
        plan_is_active: true,
      });
      expect(entry.plan_begin_date).toMatch(/^\d{4}-01-01$/);
      const person = entry.persons[0];
      expect(person).toMatchObject({
        first_name: 'Maria',
        last_name: 'Garcia',
        dob: '1984-06-15',
        member_id: 'VSP1234',
        ssn_last_four: '6789',
        type: 'self',
        full_name: 'Maria Garcia',
        is_active: true,
        id: expect.any(Number),
        address: { line1: expect.any(String), city: 'Austin', zipcode: '78701', state: 'TX' },
      });
      expect(Object.keys(person.address)).toEqual(['line1', 'line2', 'city', 'zipcode', 'state']);
      expect(person.plan.insurer_state).toBe('oon');
      expect(person).not.toHaveProperty('plan_token');
      expect(person).not.toHaveProperty('plan_token_expired_at');

      // Four-decimal doubles, integer quantities, a tree at least three levels deep.
      const frames = findItem(person.plan, 'materials.frames');
      expect(frames.allowance).toEqual(
        expect.arrayContaining([{ flags: ['inn'], value: expect.stringMatching(/^\d+\.\d{4}$/) }]),
      );
      expect(frames.quantity[0].value).toBe(1);
      expect(
        findItem(person.plan, 'materials.spectacle_lenses.single_vision.options.anti_reflective'),
      ).toBeDefined();
      expect([...networkFlagsIn(person.plan)]).toEqual(
        expect.arrayContaining(['inn', 'oon', 'exclusive-use', 'required', 'requires-parent-use']),
      );

      const v1Person = v1.results[0].persons[0];
      expect(v1Person).not.toHaveProperty('plan');
      const { plan: _plan, ...withoutPlan } = person;
      expect(v1Person).toEqual(withoutPlan);
      expect({ ...v1.results[0], persons: [] }).toEqual({ ...entry, persons: [] });
    });

    it('is stable across repeated GETs and deterministic for the same patient', async () => {
      const [, first] = await search({ patient: patient({ first_name: 'Stable' }) });
      const again = await waitForResult(t.app, a.auth, first.request_uid, 'v2');
      expect(again).toEqual(first);
      const [, second] = await search({ patient: patient({ first_name: 'Stable' }) });
      expect(second.results[0].id).not.toBe(first.results[0].id);
      expect(second.results[0].persons[0].plan).toEqual(first.results[0].persons[0].plan);
      expect(second.results[0].plan_name).toBe(first.results[0].plan_name);
    });

    it('answers 404 naming the uid on V1 and V2 for an unknown uid and for another account', async () => {
      for (const version of ['v1', 'v2']) {
        const res = await http().get(`/api/auth/${version}/eligibility/nope-123/`).set(a.auth);
        expect(res.status).toBe(404);
        expect(res.body).toEqual({ detail: 'Eligibility request nope-123 not found.' });
      }
      const uid = await startSearch(t.app, a.auth, { patient: patient() });
      for (const version of ['v1', 'v2']) {
        const res = await http().get(`/api/auth/${version}/eligibility/${uid}/`).set(b.auth);
        expect(res.status).toBe(404);
        expect(res.body).toEqual({ detail: `Eligibility request ${uid} not found.` });
      }
      // Longer than any uid can be: not found without a query, in the same words.
      const long = 'u'.repeat(257);
      const res = await http().get(`/api/auth/v2/eligibility/${long}/`).set(a.auth);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ detail: `Eligibility request ${long} not found.` });
    });

    it('runs a Universal Search over three insurers in one request', async () => {
      const uid = await startSearch(t.app, a.auth, {
        insurer_code: undefined,
        insurer_code_list: [DEMO, 'insurer:vision:spectera', 'insurer:vision:davis_vision'],
        patient: patient(),
      });
      const v2 = await waitForResult(t.app, a.auth, uid);
      // Only the sandbox has a path here (no clearinghouse, not assisted): the request completes
      // with the insurers that answered.
      expect(v2.status).toBe('complete');
      expect(v2.results.map((r: Json) => r.insurer_code)).toEqual([DEMO]);
      // Each insurer says where it stands, in the request's order, the failures why.
      expect(v2.insurers).toEqual([
        {
          insurer_code: DEMO,
          state: 'found',
          result_ids: v2.results.map((r: Json) => r.id),
          detail: null,
          finished_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
          verification: null,
        },
        ...['insurer:vision:spectera', 'insurer:vision:davis_vision'].map((code) => ({
          insurer_code: code,
          state: 'failed',
          result_ids: [],
          detail: notConnectedDetail(code, false),
          finished_at: expect.any(String),
          verification: null,
        })),
      ]);
    });

    it('ends as insurer_problem when no listed insurer can be reached', async () => {
      const uid = await startSearch(t.app, a.auth, {
        // No clearinghouse in this suite, and not answered by a person by default.
        insurer_code: 'insurer:vision:spectera',
        patient: patient(),
      });
      expect(await waitForResult(t.app, a.auth, uid)).toEqual({
        request_uid: uid,
        origin: null,
        status: 'error',
        error_code: 'insurer_problem',
        error_detail: notConnectedDetail('insurer:vision:spectera', false),
        results: null,
        insurers: [
          {
            insurer_code: 'insurer:vision:spectera',
            state: 'failed',
            result_ids: [],
            detail: notConnectedDetail('insurer:vision:spectera', false),
            finished_at: expect.any(String),
            verification: null,
          },
        ],
      });
    });
  });

  describe('sandbox cheat codes (through V1 and V2)', () => {
    it('mark_used: every benefit used', async () => {
      const [v1, v2] = await search({ patient: patient({ first_name: 'Mark_Used' }) });
      expect(v1.status).toBe('complete');
      for (const item of allItems(v2.results[0].persons[0].plan.items)) {
        if (item.quantity)
          expect(item.quantity_accepted).toEqual(
            item.quantity.map((e: Json) => ({
              ...(e.flags ? { flags: e.flags } : {}),
              value: e.value,
            })),
          );
        if (item.allowance)
          expect(item.allowance_accepted.map((e: Json) => e.value)).toEqual(
            item.allowance.map((e: Json) => e.value),
          );
      }
      expect(findItem(v2.results[0].persons[0].plan, 'exam').quantity_accepted).toEqual([
        { value: 1 },
      ]);
    });

    it('dt_exam_used: the exam used, nothing else', async () => {
      const [, v2] = await search({ patient: patient({ last_name: 'Garcia dt_exam_used' }) });
      const plan = v2.results[0].persons[0].plan;
      expect(findItem(plan, 'exam').quantity_accepted).toEqual([{ value: 1 }]);
      expect(findItem(plan, 'materials.frames').quantity_accepted).toEqual([{ value: 0 }]);
    });

    it('no_oon: no out-of-network benefit, insurer_state inn, plan_token present in V1 and V2', async () => {
      const [v1, v2] = await search({ patient: patient({ member_id: 'ABC-NO_OON' }) });
      const person = v2.results[0].persons[0];
      expect(person.plan.insurer_state).toBe('inn');
      expect(networkFlagsIn(person.plan).has('oon')).toBe(false);
      expect(networkFlagsIn(person.plan).has('inn')).toBe(true);
      expect(person.plan_token).toMatch(/^[0-9a-f]{64}$/);
      expect(person.plan_token_expired_at).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(v1.results[0].persons[0].plan_token).toBe(person.plan_token);
      expect(v1.results[0].persons[0].plan_token_expired_at).toBe(person.plan_token_expired_at);
    });

    it('no_inn: no in-network benefit, out_of_network status, no plan_token keys', async () => {
      const [v1, v2] = await search({ patient: patient({ first_name: 'no_inn' }) });
      const person = v2.results[0].persons[0];
      expect(v2.results[0].status).toBe('out_of_network');
      expect(person.plan.insurer_state).toBe('oon');
      expect(networkFlagsIn(person.plan).has('inn')).toBe(false);
      expect(person.plan.items.length).toBeGreaterThan(0);
      expect(Object.keys(v1.results[0].persons[0])).not.toContain('plan_token');
    });

    it('no_inn + no_oon: a plan without benefit items', async () => {
      const [, v2] = await search({
        patient: patient({ first_name: 'no_inn', last_name: 'no_oon' }),
      });
      expect(v2.results[0].persons[0].plan.items).toEqual([]);
    });

    it('big_family: the subscriber and at least four dependents, each with a plan', async () => {
      const [v1, v2] = await search({ patient: patient({ last_name: 'BIG_FAMILY' }) });
      const persons = v2.results[0].persons;
      expect(persons.length).toBeGreaterThanOrEqual(5);
      expect(persons.map((p: Json) => p.type)).toEqual([
        'self',
        'spouse',
        'child',
        'child',
        'child',
      ]);
      expect(new Set(persons.map((p: Json) => p.id)).size).toBe(persons.length);
      for (const p of persons) expect(p.plan.items.length).toBeGreaterThan(0);
      expect(v1.results[0].persons).toHaveLength(persons.length);
    });

    it('big_family + mark_used: every person with every benefit used', async () => {
      const [, v2] = await search({
        patient: patient({ first_name: 'big_family', last_name: 'mark_used' }),
      });
      expect(v2.results[0].persons.length).toBeGreaterThanOrEqual(5);
      for (const p of v2.results[0].persons) {
        expect(findItem(p.plan, 'exam').quantity_accepted).toEqual([{ value: 1 }]);
        expect(findItem(p.plan, 'materials.frames').quantity_accepted).toEqual([{ value: 1 }]);
      }
    });

    it('not_found: complete with no results', async () => {
      const [v1, v2] = await search({ patient: patient({ first_name: 'not_found' }) });
      expect(v2).toMatchObject({ status: 'complete', error_code: null, results: [] });
      expect(v1.results).toEqual([]);
    });

    it('in_err_int: error with unexpected_error and null results', async () => {
      const [v1, v2] = await search({ patient: patient({ last_name: 'in_err_int' }) });
      expect(v2).toEqual({
        request_uid: v2.request_uid,
        origin: null,
        status: 'error',
        error_code: 'unexpected_error',
        error_detail: ERROR_DETAILS.unexpected_error,
        results: null,
        insurers: [expect.objectContaining({ insurer_code: DEMO, state: 'failed' })],
      });
      expect(v1).toEqual(v2);
    });

    it('in_err_ins: retried, then error with insurer_problem', async () => {
      const [, v2] = await search({ patient: patient({ member_id: 'in_err_ins' }) });
      expect(v2).toMatchObject({ status: 'error', error_code: 'insurer_problem', results: null });
      const ds = t.app.get((await import('typeorm')).DataSource);
      const [row] = await ds.query('SELECT attempts FROM eligibility_requests WHERE uid = $1', [
        v2.request_uid,
      ]);
      expect(row.attempts).toBe(4);
    });

    it('inactive: plan inactive and persons inactive', async () => {
      const [, v2] = await search({ patient: patient({ first_name: 'inactive' }) });
      expect(v2.results[0]).toMatchObject({ status: 'inactive', plan_is_active: false });
      expect(v2.results[0].persons[0].is_active).toBe(false);
    });

    it("flip_inactive: the patient's first search finds the plan active, later ones inactive, per account", async () => {
      const flipping = patient({ last_name: 'Flip_Inactive' });
      const [, first] = await search({ patient: flipping });
      expect(first.results[0]).toMatchObject({ status: 'active', plan_is_active: true });
      const [, second] = await search({ patient: flipping });
      expect(second.results[0]).toMatchObject({ status: 'inactive', plan_is_active: false });
      expect(second.results[0].persons[0].is_active).toBe(false);
      // Another patient, and the same patient in another account, start active.
      const [, other] = await search({ patient: { ...flipping, first_name: 'Someone' } });
      expect(other.results[0].status).toBe('active');
      const elsewhere = await waitForResult(
        t.app,
        b.auth,
        await startSearch(t.app, b.auth, { patient: flipping }),
      );
      expect(elsewhere.results[0].status).toBe('active');
    });

    it('delay_10: still processing a moment later, due again in 10 s', async () => {
      const uid = await startSearch(t.app, a.auth, {
        patient: patient({ first_name: 'delay_10' }),
      });
      // The sandbox asked to be asked again in 10 s: the row is due then (a run's lease would
      // hold it 30 s and more; with Redis a delayed Bull job wakes a worker at that time, as
      // test/eligibility-queue.redis.e2e-spec.ts sees).
      const db = t.app.get(DataSource);
      await waitUntil('the search to be due in 10 s', async () => {
        const [row] = await db.query(
          'SELECT extract(epoch FROM job_due_at - now()) AS wait FROM eligibility_requests WHERE uid = $1',
          [uid],
        );
        const wait = Number(row.wait);
        return wait > 5 && wait <= 10.5 ? true : undefined;
      });
      const res = await http().get(`/api/auth/v1/eligibility/${uid}/`).set(a.auth);
      expect(res.body.status).toBe('processing');
    });
  });

  describe('details requests', () => {
    it('fetches the full tree for one person as a new eligibility request', async () => {
      const [, parent] = await search({ patient: patient({ first_name: 'Big_Family' }) });
      const result = parent.results[0];
      const spouse = result.persons[1];
      const res = await http()
        .post(`/api/auth/v1/eligibility/${parent.request_uid}/details/`)
        .set(a.auth)
        .send({
          request_uid: parent.request_uid,
          result_id: result.id,
          person_id: spouse.id,
          details_request_uid: `${parent.request_uid}-d`,
        });
      expect(res.status).toBe(201);
      expect(res.body).toEqual({ request_uid: `${parent.request_uid}-d` });
      const details = await waitForResult(t.app, a.auth, res.body.request_uid);
      expect(details.status).toBe('complete');
      expect(details.results).toHaveLength(1);
      expect(details.results[0].persons).toHaveLength(1);
      const person = details.results[0].persons[0];
      expect(person).toMatchObject({ first_name: spouse.first_name, type: 'spouse' });
      expect(details.results[0].id).not.toBe(result.id);
      // Deeper than the search's tree: the anti-reflective tiers appear only in details.
      expect(
        findItem(
          person.plan,
          'materials.spectacle_lenses.single_vision.options.anti_reflective.premium',
        ),
      ).toBeDefined();
      expect(() =>
        findItem(
          spouse.plan,
          'materials.spectacle_lenses.single_vision.options.anti_reflective.premium',
        ),
      ).toThrow();
      const v1 = await waitForResult(t.app, a.auth, res.body.request_uid, 'v1');
      expect(v1.results[0].persons[0]).not.toHaveProperty('plan');
    });

    it('refuses a details request for a request that is not complete', async () => {
      const uid = await startSearch(t.app, a.auth, {
        patient: patient({ first_name: 'delay_10' }),
      });
      const res = await http()
        .post(`/api/auth/v1/eligibility/${uid}/details/`)
        .set(a.auth)
        .send({ request_uid: uid, result_id: 1, person_id: 1 });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ errors: { $: [`Eligibility request ${uid} is not complete.`] } });
    });

    it('refuses ids that do not belong to the request, a uid mismatch and missing fields', async () => {
      const [, one] = await search({ patient: patient() });
      const [, other] = await search({ patient: patient({ first_name: 'Other' }) });
      const path = `/api/auth/v1/eligibility/${one.request_uid}/details/`;
      const otherResult = other.results[0];

      const wrongResult = await http().post(path).set(a.auth).send({
        request_uid: one.request_uid,
        result_id: otherResult.id,
        person_id: otherResult.persons[0].id,
      });
      expect(wrongResult.status).toBe(400);
      expect(wrongResult.body).toEqual({
        errors: {
          result_id: {
            $: [
              `Result ${otherResult.id} does not belong to eligibility request ${one.request_uid}.`,
            ],
          },
        },
      });

      const wrongPerson = await http().post(path).set(a.auth).send({
        request_uid: one.request_uid,
        result_id: one.results[0].id,
        person_id: otherResult.persons[0].id,
      });
      expect(wrongPerson.body).toEqual({
        errors: {
          person_id: {
            $: [
              `Person ${otherResult.persons[0].id} does not belong to result ${one.results[0].id}.`,
            ],
          },
        },
      });

      const mismatch = await http().post(path).set(a.auth).send({
        request_uid: 'something-else',
        result_id: one.results[0].id,
        person_id: one.results[0].persons[0].id,
      });
      expect(mismatch.body).toEqual({
        errors: { request_uid: { $: ['Must equal the request uid in the path.'] } },
      });

      const missing = await http().post(path).set(a.auth).send({ result_id: 'x' });
      expect(missing.body).toEqual({
        errors: {
          request_uid: { $: ['This field is required.'] },
          result_id: { $: ['A valid integer is required.'] },
          person_id: { $: ['This field is required.'] },
        },
      });
    });

    it("answers 404 for an unknown uid and for another account's request", async () => {
      const unknown = await http()
        .post('/api/auth/v1/eligibility/nope/details/')
        .set(a.auth)
        .send({ request_uid: 'nope', result_id: 1, person_id: 1 });
      expect(unknown.status).toBe(404);
      expect(unknown.body).toEqual({ detail: 'Eligibility request nope not found.' });
      const [, mine] = await search({ patient: patient() });
      const foreign = await http()
        .post(`/api/auth/v1/eligibility/${mine.request_uid}/details/`)
        .set(b.auth)
        .send({
          request_uid: mine.request_uid,
          result_id: mine.results[0].id,
          person_id: mine.results[0].persons[0].id,
        });
      expect(foreign.status).toBe(404);
      expect(foreign.body).toEqual({
        detail: `Eligibility request ${mine.request_uid} not found.`,
      });
    });
  });
});
