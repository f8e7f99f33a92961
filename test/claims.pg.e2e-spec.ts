import request from 'supertest';
import { DataSource } from 'typeorm';
import { createTestApp, TestApp } from './support/app';
import { createAccount, TestAccount } from './support/factories';
import { pdfText } from './support/pdf-text';
import { waitUntil } from './support/queues';

const CODE = /^CLM[0-9A-HJKMNP-TV-Z]{8}$/;
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}\+00:00$/;

const maria = {
  first_name: 'Maria',
  last_name: 'Gonzalez',
  dob: '1986-04-12',
  type: 'self',
  sex: 'female',
  member_id: 'VSP104882211',
  ssn_last_four: '4321',
  email: 'maria.gonzalez@example.com',
  phone: '512-555-0142',
  address: {
    line1: '1208 Congress Ave',
    line2: 'Apt 4B',
    city: 'Austin',
    zipcode: '78701',
    state: 'TX',
    recipient: null,
  },
};

/** Exam 92014, lenses V2100, frame V2020 at VSP: a complete, valid claim (total 310). */
function vspClaim(): Record<string, any> {
  return structuredClone({
    patient: structuredClone(maria),
    primary_member: { ...structuredClone(maria), insurer_code: 'insurer:vision:vsp' },
    services: [
      {
        codes: ['92014'],
        date: '2026-11-14',
        quantity: 1,
        cost: '145.00',
        diagnosis_codes: ['H52.13'],
      },
      // Two lenses at 45 each: `cost` is the price of one unit (docs/api.md, Claims).
      { codes: ['V2100'], date: '2026-11-14', quantity: '2', cost: 45, diagnosis_codes: [] },
      { codes: ['v2020'], date: '2026-11-14', quantity: 1, cost: '75' },
    ],
    paid_amount: '310.00',
    metadata: { account_number: 'CHART-20931', visit: { room: 3, tags: ['oon', 'glasses'] } },
  });
}

/** The warning of a claim whose location has no address (docs/api.md "Claims"). */
const noAddress = (location: string) =>
  `The location ${location} has no address: boxes 32 (service facility) and 33 (billing provider) of the claim form print none, and the claim can only go on paper. Add the location's address before the form is printed.`;

const service = (cost: unknown = '10.00') => ({
  codes: ['92014'],
  date: '2026-11-14',
  quantity: 1,
  cost,
  diagnosis_codes: ['H52.13'],
});

