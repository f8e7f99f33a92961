import request from 'supertest';
import { DataSource } from 'typeorm';
import { ApiKeysService } from '@/modules/auth/domain/api-keys.service';
import type { ApiScope } from '@/modules/auth/domain/scopes';
import { createTestApp, TestApp } from './support/app';
import { createAccount, TestAccount } from './support/factories';
import { MSG } from '@/platform/kernel/messages';
import {
  APPOINTMENT_STATUSES,
  COVERAGE_FILTERS,
} from '@/modules/appointments/domain/appointment-words';

const API = '/api/auth/v1/appointments/';
const POLICY = '/api/auth/v1/appointment-policy/';
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}\+00:00$/;
const NO_OFFSET =
  'Enter a date and time with its offset (RFC 3339), e.g. 2026-11-24T15:04:00-06:00.';

/** An appointment body: a patient as sent, VSP, on 24 November 2026 at 15:00 in Austin. */
function appt(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    starts_at: '2026-11-24T15:00:00-06:00',
    ends_at: '2026-11-24T15:30:00-06:00',
    status: 'booked',
    services: ['exam.routine', 'materials.frames'],
    patient: { first_name: 'Maria', last_name: 'Garcia', dob: '1984-06-15', zipcode: '78701' },
    insurer_code: 'insurer:vision:vsp',
    source_updated_at: '2026-11-20T09:00:00Z',
    ...overrides,
  };
}

/** `n` sync items, ids `<prefix>-0000`…, starting every 5 minutes from 24 November 2026 08:00 UTC. */
function items(prefix: string, n: number): Record<string, unknown>[] {
  return Array.from({ length: n }, (_, i) => ({
    external_id: `${prefix}-${String(i).padStart(4, '0')}`,
    ...appt({
      starts_at: new Date(Date.UTC(2026, 10, 24, 8) + i * 300_000).toISOString(),
      ends_at: null,
    }),
  }));
}

