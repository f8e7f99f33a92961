import request from 'supertest';
import { DataSource } from 'typeorm';
import { todayIso } from '@/platform/kernel/time';
import { SCHEDULE_COLUMNS } from '@/modules/appointments/pages/schedule-csv';
import { createTestApp, TestApp } from './support/app';
import { createAccount, TestAccount } from './support/factories';
import { type Agent, createUser, csrfOf, signIn } from './support/web-sign-in';

const API = '/api/auth/v1/appointments/';
const DAY = todayIso(10);
const HEADER = SCHEDULE_COLUMNS.join(',');
const NO_OFFSET =
  'Enter a date and time with its offset (RFC 3339), e.g. 2026-11-24T15:04:00-06:00.';

/**
 * The Schedule page's CSV sync (docs/api.md, Appointments: the Schedule page): the file is the
 * day's appointments of the page's location, stored through the API's sync, each refused line
 * named by its line in the file. ROLE=api: no worker runs behind the test.
 */
describe('the Schedule page: CSV sync', () => {
  let t: TestApp;
  let db: DataSource;
  let a: TestAccount;
  let b: TestAccount;
  let staff: Agent;
  let uptown: string;
  let patientCode: string;

  const http = () => request(t.app.getHttpServer());
  const put = (account: TestAccount, id: string, body: Record<string, unknown> = {}) =>
    http()
      .put(`${API}${encodeURIComponent(id)}/`)
      .set(account.auth)
      .send({
        starts_at: `${DAY}T16:00:00Z`,
        status: 'booked',
        patient: { first_name: 'Old', last_name: 'Visit', dob: '1970-01-01', zipcode: '78701' },
        insurer_code: 'insurer:demo:vision',
        ...body,
      })
      .expect(201);
  const stored = async (account: TestAccount, id: string) =>
    (
      await db.query(
        `SELECT a.status, a.insurer_codes, a.patient_code, l.code AS location
           FROM appointments a JOIN locations l ON l.id = a.location_id
          WHERE a.account_id = $1 AND a.external_id = $2`,
        [account.accountId, id],
      )
    )[0];
  const count = async (account: TestAccount) =>
    (
      await db.query('SELECT count(*)::int AS n FROM appointments WHERE account_id = $1', [
        account.accountId,
      ])
    )[0].n;
  /** Posts the file as the page's form does; expects `status`. */
  async function upload(csv: string, fields: Record<string, string> = {}, status = 200) {
    const csrf = csrfOf((await staff.get(`/app/schedule/?date=${DAY}`)).text);
    const req = staff.post('/app/schedule/sync').field('_csrf', csrf);
    for (const [name, value] of Object.entries({ date: DAY, location: a.locationCode, ...fields }))
      req.field(name, value);
    const res = await req.attach('file', Buffer.from(csv), {
      filename: 'day.csv',
      contentType: 'text/csv',
    });
    if (status !== 200) {
      expect({ status: res.status }).toEqual({ status });
      return res;
    }
    // Stored: the browser is sent back to the day (POST, redirect, GET), which shows the outcome.
    expect({ status: res.status, location: res.headers.location }).toEqual({
      status: 302,
      location: expect.stringMatching(/^\/app\/schedule\/\?date=/),
    });
    return staff.get(res.headers.location).expect(200);
  }

  beforeAll(async () => {
    t = await createTestApp({ env: { ROLE: 'api' } });
    db = t.app.get(DataSource);
    a = await createAccount(t.app);
    b = await createAccount(t.app);
    uptown = (
      await http().post('/api/auth/v1/locations/').set(a.auth).send({ title: 'Uptown' }).expect(201)
    ).body.code;
    patientCode = (
      await http()
        .post('/api/auth/v1/patients/')
        .set(a.auth)
        .send({ first_name: 'Rosa', last_name: 'Diaz', dob: '1979-03-04' })
        .expect(200)
    ).body.code;
    const user = await createUser(t.app, a.accountId, 'staff');
    staff = (await signIn(t.app, user.email, user.password)).agent;
    await put(a, 'OLD-1');
    await put(a, 'UP-1', { location_code: uptown });
    await put(b, 'OLD-1');
  }, 60_000);
  afterAll(() => t?.close());

  /** The day's file (a function: the patient record exists once beforeAll ran). */
  const file = () =>
    [
      HEADER,
      `S-1,${DAY}T09:00:00-06:00,${DAY}T09:30:00-06:00,Booked,,,Maria,Garcia,1984-06-15,78701,VSP1,insurer:demo:vision;insurer:vision:vsp`,
      `S-2,tomorrow 9am,,booked,,,Ann,Lee,1990-01-01,78701,,insurer:demo:vision`,
      `S-3,${DAY}T10:00:00Z,,arrived,,${patientCode},,,,,,insurer:demo:vision`,
      `S-4,${DAY}T11:00:00Z,,booked,,,Bob,Stone,15/06/1984,78701,,insurer:demo:vision`,
    ].join('\r\n');

  it('stores the rows, cancels the unlisted of the day and location, and names each bad row by its line', async () => {
    const res = await upload(file());
    expect(res.text).toContain(
      '2 new, 0 changed, 0 unchanged, 1 cancelled (not in the file), 2 not stored.',
    );
    expect(res.text).toContain(`<li>Line 3: starts_at: ${NO_OFFSET}</li>`);
    expect(res.text).toContain('<li>Line 5: dob: Date has wrong format. Use YYYY-MM-DD.</li>');
    expect(res.text).toContain('<tr data-appointment="S-1">');
    expect(res.text).toContain('<tr data-appointment="S-3">');
    // A reload shows the day again, not the outcome: nothing was sent twice.
    const reload = await staff.get(`/app/schedule/?date=${DAY}&location=${a.locationCode}`);
    expect(reload.status).toBe(200);
    expect(reload.text).not.toContain('id="sync-counts"');
    expect(reload.text).toContain('<tr data-appointment="S-1">');

    expect(await stored(a, 'S-1')).toEqual({
      status: 'booked',
      insurer_codes: ['insurer:demo:vision', 'insurer:vision:vsp'],
      patient_code: null,
      location: a.locationCode,
    });
    expect(await stored(a, 'S-3')).toMatchObject({ status: 'arrived', patient_code: patientCode });
    expect(await stored(a, 'S-2')).toBeUndefined();
    // Not in the file: cancelled at this location only, and never another account's.
    expect((await stored(a, 'OLD-1')).status).toBe('cancelled');
    expect((await stored(a, 'UP-1')).status).toBe('booked');
    expect((await stored(b, 'OLD-1')).status).toBe('booked');

    const again = await upload(file());
    expect(again.text).toContain(
      '0 new, 0 changed, 2 unchanged, 0 cancelled (not in the file), 2 not stored.',
    );
    const events = await db.query(
      `SELECT action, resource_id FROM audit_events
        WHERE account_id = $1 AND resource_type = 'appointment' AND actor_type = 'user'
          AND action = 'update'`,
      [a.accountId],
    );
    expect(events).toEqual([
      { action: 'update', resource_id: null },
      { action: 'update', resource_id: null },
    ]);
  });

  it('syncs the chosen location: a blank location_code is that location', async () => {
    const res = await upload(
      `${HEADER}\nU-2,${DAY}T12:00:00Z,,booked,,${patientCode},,,,,,insurer:demo:vision\n`,
      { location: uptown },
    );
    expect(res.text).toContain('1 new, 0 changed, 0 unchanged, 1 cancelled (not in the file).');
    expect((await stored(a, 'U-2')).location).toBe(uptown);
    expect((await stored(a, 'UP-1')).status).toBe('cancelled');
    expect((await stored(a, 'S-1')).status).toBe('booked');
  });

  it('refuses a file as a whole, saying why (400), and stores nothing', async () => {
    const before = await count(a);
    const cases: [string, string][] = [
      ['external_id,status\nX-1,booked\n', 'Line 1: the header lacks starts_at, insurer_code'],
      ['', 'Choose a CSV file to upload.'],
      [`${HEADER}\n"broken,\n`, 'Not a readable CSV file'],
      [
        [HEADER, ...Array.from({ length: 5_001 }, (_, i) => `X-${i},${DAY}T09:00:00Z,booked`)].join(
          '\n',
        ),
        'At most 5,000 appointments per file; this one has more.',
      ],
    ];
    for (const [csv, message] of cases) {
      expect((await upload(csv, {}, 400)).text).toContain(message);
    }
    const theirs = await http().get('/api/auth/v1/locations/').set(b.auth).expect(200);
    const wrongPlace = await upload(file(), { location: theirs.body.result[0].code }, 400);
    expect(wrongPlace.text).toContain(`Location ${theirs.body.result[0].code} does not exist.`);
    const wrongDay = await upload(file(), { date: '2026-02-30' }, 400);
    expect(wrongDay.text).toContain('Date has wrong format. Use YYYY-MM-DD.');
    expect(await count(a)).toBe(before);
    expect((await stored(a, 'S-1')).status).toBe('booked');
  }, 60_000);

  it('reads no file without the form token (403), and offers the template', async () => {
    const before = await count(a);
    const res = await staff
      .post('/app/schedule/sync')
      .field('date', DAY)
      .attach('file', Buffer.from(file().replace(/S-/g, 'T-')), 'day.csv');
    expect(res.status).toBe(403);
    expect(await count(a)).toBe(before);
    const template = await staff.get('/app/schedule/template.csv').expect(200);
    expect(template.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(template.text.split('\n')[0]).toBe(HEADER);
  });
});