describe('claims (docs/api.md, Claims)', () => {
  let t: TestApp;
  let a: TestAccount;
  let b: TestAccount;

  beforeAll(async () => {
    t = await createTestApp();
    a = await createAccount(t.app);
    b = await createAccount(t.app);
  });
  afterAll(() => t.close());

  const http = () => request(t.app.getHttpServer());
  const create = (body: Record<string, unknown>, account = a) =>
    http().post('/api/auth/v1/claims/').set(account.auth).send(body);

  describe('creation', () => {
    it('answers 201 with the whole claim: four-decimal money, nulls, [] diagnosis codes, code, status, location', async () => {
      const body = vspClaim();
      delete body.patient.email;
      delete body.patient.address;
      body.patient.phone = null;
      const res = await create(body);
      expect(res.status).toBe(201);
      expect(res.body).toEqual({
        code: expect.stringMatching(CODE),
        status: 'ready',
        status_history: [{ status: 'ready', at: res.body.created_at, detail: null }],
        submission: null,
        remittance: null,
        patient: { ...maria, email: null, phone: null, address: null },
        primary_member: { ...maria, insurer_code: 'insurer:vision:vsp' },
        services: [
          {
            codes: ['92014'],
            date: '2026-11-14',
            quantity: 1,
            cost: '145.0000',
            diagnosis_codes: ['H52.13'],
          },
          {
            codes: ['V2100'],
            date: '2026-11-14',
            quantity: 2,
            cost: '45.0000',
            diagnosis_codes: [],
          },
          {
            codes: ['V2020'],
            date: '2026-11-14',
            quantity: 1,
            cost: '75.0000',
            diagnosis_codes: [],
          },
        ],
        paid_amount: '310.0000',
        total_cost: '310.0000',
        accept_assignment: false,
        metadata: { account_number: 'CHART-20931', visit: { room: 3, tags: ['oon', 'glasses'] } },
        rendering_provider: null,
        location_code: a.locationCode,
        location: { status: 'enabled', title: 'Main office', code: a.locationCode },
        created_at: expect.stringMatching(TIMESTAMP),
        // The test account's location has no address.
        warnings: [noAddress(a.locationCode)],
      });

      const got = await http().get(`/api/auth/v1/claims/${res.body.code}/`).set(a.auth);
      expect(got.status).toBe(200);
      // The claims worker may have submitted it since (docs/api.md, Claim lifecycle): the claim itself is the same.
      const { status: _s, status_history: _h, submission: _u, ...claimed } = res.body;
      expect(got.body).toMatchObject(claimed);

      const [row] = await t.app
        .get(DataSource)
        .query(
          'SELECT paid_amount, pg_typeof(paid_amount)::text AS type FROM claims WHERE code = $1',
          [res.body.code],
        );
      expect(row).toEqual({ paid_amount: '310.0000', type: 'numeric' });
    });

    it('returns null metadata when absent, keeps accept_assignment and the named location', async () => {
      const loc = await http()
        .post('/api/auth/v1/locations/')
        .set(a.auth)
        .send({ title: 'Uptown Vision' });
      const body = vspClaim();
      delete body.metadata;
      body.accept_assignment = true;
      body.location_code = loc.body.code;
      const res = await create(body);
      expect(res.status).toBe(201);
      expect(res.body.metadata).toBeNull();
      expect(res.body.accept_assignment).toBe(true);
      expect(res.body.location).toEqual({
        status: 'enabled',
        title: 'Uptown Vision',
        code: loc.body.code,
      });
      const unknown = await create({ ...vspClaim(), location_code: 'LOCNOPE0000' });
      expect(unknown.status).toBe(400);
      expect(unknown.body).toEqual({
        errors: { location_code: { $: ['Location LOCNOPE0000 does not exist.'] } },
      });
    });

    it('keeps metadata exactly as given, key order included', async () => {
      const metadata = { zeta: 1, alpha: { b: 2, a: 1 }, account_number: 'X-1' };
      const res = await create({ ...vspClaim(), metadata });
      expect(res.status).toBe(201);
      const got = await http().get(`/api/auth/v1/claims/${res.body.code}/`).set(a.auth);
      expect(JSON.stringify(got.body.metadata)).toBe(JSON.stringify(metadata));
    });

    it('warns at creation when the location has no address for boxes 32 and 33, and stops once it has one, the form then printing it', async () => {
      const c = await createAccount(t.app);
      const before = await create(vspClaim(), c);
      expect(before.status).toBe(201);
      expect(before.body.warnings).toEqual([noAddress(c.locationCode)]);
      const got = () => http().get(`/api/auth/v1/claims/${before.body.code}/`).set(c.auth);
      expect((await got()).body.warnings).toEqual([noAddress(c.locationCode)]);

      await http()
        .patch(`/api/auth/v1/locations/${c.locationCode}/`)
        .set(c.auth)
        .send({
          organization_name: 'Clear Sight Optometry PLLC',
          address: {
            line1: '901 East 6th Street',
            line2: 'Suite 200',
            city: 'Austin',
            state: 'TX',
            zipcode: '78702-4410',
          },
        })
        .expect(200);
      expect((await got()).body.warnings).toEqual([]);
      const after = await create(vspClaim(), c);
      expect(after.body.warnings).toEqual([]);
      const list = await http().get('/api/auth/v1/claims/').set(c.auth);
      expect(list.body.result.map((x: { warnings: string[] }) => x.warnings)).toEqual([[], []]);

      // Boxes 32 (service facility) and 33 (billing provider): the location's full address.
      const form = await http()
        .get(`/api/auth/v1/claims/${after.body.code}/form/`)
        .set(c.auth)
        .buffer(true)
        .parse((res, done) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () => done(null, Buffer.concat(chunks)));
        });
      expect(form.status).toBe(200);
      const text = (await pdfText(form.body as Buffer)).text.replace(/\s+/g, ' ');
      expect(text).toContain('Clear Sight Optometry PLLC');
      expect(text.split('901 East 6th Street, Suite 200 Austin, TX 78702-4410')).toHaveLength(3);
    });

    it('refuses metadata that is not an object or larger than 16 KiB', async () => {
      const list = await create({ ...vspClaim(), metadata: ['a'] });
      expect(list.body.errors.metadata).toEqual({ $: ['Invalid data. Expected a dictionary.'] });
      const big = await create({ ...vspClaim(), metadata: { blob: 'x'.repeat(17_000) } });
      expect(big.status).toBe(400);
      expect(big.body.errors.metadata.$[0]).toContain('16384 bytes');
    });
  });

  describe('services', () => {
    it('refuses 0 and 7 services', async () => {
      const none = await create({ ...vspClaim(), services: [] });
      expect(none.status).toBe(400);
      expect(none.body).toEqual({
        errors: { services: { $: ['Ensure this field has at least 1 elements.'] } },
      });
      const seven = await create({
        ...vspClaim(),
        services: Array.from({ length: 7 }, () => service()),
        paid_amount: '1',
      });
      expect(seven.status).toBe(400);
      expect(seven.body).toEqual({
        errors: { services: { $: ['Ensure this field has no more than 6 elements.'] } },
      });
      const six = await create({
        ...vspClaim(),
        services: Array.from({ length: 6 }, () => service()),
        paid_amount: '60',
      });
      expect(six.status).toBe(201);
      expect(six.body.services).toHaveLength(6);
    });

    it('reports a bad cost under services.3.cost, with other nested errors', async () => {
      const body = vspClaim();
      body.services = [service(), service(), service(), service('abc')];
      body.services[1].codes = ['92014', 'not a code'];
      body.services[2].quantity = 0;
      body.services[0].diagnosis_codes = ['H5213X'];
      body.patient.address.zipcode = '787';
      const res = await create(body);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        errors: {
          patient: {
            address: { zipcode: { $: ['Enter a valid ZIP code (NNNNN or NNNNN-NNNN).'] } },
          },
          services: {
            '0': {
              diagnosis_codes: { '0': { $: ['Enter an ICD-10 code (for example H52.13).'] } },
            },
            '1': {
              codes: { '1': { $: ['Enter a CPT or HCPCS code (for example 92014 or V2100).'] } },
            },
            '2': { quantity: { $: ['Ensure this value is greater than or equal to 1.'] } },
            '3': { cost: { $: ['A valid number is required.'] } },
          },
        },
      });
    });

    it('validates both persons and the required fields', async () => {
      const res = await create({
        patient: { first_name: ' ', dob: 'yesterday', sex: 'F', email: 'x@' },
        primary_member: { ...maria, insurer_code: undefined, ssn_last_four: '12a4' },
        services: [{}],
      });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        errors: {
          patient: {
            first_name: { $: ['This field may not be blank.'] },
            last_name: { $: ['This field is required.'] },
            dob: { $: ['Date has wrong format. Use YYYY-MM-DD.'] },
            sex: {
              $: ['"F" is not a valid choice.', 'Allowed values: female, male, other, unknown.'],
            },
            email: { $: ['Enter a valid email address.'] },
          },
          primary_member: {
            insurer_code: { $: ['This field is required.'] },
            ssn_last_four: { $: ['Enter exactly 4 digits.'] },
          },
          services: {
            '0': {
              codes: { $: ['This field is required.'] },
              date: { $: ['This field is required.'] },
              quantity: { $: ['This field is required.'] },
              cost: { $: ['This field is required.'] },
            },
          },
          paid_amount: { $: ['This field is required.'] },
        },
      });
      const missing = await create({});
      expect(Object.keys(missing.body.errors).sort()).toEqual([
        'paid_amount',
        'patient',
        'primary_member',
        'services',
      ]);
    });
  });

  describe('money', () => {
    it('prints 12.2 as "12.2000" and sums exactly (0.7 + 0.1 = 0.8, 0.1 + 0.2 = 0.3)', async () => {
      const res = await create({
        ...vspClaim(),
        services: [service(0.7), service('0.1')],
        paid_amount: '0.8',
      });
      expect(res.status).toBe(201);
      expect(res.body.services.map((s: { cost: string }) => s.cost)).toEqual(['0.7000', '0.1000']);
      expect(res.body.total_cost).toBe('0.8000');
      expect(res.body.paid_amount).toBe('0.8000');

      const sum = await create({
        ...vspClaim(),
        services: [service(0.1), service(0.2)],
        paid_amount: '0.3',
      });
      expect(sum.status).toBe(201);
      expect(sum.body.total_cost).toBe('0.3000');

      const decimals = await create({
        ...vspClaim(),
        services: [service('12.2'), service(12.22), service('1234567890.1234')],
        paid_amount: 12.2,
      });
      expect(decimals.status).toBe(201);
      expect(decimals.body.paid_amount).toBe('12.2000');
      expect(decimals.body.services.map((s: { cost: string }) => s.cost)).toEqual([
        '12.2000',
        '12.2200',
        '1234567890.1234',
      ]);
      expect(decimals.body.total_cost).toBe('1234567914.5434');
    });

    it("charges cost × quantity: the real service's documented example (12.22 × 2 + 44.21, paid 68.65)", async () => {
      const res = await create({
        ...vspClaim(),
        services: [
          { ...service('12.22'), quantity: 2 },
          { ...service('44.21'), quantity: '1' },
        ],
        paid_amount: '68.65',
      });
      expect(res.status).toBe(201);
      expect(res.body.total_cost).toBe('68.6500');
      expect(res.body.paid_amount).toBe('68.6500');
      expect(
        res.body.services.map((s: { cost: string; quantity: number }) => [s.cost, s.quantity]),
      ).toEqual([
        ['12.2200', 2],
        ['44.2100', 1],
      ]);
      const got = await http().get(`/api/auth/v1/claims/${res.body.code}/`).set(a.auth);
      expect(got.body.total_cost).toBe('68.6500');
    });

    it('never refuses paid_amount for differing from the total: paid more and paid less are kept', async () => {
      const services = [{ ...service('0.1'), quantity: '3' }, service(0.2)];
      for (const [paid, printed] of [
        ['12.2', '12.2000'],
        ['0.0001', '0.0001'],
        ['0', '0.0000'],
      ]) {
        const res = await create({ ...vspClaim(), services, paid_amount: paid });
        expect(res.status).toBe(201);
        expect(res.body.total_cost).toBe('0.5000');
        expect(res.body.paid_amount).toBe(printed);
      }
    });

    it('takes quantity as an integer or an integer string, and refuses anything else on its line', async () => {
      const ok = await create({
        ...vspClaim(),
        services: [
          { ...service('10'), quantity: '3' },
          { ...service('10'), quantity: 4 },
        ],
        paid_amount: '70',
      });
      expect(ok.status).toBe(201);
      expect(ok.body.services.map((s: { quantity: number }) => s.quantity)).toEqual([3, 4]);
      expect(ok.body.total_cost).toBe('70.0000');

      const bad = await create({
        ...vspClaim(),
        services: [
          { ...service(), quantity: '2.5' },
          { ...service(), quantity: 1.5 },
          { ...service(), quantity: 'two' },
        ],
      });
      expect(bad.status).toBe(400);
      expect(bad.body.errors).toEqual({
        services: {
          '0': { quantity: { $: ['A valid integer is required.'] } },
          '1': { quantity: { $: ['A valid integer is required.'] } },
          '2': { quantity: { $: ['A valid integer is required.'] } },
        },
      });
    });

    it('refuses negative amounts, more than four decimals and non-numbers', async () => {
      const res = await create({
        ...vspClaim(),
        services: [service('-1'), service('1.23456'), service('1e3'), service(null)],
        paid_amount: 'ten',
      });
      expect(res.status).toBe(400);
      expect(res.body.errors).toEqual({
        services: {
          '0': { cost: { $: ['Ensure this value is greater than or equal to 0.'] } },
          '1': { cost: { $: ['Ensure that there are no more than 4 decimal places.'] } },
          '2': { cost: { $: ['A valid number is required.'] } },
          '3': { cost: { $: ['This field may not be null.'] } },
        },
        paid_amount: { $: ['A valid number is required.'] },
      });
    });
  });

  describe('insurer rules', () => {
    it('answers an unknown insurer code with a whole-request error', async () => {
      const body = vspClaim();
      body.primary_member.insurer_code = 'insurer:vision:nope';
      const res = await create(body);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ errors: { $: ['Unknown insurer code: insurer:vision:nope.'] } });
    });

    it.each([
      ['insurer:vision:vsp', 'VSP Vision Care'],
      ['insurer:demo:vision', 'Demo Vision (sandbox)'],
    ])(
      '%s: sex on both persons, a diagnosis, and member_id or ssn_last_four',
      async (insurer, name) => {
        const body = vspClaim();
        body.primary_member.insurer_code = insurer;
        delete body.patient.sex;
        body.primary_member.sex = null;
        body.primary_member.member_id = null;
        delete body.primary_member.ssn_last_four;
        body.services.forEach((s: { diagnosis_codes?: string[] }) => delete s.diagnosis_codes);
        const res = await create(body);
        expect(res.status).toBe(400);
        const either = `Either member_id or ssn_last_four is required for ${name} claims.`;
        expect(res.body).toEqual({
          errors: {
            patient: { sex: { $: [`This field is required for ${name} claims.`] } },
            primary_member: {
              sex: { $: [`This field is required for ${name} claims.`] },
              member_id: { $: [either] },
              ssn_last_four: { $: [either] },
            },
            services: { $: [`At least one service needs a diagnosis code for ${name} claims.`] },
          },
        });
        // Either identifier will do.
        const withSsn = vspClaim();
        withSsn.primary_member.insurer_code = insurer;
        withSsn.primary_member.member_id = null;
        expect((await create(withSsn)).status).toBe(201);
      },
    );

    it('EyeMed: member_id on the primary member, and on a patient who is not "self"', async () => {
      const body = vspClaim();
      body.primary_member.insurer_code = 'insurer:vision:eye_med';
      body.primary_member.member_id = '';
      body.patient.type = 'child';
      body.patient.member_id = null;
      // VSP's rules do not apply to EyeMed.
      body.patient.sex = null;
      body.services.forEach((s: { diagnosis_codes?: string[] }) => (s.diagnosis_codes = []));
      const res = await create(body);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        errors: {
          primary_member: { member_id: { $: ['This field may not be blank.'] } },
        },
      });
      body.primary_member.member_id = null;
      const rules = await create(body);
      expect(rules.body).toEqual({
        errors: {
          patient: {
            member_id: {
              $: [
                'This field is required for EyeMed claims when the patient\'s type is not "self".',
              ],
            },
          },
          primary_member: { member_id: { $: ['This field is required for EyeMed claims.'] } },
        },
      });
      body.primary_member.member_id = 'EM55120873';
      body.patient.type = 'self';
      expect((await create(body)).status).toBe(201);
      body.patient.type = 'child';
      body.patient.member_id = 'EM55120873-02';
      expect((await create(body)).status).toBe(201);
    });

    it('has no extra rules for the other insurers', async () => {
      const body = vspClaim();
      body.primary_member.insurer_code = 'insurer:vision:davis_vision';
      body.patient = { first_name: 'Lee', last_name: 'Wong', dob: '1960-02-29' };
      body.primary_member = {
        first_name: 'Lee',
        last_name: 'Wong',
        dob: '1960-02-29',
        insurer_code: 'insurer:vision:davis_vision',
      };
      body.services = [{ codes: ['92014'], date: '2026-11-14', quantity: 1, cost: '99.99' }];
      body.paid_amount = '0';
      const res = await create(body);
      expect(res.status).toBe(201);
      expect(res.body.patient).toEqual({
        first_name: 'Lee',
        last_name: 'Wong',
        dob: '1960-02-29',
        type: null,
        sex: null,
        member_id: null,
        ssn_last_four: null,
        email: null,
        phone: null,
        address: null,
      });
    });
  });

  describe('get and list', () => {
    it('gives a ready_to_mail claim its submission: paper, not yet mailed, and why', async () => {
      const created = await create(vspClaim());
      expect(created.status).toBe(201);
      const waiting = await waitUntil('the claim to wait to be mailed', async () => {
        const res = await http().get(`/api/auth/v1/claims/${created.body.code}/`).set(a.auth);
        return res.body.status === 'ready_to_mail' ? res.body : undefined;
      });
      // docs/api.md, Claim lifecycle: `submission.detail` says why it goes on paper.
      expect(waiting.submission).toEqual({
        channel: 'paper',
        clearinghouse_id: null,
        submitted_at: null,
        detail: expect.stringMatching(/\S/),
      });
      expect(waiting.status_history[1].detail).toContain(waiting.submission.detail);
      const mailed = await http()
        .post(`/api/auth/v1/claims/${created.body.code}/mailed/`)
        .set(a.auth)
        .expect(200);
      expect(mailed.body.submission).toEqual({
        ...waiting.submission,
        submitted_at: expect.stringMatching(TIMESTAMP),
      });
    });

    it('answers an unknown claim with 404 naming it', async () => {
      const res = await http().get('/api/auth/v1/claims/CLM00000000/').set(a.auth);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ detail: 'Claim CLM00000000 not found.' });
    });

    it("answers another account's claim exactly like a missing one", async () => {
      const theirs = await create(vspClaim(), b);
      expect(theirs.status).toBe(201);
      const res = await http().get(`/api/auth/v1/claims/${theirs.body.code}/`).set(a.auth);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ detail: `Claim ${theirs.body.code} not found.` });
      const list = await http().get('/api/auth/v1/claims/').set(a.auth);
      expect(list.body.result.map((c: { code: string }) => c.code)).not.toContain(theirs.body.code);
    });

    it('lists the account’s claims newest first, with the same shape, page by page', async () => {
      const c = await createAccount(t.app);
      const codes: string[] = [];
      for (let i = 0; i < 3; i++) codes.push((await create(vspClaim(), c)).body.code);
      const all = await http().get('/api/auth/v1/claims').set(c.auth);
      expect(all.status).toBe(200);
      expect(all.body.result.map((x: { code: string }) => x.code)).toEqual([...codes].reverse());
      expect(all.body.next_cursor).toBeNull();
      const one = await http().get(`/api/auth/v1/claims/${codes[0]}/`).set(c.auth);
      expect(all.body.result[2]).toEqual(one.body);

      const first = await http().get('/api/auth/v1/claims/').query({ limit: 2 }).set(c.auth);
      expect(first.body.result).toHaveLength(2);
      const second = await http()
        .get('/api/auth/v1/claims/')
        .query({ limit: 2, cursor: first.body.next_cursor })
        .set(c.auth);
      expect(second.body.result.map((x: { code: string }) => x.code)).toEqual([codes[0]]);
      expect(second.body.next_cursor).toBeNull();
    });

    it('pages claims created in the same millisecond one by one, each exactly once', async () => {
      const c = await createAccount(t.app);
      for (let i = 0; i < 4; i++) expect((await create(vspClaim(), c)).status).toBe(201);
      const db = t.app.get(DataSource);
      await db.query(
        `UPDATE claims SET created_at = '2026-11-21T13:51:16.926Z' WHERE account_id = $1`,
        [c.accountId],
      );
      const rows: { code: string }[] = await db.query(
        'SELECT code FROM claims WHERE account_id = $1 ORDER BY created_at DESC, id DESC',
        [c.accountId],
      );
      const seen: string[] = [];
      let cursor: string | null = null;
      for (let page = 0; page < 6; page++) {
        const res: request.Response = await http()
          .get('/api/auth/v1/claims/')
          .query(cursor ? { limit: 1, cursor } : { limit: 1 })
          .set(c.auth);
        expect(res.status).toBe(200);
        seen.push(...res.body.result.map((x: { code: string }) => x.code));
        cursor = res.body.next_cursor as string | null;
        if (!cursor) break;
      }
      expect(cursor).toBeNull();
      expect(seen).toEqual(rows.map((r) => r.code));
      expect(seen).toHaveLength(4);
    });
  });

  it('documents the claim endpoints with realistic vision examples', async () => {
    const res = await http().get('/docs-json');
    const doc = res.body;
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining([
        '/api/auth/v1/claims/',
        '/api/auth/v1/claims/{code}/',
        '/api/auth/v1/claims/{code}/notify-customer/',
        '/api/auth/v1/patients/',
        '/api/auth/v1/patients/{code}/',
      ]),
    );
    const post = doc.paths['/api/auth/v1/claims/'].post;
    expect(Object.keys(post.responses)).toEqual(expect.arrayContaining(['201', '400', '401']));
    const examples = JSON.stringify(post.requestBody.content['application/json'].examples);
    for (const code of ['92014', 'V2100', 'V2020', 'H52.13']) expect(examples).toContain(code);
    expect(doc.paths['/api/auth/v1/patients/'].post.responses['200']).toBeDefined();
    expect(
      doc.paths['/api/auth/v1/claims/{code}/notify-customer/'].post.responses['404'],
    ).toBeDefined();
  });
});