describe('appointments (docs/api.md, Appointments)', () => {
  let t: TestApp;
  let a: TestAccount;
  let b: TestAccount;
  let patientCode: string;
  let bPatientCode: string;
  let uptown: string;

  beforeAll(async () => {
    t = await createTestApp();
    a = await createAccount(t.app);
    b = await createAccount(t.app);
    patientCode = (
      await http()
        .post('/api/auth/v1/patients/')
        .set(a.auth)
        .send({ first_name: 'Rosa', last_name: 'Diaz', dob: '1979-03-04' })
        .expect(200)
    ).body.code;
    bPatientCode = (
      await http()
        .post('/api/auth/v1/patients/')
        .set(b.auth)
        .send({ first_name: 'Bob', last_name: 'Other', dob: '1971-01-01' })
        .expect(200)
    ).body.code;
    uptown = (
      await http().post('/api/auth/v1/locations/').set(a.auth).send({ title: 'Uptown' }).expect(201)
    ).body.code;
  });
  afterAll(() => t.close());

  const http = () => request(t.app.getHttpServer());
  const put = (id: string, body: unknown, account: TestAccount = a) =>
    http()
      .put(`${API}${encodeURIComponent(id)}/`)
      .set(account.auth)
      .send(body as object);
  const get = (id: string, account: TestAccount = a) =>
    http()
      .get(`${API}${encodeURIComponent(id)}/`)
      .set(account.auth);
  const sync = (body: unknown, account: TestAccount = a) =>
    http()
      .post(`${API}sync/`)
      .set(account.auth)
      .send(body as object);
  const rows = async (account: TestAccount): Promise<number> =>
    (
      await t.app
        .get(DataSource)
        .query('SELECT count(*)::int AS n FROM appointments WHERE account_id = $1', [
          account.accountId,
        ])
    )[0].n;
  const statusOf = async (account: TestAccount, id: string): Promise<string> =>
    (
      await t.app
        .get(DataSource)
        .query('SELECT status FROM appointments WHERE account_id = $1 AND external_id = $2', [
          account.accountId,
          id,
        ])
    )[0]?.status;

  describe('upsert, get, cancel', () => {
    it('creates an appointment (201) and answers it; the same body again is 200 and changes nothing', async () => {
      const created = await put('visit-0001', appt());
      expect(created.status).toBe(201);
      expect(created.body).toEqual({
        external_id: 'visit-0001',
        starts_at: '2026-11-24T21:00:00.000+00:00',
        ends_at: '2026-11-24T21:30:00.000+00:00',
        status: 'booked',
        location_code: a.locationCode,
        services: ['exam.routine', 'materials.frames'],
        patient_code: null,
        patient: {
          first_name: 'Maria',
          last_name: 'Garcia',
          dob: '1984-06-15',
          zipcode: '78701',
          ssn_last_four: null,
          member_id: null,
          subscriber: null,
        },
        insurer_codes: ['insurer:vision:vsp'],
        source_updated_at: '2026-11-20T09:00:00.000+00:00',
        created_at: expect.stringMatching(TIMESTAMP),
        updated_at: expect.stringMatching(TIMESTAMP),
        coverage: {
          state: 'not_checked',
          stale: false,
          checked_at: null,
          fresh_until: null,
          next_check_at: null,
          request_uid: null,
          changes: [],
          benefits: null,
          detail: null,
        },
      });
      const again = await put('visit-0001', appt());
      expect(again.status).toBe(200);
      expect(again.body).toEqual(created.body);
      // The same instant written with another offset is the same appointment.
      const utc = await put('visit-0001', appt({ starts_at: '2026-11-24T21:00:00Z' }));
      expect(utc.status).toBe(200);
      expect(utc.body.updated_at).toBe(created.body.updated_at);
      expect(await get('visit-0001').expect(200)).toHaveProperty('body', created.body);
    });

    it('replaces a changed appointment (200, updated_at moves); an older source_updated_at changes nothing', async () => {
      const first = (await put('visit-0002', appt()).expect(201)).body;
      const changed = await put(
        'visit-0002',
        appt({
          status: 'arrived',
          services: [],
          location_code: uptown,
          insurer_code: null,
          insurer_code_list: ['insurer:vision:vsp', 'insurer:vision:eye_med'],
          source_updated_at: '2026-11-21T09:00:00+01:00',
        }),
      );
      expect(changed.status).toBe(200);
      expect(changed.body).toMatchObject({
        status: 'arrived',
        services: [],
        location_code: uptown,
        insurer_codes: ['insurer:vision:vsp', 'insurer:vision:eye_med'],
        source_updated_at: '2026-11-21T08:00:00.000+00:00',
        created_at: first.created_at,
      });
      expect(Date.parse(changed.body.updated_at)).toBeGreaterThan(Date.parse(first.updated_at));
      const older = await put(
        'visit-0002',
        appt({ status: 'noshow', source_updated_at: '2026-11-21T07:59:59Z' }),
      );
      expect(older.status).toBe(200);
      expect(older.body).toEqual(changed.body);
      expect(await statusOf(a, 'visit-0002')).toBe('arrived');
      // Without source_updated_at the write applies and the stored one stays.
      const unstamped = await put(
        'visit-0002',
        appt({ status: 'fulfilled', location_code: uptown, source_updated_at: undefined }),
      );
      expect(unstamped.body).toMatchObject({
        status: 'fulfilled',
        source_updated_at: '2026-11-21T08:00:00.000+00:00',
      });
    });

    it('stores one appointment when the same new one arrives many times at once', async () => {
      const answers = await Promise.all(
        Array.from({ length: 12 }, () => put('visit-race', appt())),
      );
      expect(answers.map((r) => r.status).sort()).toEqual([...new Array(11).fill(200), 201]);
      for (const r of answers) expect(r.body).toEqual(answers[0].body);
      const [{ n }] = await t.app
        .get(DataSource)
        .query(
          `SELECT count(*)::int AS n FROM appointments WHERE account_id = $1 AND external_id = 'visit-race'`,
          [a.accountId],
        );
      expect(n).toBe(1);
    });

    it('keeps the newest source_updated_at whatever order concurrent writes arrive in', async () => {
      await put('visit-order', appt()).expect(201);
      const statuses = ['arrived', 'fulfilled', 'noshow', 'cancelled', 'booked'] as const;
      // Each status is written with its own time; the latest (the last hour) must win.
      const writes = statuses.map((status, hour) =>
        put(
          'visit-order',
          appt({
            status,
            source_updated_at: `2026-11-21T${String(10 + hour).padStart(2, '0')}:00:00Z`,
          }),
        ),
      );
      for (const res of await Promise.all(writes.reverse())) expect(res.status).toBe(200);
      expect((await get('visit-order')).body).toMatchObject({
        status: 'booked',
        source_updated_at: '2026-11-21T14:00:00.000+00:00',
      });
    });

    it('takes a patient record by its code, or a patient with its subscriber', async () => {
      const byCode = await put(
        'visit-0003',
        appt({ patient: undefined, patient_code: patientCode, services: undefined }),
      );
      expect(byCode.status).toBe(201);
      expect(byCode.body).toMatchObject({ patient_code: patientCode, patient: null, services: [] });
      const dependent = await put(
        'visit-0004',
        appt({
          patient: {
            first_name: ' Lucas ',
            last_name: 'Garcia',
            dob: '2015-09-03',
            zipcode: '78701-1234',
            ssn_last_four: '0042',
            member_id: 'VSP1',
          },
          subscriber: { first_name: 'Carlos', last_name: 'Garcia', dob: '1982-02-03' },
        }),
      );
      expect(dependent.status).toBe(201);
      expect(dependent.body.patient).toEqual({
        first_name: 'Lucas',
        last_name: 'Garcia',
        dob: '2015-09-03',
        zipcode: '78701-1234',
        ssn_last_four: '0042',
        member_id: 'VSP1',
        subscriber: {
          first_name: 'Carlos',
          last_name: 'Garcia',
          dob: '1982-02-03',
          member_id: null,
        },
      });
    });

    it('takes any printable id, slashes and spaces included, in the path', async () => {
      const id = 'EHR/2026 #42?x=1&y~';
      const res = await put(id, appt());
      expect(res.status).toBe(201);
      expect(res.body.external_id).toBe(id);
      expect((await get(id).expect(200)).body.external_id).toBe(id);
    });

    it('answers a missing appointment 404 on GET and DELETE', async () => {
      for (const res of [
        await get('no-such-visit'),
        await http().delete(`${API}no-such-visit/`).set(a.auth),
      ]) {
        expect(res.status).toBe(404);
        expect(res.body).toEqual({ detail: 'Appointment no-such-visit not found.' });
      }
    });

    it('DELETE makes the appointment cancelled and keeps it; a second DELETE changes nothing', async () => {
      const stored = (await put('visit-0005', appt()).expect(201)).body;
      const cancelled = await http().delete(`${API}visit-0005/`).set(a.auth);
      expect(cancelled.status).toBe(200);
      expect(cancelled.body).toEqual({
        ...stored,
        status: 'cancelled',
        updated_at: expect.stringMatching(TIMESTAMP),
      });
      const again = await http().delete(`${API}visit-0005/`).set(a.auth).expect(200);
      expect(again.body).toEqual(cancelled.body);
      expect((await get('visit-0005')).body.status).toBe('cancelled');
    });
  });

  describe('bad input changes nothing', () => {
    it.each([
      [
        'an external_id of 65 characters',
        'x'.repeat(65),
        appt(),
        {
          external_id: { $: ['Ensure this field has no more than 64 characters.'] },
        },
      ],
      [
        'an external_id with a character that is not printable ASCII',
        'visit-é',
        appt(),
        {
          external_id: { $: ['Use 1–64 printable ASCII characters.'] },
        },
      ],
      [
        'starts_at without an offset',
        'bad-1',
        appt({ starts_at: '2026-11-24T15:00:00' }),
        {
          starts_at: { $: [NO_OFFSET] },
        },
      ],
      [
        'an unknown location_code',
        'bad-2',
        appt({ location_code: 'LOC00000000' }),
        {
          location_code: { $: ['Location LOC00000000 does not exist.'] },
        },
      ],
      [
        'an unknown patient_code',
        'bad-3',
        appt({ patient: null, patient_code: 'PAT00000000' }),
        {
          patient_code: { $: ['Patient PAT00000000 does not exist.'] },
        },
      ],
      [
        'both patient_code and patient',
        'bad-4',
        appt({ patient_code: 'PAT00000000' }),
        {
          patient_code: { $: ['Send either patient_code or patient, not both.'] },
        },
      ],
      [
        'neither patient_code nor patient',
        'bad-5',
        appt({ patient: undefined }),
        {
          patient: { $: ['This field is required.'] },
        },
      ],
      [
        'a subscriber with a patient_code',
        'bad-6',
        appt({
          patient: undefined,
          patient_code: 'PAT00000000',
          subscriber: { first_name: 'C', last_name: 'G', dob: '1982-02-03' },
        }),
        {
          patient_code: { $: ['Patient PAT00000000 does not exist.'] },
          subscriber: { $: ['Send subscriber only with patient.'] },
        },
      ],
      [
        'ends_at before starts_at',
        'bad-7',
        appt({ ends_at: '2026-11-24T20:59:59Z' }),
        {
          ends_at: { $: ['Must be after starts_at.'] },
        },
      ],
      [
        'both insurer_code and insurer_code_list',
        'bad-8',
        appt({
          insurer_code_list: ['insurer:vision:vsp'],
        }),
        { insurer_code: { $: ['Send either insurer_code or insurer_code_list, not both.'] } },
      ],
      [
        'no insurer',
        'bad-9',
        appt({ insurer_code: undefined }),
        {
          insurer_code: { $: ['This field is required.'] },
        },
      ],
      [
        'an unknown insurer',
        'bad-10',
        appt({ insurer_code: 'insurer:vision:nope' }),
        {
          $: ['Unknown insurer code: insurer:vision:nope.'],
        },
      ],
      [
        'a service that is not a benefit code',
        'bad-11',
        appt({ services: ['exam.routine', 'Frames!'] }),
        {
          services: {
            '1': {
              $: ['Enter a benefit code: lower-case words joined by dots, e.g. exam.routine.'],
            },
          },
        },
      ],
      [
        '21 services',
        'bad-12',
        appt({
          services: Array.from({ length: 21 }, (_, i) => `s${'x'.repeat(i)}`.replace(/\d/g, '')),
        }),
        {
          services: { $: ['Ensure this field has no more than 20 elements.'] },
        },
      ],
      [
        'a patient as an eligibility request refuses it',
        'bad-13',
        appt({
          patient: { first_name: '', last_name: 'Garcia', dob: '2999-01-01', zipcode: '7870' },
        }),
        {
          patient: {
            first_name: { $: ['This field may not be blank.'] },
            dob: { $: ['Date may not be in the future.'] },
            zipcode: { $: ['Enter a valid ZIP code (NNNNN or NNNNN-NNNN).'] },
          },
        },
      ],
      [
        'a status that is not one of the five',
        'bad-14',
        appt({ status: 'rescheduled' }),
        {
          status: {
            $: ['"rescheduled" is not a valid choice.', MSG.allowedChoices(APPOINTMENT_STATUSES)],
          },
        },
      ],
      ['not an object', 'bad-15', ['a'], { $: ['Invalid data. Expected a dictionary.'] }],
    ])('refuses %s with its errors', async (_name, id, body, errors) => {
      const before = await rows(a);
      const res = await put(id, body);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ errors });
      expect(await rows(a)).toBe(before);
    });

    it('answers every error of a body at once, the account’s data included', async () => {
      const res = await put(
        'bad-all',
        appt({
          starts_at: '2026-11-24',
          location_code: 'LOC00000000',
          patient: null,
          patient_code: bPatientCode,
          insurer_code: 'insurer:vision:nope',
        }),
      );
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        errors: {
          $: ['Unknown insurer code: insurer:vision:nope.'],
          starts_at: { $: [NO_OFFSET] },
          location_code: { $: ['Location LOC00000000 does not exist.'] },
          patient_code: { $: [`Patient ${bPatientCode} does not exist.`] },
        },
      });
      expect(await get('bad-all')).toHaveProperty('status', 404);
    });
  });

  describe('the worklist', () => {
    let w: TestAccount;
    let branch: string;
    const day = (hour: number, minute = 0) =>
      new Date(Date.UTC(2026, 11, 1, hour, minute)).toISOString();

    beforeAll(async () => {
      w = await createAccount(t.app);
      branch = (await http().post('/api/auth/v1/locations/').set(w.auth).send({ title: 'Branch' }))
        .body.code;
      // Stored out of order; two start at the same instant.
      const plan: [string, string, string | undefined][] = [
        ['w-5', day(16), undefined],
        ['w-1', day(9), undefined],
        ['w-3', day(11), branch],
        ['w-2', day(10), undefined],
        ['w-4a', day(12), undefined],
        ['w-4b', day(12), branch],
        ['w-next-day', new Date(Date.UTC(2026, 11, 2, 9)).toISOString(), undefined],
        ['w-day-before', new Date(Date.UTC(2026, 10, 30, 23, 59)).toISOString(), undefined],
      ];
      for (const [id, starts, location] of plan)
        await put(
          id,
          appt({ starts_at: starts, ends_at: null, location_code: location }),
          w,
        ).expect(201);
      await t.app
        .get(DataSource)
        .query(
          `UPDATE appointments SET coverage_state = 'active' WHERE account_id = $1 AND external_id = 'w-2'`,
          [w.accountId],
        );
    });

    const list = (query: Record<string, string | number>) =>
      http().get(API).query(query).set(w.auth);
    const ids = (res: request.Response) =>
      (res.body.result as { external_id: string }[]).map((r) => r.external_id);
    const window = { from: '2026-12-01T00:00:00Z', to: '2026-12-01T18:00:00-06:00' };

    it('lists a day by starts_at, earliest first, the window’s end excluded', async () => {
      const res = await list(window).expect(200);
      expect(ids(res).slice(0, 4)).toEqual(['w-1', 'w-2', 'w-3', expect.stringMatching(/^w-4/)]);
      expect(ids(res)).toHaveLength(6);
      expect(ids(res).slice(4)).toContain('w-5');
      expect(res.body.next_cursor).toBeNull();
      const all = await list({}).expect(200);
      expect(ids(all)[0]).toBe('w-day-before');
      expect(ids(all)[ids(all).length - 1]).toBe('w-next-day');
      const exact = await list({ from: day(10), to: day(11) }).expect(200);
      expect(ids(exact)).toEqual(['w-2']);
    });

    it('walks the pages with the cursor, each appointment once, in order', async () => {
      for (const limit of [1, 2, 4]) {
        const seen: string[] = [];
        let cursor: string | null = null;
        do {
          const page: request.Response = await list({
            ...window,
            limit,
            ...(cursor ? { cursor } : {}),
          }).expect(200);
          expect(page.body.result.length).toBeLessThanOrEqual(limit);
          seen.push(...ids(page));
          cursor = page.body.next_cursor;
        } while (cursor);
        expect(seen).toEqual(ids(await list(window)));
      }
    });

    it('filters by location and by coverage state', async () => {
      // An empty location_code filters nothing.
      const everywhere = (await list({ ...window, location_code: '' }).expect(200)).body;
      expect(everywhere.result).toHaveLength(6);
      const atBranch = await list({ ...window, location_code: branch }).expect(200);
      expect(ids(atBranch)).toEqual(['w-3', 'w-4b']);
      expect(atBranch.body.result[0].location_code).toBe(branch);
      expect(ids(await list({ ...window, location_code: w.locationCode }))).toEqual([
        'w-1',
        'w-2',
        'w-4a',
        'w-5',
      ]);
      const active = await list({ coverage_state: 'active' }).expect(200);
      expect(ids(active)).toEqual(['w-2']);
      expect(active.body.result[0].coverage.state).toBe('active');
    });

    it('refuses bad filters with field errors', async () => {
      const bad = await list({
        from: '2026-12-01',
        coverage_state: 'covered',
        location_code: 'LOC00000000',
        limit: 500,
      });
      expect(bad.status).toBe(400);
      expect(bad.body).toEqual({
        errors: {
          from: { $: [NO_OFFSET] },
          coverage_state: {
            $: ['"covered" is not a valid choice.', MSG.allowedChoices(COVERAGE_FILTERS)],
          },
          limit: { $: ['Ensure this value is less than or equal to 200.'] },
        },
      });
      const order = await list({ from: window.to, to: window.from });
      expect(order.body).toEqual({ errors: { to: { $: ['Must be after from.'] } } });
      const location = await list({ location_code: 'LOC00000000' });
      expect(location.body).toEqual({
        errors: { location_code: { $: ['Location LOC00000000 does not exist.'] } },
      });
      const cursor = await list({ cursor: 'bm90IG91cnM' });
      expect(cursor.body).toEqual({ errors: { cursor: { $: ['Invalid cursor.'] } } });
    });
  });

  describe('the appointment policy', () => {
    const DEFAULTS = {
      on_booking: true,
      days_before: [3],
      hours_before: [24],
      freshness_hours: 48,
      statuses: ['booked', 'arrived'],
    };

    it('answers the defaults until the account stores one, then what it stored', async () => {
      const p = await createAccount(t.app);
      expect((await http().get(POLICY).set(p.auth).expect(200)).body).toEqual(DEFAULTS);
      const policy = {
        on_booking: false,
        days_before: [7, 0],
        hours_before: [72, 1, 2],
        freshness_hours: 720,
        statuses: [],
      };
      expect((await http().put(POLICY).set(p.auth).send(policy).expect(200)).body).toEqual(policy);
      expect((await http().get(POLICY).set(p.auth).expect(200)).body).toEqual(policy);
      // Another account still has the defaults.
      expect((await http().get(POLICY).set(b.auth).expect(200)).body).toEqual(DEFAULTS);
    });

    it('refuses a bad policy field by field and keeps the stored one', async () => {
      const p = await createAccount(t.app);
      await http().put(POLICY).set(p.auth).send(DEFAULTS).expect(200);
      const res = await http()
        .put(POLICY)
        .set(p.auth)
        .send({
          days_before: [31, 2, 2],
          hours_before: [0, 73, 1, 2, 3, 4],
          freshness_hours: 0,
          statuses: ['booked', 'rescheduled'],
        });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        errors: {
          on_booking: { $: ['This field is required.'] },
          days_before: {
            $: ['Duplicate values are not allowed.'],
            '0': { $: ['Ensure this value is less than or equal to 30.'] },
          },
          hours_before: { $: ['Ensure this field has no more than 5 elements.'] },
          freshness_hours: { $: ['Ensure this value is greater than or equal to 1.'] },
          statuses: {
            '1': {
              $: ['"rescheduled" is not a valid choice.', MSG.allowedChoices(APPOINTMENT_STATUSES)],
            },
          },
        },
      });
      const few = await http()
        .put(POLICY)
        .set(p.auth)
        .send({ ...DEFAULTS, hours_before: [0, 73], freshness_hours: 721 });
      expect(few.body).toEqual({
        errors: {
          hours_before: {
            '0': { $: ['Ensure this value is greater than or equal to 1.'] },
            '1': { $: ['Ensure this value is less than or equal to 72.'] },
          },
          freshness_hours: { $: ['Ensure this value is less than or equal to 720.'] },
        },
      });
      expect((await http().get(POLICY).set(p.auth).expect(200)).body).toEqual(DEFAULTS);
    });
  });

  describe('sync', () => {
    let s: TestAccount;
    const WINDOW = { from: '2026-11-24T00:00:00Z', to: '2026-12-24T00:00:00Z' };

    beforeAll(async () => {
      s = await createAccount(t.app);
    });

    it('stores 5,000 appointments in one sync, then cancels the 10 a second sync leaves out', async () => {
      const all = items('bulk', 5_000);
      const first = await sync({ ...WINDOW, appointments: all }, s);
      expect(first.status).toBe(200);
      expect(first.body).toEqual({
        created: 5000,
        updated: 0,
        unchanged: 0,
        cancelled: 0,
        errors: [],
      });
      expect(await rows(s)).toBe(5000);
      const kept = all.slice(10);
      kept[100] = { ...kept[100], status: 'arrived' };
      const second = await sync({ ...WINDOW, appointments: kept }, s);
      expect(second.body).toEqual({
        created: 0,
        updated: 1,
        unchanged: 4989,
        cancelled: 10,
        errors: [],
      });
      const statuses: { status: string; n: number }[] = await t.app.get(DataSource).query(
        `SELECT status, count(*)::int AS n FROM appointments WHERE account_id = $1
         GROUP BY status ORDER BY status`,
        [s.accountId],
      );
      expect(statuses).toEqual([
        { status: 'arrived', n: 1 },
        { status: 'booked', n: 4989 },
        { status: 'cancelled', n: 10 },
      ]);
      expect(await statusOf(s, 'bulk-0009')).toBe('cancelled');
      expect(await statusOf(s, 'bulk-0110')).toBe('arrived');
      // The same sync again changes nothing.
      const third = await sync({ ...WINDOW, appointments: kept }, s);
      expect(third.body).toEqual({
        created: 0,
        updated: 0,
        unchanged: 4990,
        cancelled: 0,
        errors: [],
      });
    });

    it('reports a bad item by its index with a PUT’s error tree, and stores the others', async () => {
      const list: unknown[] = items('mixed', 5);
      list[1] = { ...(list[1] as object), starts_at: '2026-11-24T10:00:00' };
      list[3] = { ...(list[3] as object), external_id: 'mixed-0000', location_code: 'LOC00000000' };
      list.push('not an object', { ...appt(), external_id: 'x'.repeat(65), patient: null });
      const before = await rows(s);
      const res = await sync(
        { ...WINDOW, from: '2030-01-01T00:00:00Z', to: '2030-01-02T00:00:00Z', appointments: list },
        s,
      );
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        created: 3,
        updated: 0,
        unchanged: 0,
        cancelled: 0,
        errors: [
          { index: 1, errors: { starts_at: { $: [NO_OFFSET] } } },
          {
            index: 3,
            errors: {
              external_id: { $: ['Listed more than once in this sync.'] },
              location_code: { $: ['Location LOC00000000 does not exist.'] },
            },
          },
          { index: 5, errors: { $: ['Invalid data. Expected a dictionary.'] } },
          {
            index: 6,
            errors: {
              external_id: { $: ['Ensure this field has no more than 64 characters.'] },
              patient: { $: ['This field is required.'] },
            },
          },
        ],
      });
      expect(await rows(s)).toBe(before + 3);
      // The item refused for its date was listed: not stored, and nothing to cancel.
      expect(await statusOf(s, 'mixed-0001')).toBeUndefined();
      const single = await put('mixed-0001', list[1]);
      expect(single.body).toEqual({ errors: { starts_at: { $: [NO_OFFSET] } } });
    });

    it('cancels only the window’s appointments of the location named, not those listed nor already cancelled', async () => {
      const l = await createAccount(t.app);
      const branch = (
        await http().post('/api/auth/v1/locations/').set(l.auth).send({ title: 'Branch' })
      ).body.code;
      const day = { from: '2026-11-24T00:00:00-06:00', to: '2026-11-25T00:00:00-06:00' };
      await sync(
        {
          from: '2026-11-01T00:00:00Z',
          to: '2026-12-01T00:00:00Z',
          appointments: [
            { external_id: 'main-in', ...appt() },
            { external_id: 'main-done', ...appt({ status: 'cancelled' }) },
            { external_id: 'branch-in', ...appt({ location_code: branch }) },
            { external_id: 'branch-kept', ...appt({ location_code: branch }) },
            {
              external_id: 'branch-out',
              ...appt({
                location_code: branch,
                starts_at: '2026-11-25T00:00:00-06:00',
                ends_at: null,
              }),
            },
          ],
        },
        l,
      ).expect(200);
      const res = await sync(
        {
          ...day,
          location_code: branch,
          appointments: [{ external_id: 'branch-kept', ...appt({ location_code: branch }) }],
        },
        l,
      );
      expect(res.body).toEqual({ created: 0, updated: 0, unchanged: 1, cancelled: 1, errors: [] });
      expect(await statusOf(l, 'branch-in')).toBe('cancelled');
      expect(await statusOf(l, 'branch-kept')).toBe('booked');
      expect(await statusOf(l, 'branch-out')).toBe('booked');
      expect(await statusOf(l, 'main-in')).toBe('booked');
      const everywhere = await sync({ ...day, appointments: [] }, l);
      expect(everywhere.body).toEqual({
        created: 0,
        updated: 0,
        unchanged: 0,
        cancelled: 2,
        errors: [],
      });
      expect(await statusOf(l, 'main-in')).toBe('cancelled');
    });

    it('refuses a bad window or list as a whole, and stores nothing', async () => {
      const before = await rows(s);
      const cases: [Record<string, unknown>, unknown][] = [
        [
          { from: '2026-11-24', to: WINDOW.to, appointments: items('w', 1) },
          { from: { $: [NO_OFFSET] } },
        ],
        [
          { from: WINDOW.to, to: WINDOW.from, appointments: [] },
          { to: { $: ['Must be after from.'] } },
        ],
        [
          { from: '2026-11-01T00:00:00Z', to: '2026-12-02T00:00:01Z', appointments: [] },
          { to: { $: ['The window may span at most 31 days.'] } },
        ],
        [
          { ...WINDOW, location_code: 'LOC00000000' },
          {
            location_code: { $: ['Location LOC00000000 does not exist.'] },
            appointments: { $: ['This field is required.'] },
          },
        ],
        [
          { ...WINDOW, appointments: { a: 1 } },
          { appointments: { $: ['Expected a list of items.'] } },
        ],
        [
          { ...WINDOW, appointments: new Array(5_001).fill(0) },
          { appointments: { $: ['Ensure this field has no more than 5000 elements.'] } },
        ],
      ];
      for (const [body, errors] of cases) {
        const res = await sync(body, s);
        expect({ body, status: res.status, answer: res.body }).toEqual({
          body,
          status: 400,
          answer: { errors },
        });
      }
      expect(await rows(s)).toBe(before);
    });

    it('takes a body over 1 MiB on this route only, up to 6 MiB', async () => {
      const padding = 'x'.repeat(2 * 1024 * 1024);
      const big = await sync(
        {
          ...WINDOW,
          from: '2031-01-01T00:00:00Z',
          to: '2031-01-02T00:00:00Z',
          note: padding,
          appointments: [],
        },
        s,
      );
      expect(big.status).toBe(200);
      const single = await put('padded', { ...appt(), note: padding });
      expect(single.status).toBe(413);
      const tooBig = await http()
        .post(`${API}sync/`)
        .set(s.auth)
        .set('Content-Type', 'application/json')
        .send(
          JSON.stringify({ ...WINDOW, appointments: [], note: 'y'.repeat(6 * 1024 * 1024 + 1) }),
        );
      expect(tooBig.status).toBe(413);
      expect(tooBig.body).toEqual({ detail: 'Request body too large.' });
    });
  });

  describe('scopes and tenants', () => {
    const keyWith = async (account: TestAccount, scopes: ApiScope[]) => {
      const { key } = await t.app.get(ApiKeysService).create(account.accountId, 'scoped', scopes);
      return { Authorization: `Api ${key}` };
    };

    it('a key without appointments:read gets 403 on every route; appointments:read reads only', async () => {
      await put('scoped-1', appt()).expect(201);
      const none = await keyWith(a, ['eligibility:write', 'patients:write']);
      const reader = await keyWith(a, ['appointments:read']);
      const calls = (auth: { Authorization: string }) => [
        http().get(API).set(auth),
        http().get(`${API}scoped-1/`).set(auth),
        http().get(POLICY).set(auth),
        http()
          .put(`${API}scoped-1/`)
          .set(auth)
          .send(appt({ status: 'noshow' })),
        http().delete(`${API}scoped-1/`).set(auth),
        http()
          .post(`${API}sync/`)
          .set(auth)
          .send({
            ...{ from: '2026-11-24T00:00:00Z', to: '2026-11-25T00:00:00Z' },
            appointments: [],
          }),
        http().put(POLICY).set(auth).send({}),
      ];
      for (const res of await Promise.all(calls(none))) {
        expect(res.status).toBe(403);
        expect(res.body.detail).toMatch(
          /^This API key is not allowed to (read|write) appointments\.$/,
        );
      }
      const answers = await Promise.all(calls(reader));
      expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 403, 403, 403, 403]);
      expect(answers[3].body).toEqual({
        detail: 'This API key is not allowed to write appointments.',
      });
      expect(await statusOf(a, 'scoped-1')).toBe('booked');
    });

    it('another account’s appointment is answered as a missing one, and its sync and PUT leave it alone', async () => {
      const own = (await put('shared-visit', appt()).expect(201)).body;
      for (const [ofA, missing] of [
        [await get('shared-visit', b), await get('missing-visit', b)],
        [
          await http().delete(`${API}shared-visit/`).set(b.auth),
          await http().delete(`${API}missing-visit/`).set(b.auth),
        ],
      ]) {
        expect(ofA.status).toBe(404);
        expect(ofA.body).toEqual({ detail: 'Appointment shared-visit not found.' });
        expect(missing.body).toEqual({ detail: 'Appointment missing-visit not found.' });
      }
      // B's sync over the same window, and B's PUT of the same id, are B's own.
      const bSync = await sync(
        { from: '2026-11-24T00:00:00Z', to: '2026-11-25T00:00:00Z', appointments: [] },
        b,
      );
      expect(bSync.body.cancelled).toBe(0);
      const bPut = await put(
        'shared-visit',
        appt({ status: 'noshow', patient: null, patient_code: bPatientCode }),
        b,
      );
      expect(bPut.status).toBe(201);
      const refused = await put(
        'shared-visit',
        appt({ patient: null, patient_code: patientCode }),
        b,
      );
      expect(refused.body).toEqual({
        errors: { patient_code: { $: [`Patient ${patientCode} does not exist.`] } },
      });
      expect((await get('shared-visit').expect(200)).body).toEqual(own);
      const bList = await http().get(API).set(b.auth).expect(200);
      expect(JSON.stringify(bList.body)).not.toContain(patientCode);
      expect(bList.body.result.map((r: { status: string }) => r.status)).toEqual(['noshow']);
    });

    it('records each read and write of an appointment in the audit trail', async () => {
      await put('audited-visit', appt()).expect(201);
      await get('audited-visit').expect(200);
      await http().delete(`${API}audited-visit/`).set(a.auth).expect(200);
      await http().get(API).set(a.auth).expect(200);
      const events = await http()
        .get('/api/auth/v1/audit-events/')
        .query({ resource_type: 'appointment', limit: 200 })
        .set(a.auth)
        .expect(200);
      const mine = events.body.result
        .filter(
          (e: { resource_id: string | null }) =>
            e.resource_id === 'audited-visit' || e.resource_id === null,
        )
        .map((e: { action: string; resource_id: string | null }) => [e.action, e.resource_id]);
      for (const expected of [
        ['update', 'audited-visit'],
        ['read', 'audited-visit'],
        ['list', null],
      ])
        expect(mine).toContainEqual(expected);
      expect(mine.filter(([action]: string[]) => action === 'update')).toHaveLength(2);
    });
  });
});
