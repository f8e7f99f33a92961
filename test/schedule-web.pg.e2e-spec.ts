import fc from 'fast-check';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { todayIso } from '@/platform/kernel/time';
import { dateWords } from '@/modules/appointments/pages/schedule-view';
import { createTestApp, TestApp } from './support/app';
import { createAccount, TestAccount } from './support/factories';
import { type Agent, createUser, csrfOf, signIn } from './support/web-sign-in';

const API = '/api/auth/v1/appointments/';
/** Ten days ahead: a visit to come, whose policy points (3 days, 24 hours before) are not due. */
const DAY = todayIso(10);
const at = (time: string, day = DAY) => `${day}T${time}:00Z`;

/** The page's row of an appointment (`data-appointment`, as the page escapes it). */
function rowOf(html: string, externalId: string): string | null {
  const start = html.indexOf(`<tr data-appointment="${escapeHtml(externalId)}">`);
  return start < 0 ? null : html.slice(start, html.indexOf('</tr>', start));
}
const textOf = (html: string) =>
  html
    .replace(/<\/?(strong|span|a|code)\b[^>]*>/g, '')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .trim();
const escapeHtml = (s: string) =>
  s
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;')
    .replace(/\\/g, '&#92;');

/**
 * The Schedule page (docs/api.md, Appointments: the Schedule page), over HTTP with ROLE=api: no
 * worker runs, so a check asked stays `checking` and every coverage shown is the one stored.
 */
describe('the Schedule page', () => {
  let t: TestApp;
  let db: DataSource;
  let a: TestAccount;
  let b: TestAccount;
  let staff: Agent;
  let uptown: string;
  let patientCode: string;

  const http = () => request(t.app.getHttpServer());
  const put = (account: TestAccount, id: string, body: Record<string, unknown>) =>
    http()
      .put(`${API}${encodeURIComponent(id)}/`)
      .set(account.auth)
      .send({
        starts_at: at('15:00'),
        status: 'booked',
        patient: { first_name: 'Maria', last_name: 'Garcia', dob: '1984-06-15', zipcode: '78701' },
        insurer_code: 'insurer:demo:vision',
        ...body,
      })
      .expect((res) => expect([200, 201]).toContain(res.status));
  /** A check's answer as the checks store it (their own specs drive them). */
  const answered = (account: TestAccount, id: string, state: string, coverage: object) =>
    db.query(
      `UPDATE appointments SET coverage_state = $3, coverage = $4
        WHERE account_id = $1 AND external_id = $2`,
      [account.accountId, id, state, JSON.stringify(coverage)],
    );
  const page = (agent: Agent, query = `date=${DAY}`) => agent.get(`/app/schedule/?${query}`);

  beforeAll(async () => {
    t = await createTestApp({ env: { ROLE: 'api' } });
    db = t.app.get(DataSource);
    a = await createAccount(t.app);
    b = await createAccount(t.app);
    // Checked only when asked: the rows stay `not_checked` until "Check now".
    for (const account of [a, b])
      await http()
        .put('/api/auth/v1/appointment-policy/')
        .set(account.auth)
        .send({
          on_booking: false,
          days_before: [3],
          hours_before: [24],
          freshness_hours: 48,
          statuses: ['booked', 'arrived'],
        })
        .expect(200);
    uptown = (
      await http().post('/api/auth/v1/locations/').set(a.auth).send({ title: 'Uptown' }).expect(201)
    ).body.code;
    const user = await createUser(t.app, a.accountId, 'staff');
    staff = (await signIn(t.app, user.email, user.password)).agent;

    await put(a, 'V-active', { starts_at: at('09:00'), ends_at: at('09:30') });
    const rosa = await http()
      .post('/api/auth/v1/patients/')
      .set(a.auth)
      .send({ first_name: 'Rosa', last_name: 'Diaz', dob: '1979-03-04' })
      .expect(200);
    await put(a, 'V-inactive', {
      starts_at: at('10:00'),
      patient: undefined,
      patient_code: rosa.body.code,
    });
    patientCode = rosa.body.code;
    await put(a, 'V-stale', { starts_at: at('11:00') });
    await put(a, 'V-waiting', { starts_at: at('12:00') });
    await put(a, 'V-new', { starts_at: at('13:00') });
    await put(a, 'V-cancelled', { starts_at: at('14:00'), status: 'cancelled' });
    await put(a, 'V-uptown', { starts_at: at('09:00'), location_code: uptown });
    await put(a, 'V-tomorrow', { starts_at: at('09:00', todayIso(11)) });
    await put(b, 'B-secret', {
      patient: { first_name: 'Bob', last_name: 'Bravo', dob: '1971-01-01', zipcode: '78701' },
    });
    await answered(a, 'V-active', 'active', {
      checked_at: at('08:00', todayIso(0)),
      request_uid: 'req-active',
      changes: [],
      benefits: {
        exam: { available: true, next_eligible_date: null, copayment: '10.0000', allowance: null },
        frames: {
          available: false,
          next_eligible_date: todayIso(200),
          copayment: null,
          allowance: '150.0000',
        },
        spectacle_lenses: {
          available: null,
          next_eligible_date: null,
          copayment: null,
          allowance: null,
        },
        contact_lenses: {
          available: true,
          next_eligible_date: null,
          copayment: null,
          allowance: '130.0000',
        },
      },
    });
    await answered(a, 'V-inactive', 'inactive', {
      checked_at: at('08:00', todayIso(0)),
      changes: [{ field: 'state', before: 'active', after: 'inactive' }],
    });
    // An answer that will be too old at the visit: its outcome, and `stale` beside it.
    await answered(a, 'V-stale', 'active', { checked_at: at('08:00', todayIso(-5)) });
    await db.query(`UPDATE appointments SET coverage_stale = true WHERE external_id = 'V-stale'`);
    await answered(a, 'V-waiting', 'waiting_for_person', {});
    // Checked active, then cancelled: the answer stays, the visit does not.
    await answered(a, 'V-cancelled', 'active', { checked_at: at('08:00', todayIso(0)) });
  }, 60_000);
  afterAll(() => t?.close());

  it("shows staff the location's appointments of the day: coverage in words and colour, benefits, changes", async () => {
    const res = await page(staff).expect(200);
    const ids = [...res.text.matchAll(/<tr data-appointment="([^"]+)">/g)].map((m) => m[1]);
    expect(ids).toEqual(['V-active', 'V-inactive', 'V-stale', 'V-waiting', 'V-new', 'V-cancelled']);
    const active = rowOf(res.text, 'V-active')!;
    expect(active).toContain('<span class="badge coverage-active">Active</span>');
    expect(textOf(active)).toContain(
      '09:00–09:30 UTC Maria Garcia V-active Demo Vision (sandbox) Booked Active',
    );
    expect(textOf(active)).toContain('Exam: available, copay $10.00');
    expect(textOf(active)).toContain(
      `Frames: not available until ${dateWords(todayIso(200))}, allowance $150.00`,
    );
    expect(textOf(active)).toContain('Lenses: not stated by the plan');
    expect(textOf(active)).toContain('Contacts: available, allowance $130.00');
    expect(active).not.toContain('stale-mark');
    expect(textOf(active)).toContain(`Checked ${todayIso(0)} 08:00 UTC`);
    const inactive = rowOf(res.text, 'V-inactive')!;
    expect(inactive).toContain('<span class="badge coverage-inactive">Inactive</span>');
    expect(textOf(inactive)).toContain('state: active → inactive');
    // A patient record is named by its patient's name, a link to its page.
    expect(inactive).toContain(
      `<a class="patient-name" href="/app/patients/${patientCode}/">Rosa Diaz</a>`,
    );
    // The outcome, and a separate mark of its age.
    expect(rowOf(res.text, 'V-stale')).toContain(
      '<span class="badge coverage-active">Active</span> <span class="stale-mark"',
    );
    expect(textOf(rowOf(res.text, 'V-stale')!)).toContain('Active Stale');
    expect(rowOf(res.text, 'V-waiting')).toContain(
      '<span class="badge coverage-waiting_for_person">Waiting for a person</span>',
    );
    expect(rowOf(res.text, 'V-new')).toContain(
      '<span class="badge coverage-not_checked">Not checked</span>',
    );
    // A cancelled visit is listed, without "Check now".
    expect(rowOf(res.text, 'V-new')).toContain('Check now');
    expect(rowOf(res.text, 'V-cancelled')).not.toContain('Check now');
    expect(textOf(rowOf(res.text, 'V-cancelled')!)).toContain('Cancelled');
    // Never the green badge of a plan: the visit is cancelled.
    expect(rowOf(res.text, 'V-cancelled')).toContain(
      '<span class="badge coverage-cancelled">Visit cancelled</span>',
    );
    expect(rowOf(res.text, 'V-cancelled')).not.toContain('coverage-active');

    const other = await page(staff, `date=${DAY}&location=${uptown}`).expect(200);
    expect([...other.text.matchAll(/<tr data-appointment="([^"]+)">/g)].map((m) => m[1])).toEqual([
      'V-uptown',
    ]);
    const events = await db.query(
      `SELECT actor_type, action FROM audit_events
        WHERE account_id = $1 AND resource_type = 'appointment' AND actor_type = 'user'`,
      [a.accountId],
    );
    expect(events).toContainEqual({ actor_type: 'user', action: 'list' });
  });

  it('opens on today (UTC) at the default location, and answers a bad day or location 400 with why', async () => {
    const today = await staff.get('/app/schedule').expect(200);
    expect(today.text).toContain(`name="date" type="date" value="${todayIso(0)}"`);
    expect(today.text).toContain(`<option value="${a.locationCode}" selected>`);
    const badDay = await page(staff, 'date=24/11/2026').expect(400);
    expect(badDay.text).toContain('Date has wrong format. Use YYYY-MM-DD.');
    expect(badDay.text).not.toContain('data-appointment=');
    const theirs = await http().get('/api/auth/v1/locations/').set(b.auth).expect(200);
    const badLocation = await page(staff, `date=${DAY}&location=${theirs.body.result[0].code}`);
    expect(badLocation.status).toBe(400);
    expect(badLocation.text).toContain(`Location ${theirs.body.result[0].code} does not exist.`);
    expect(badLocation.text).not.toContain('data-appointment=');
  });

  it("never shows another account's appointments, whatever their ids (property)", async () => {
    const bAgent = (await signIn(t.app, b.email, b.password)).agent;
    const day = todayIso(20);
    const sync = (account: TestAccount, ids: string[], lastName: string) =>
      http()
        .post(`${API}sync/`)
        .set(account.auth)
        .send({
          from: `${day}T00:00:00Z`,
          to: `${todayIso(21)}T00:00:00Z`,
          appointments: ids.map((external_id, i) => ({
            external_id,
            starts_at: `${day}T${String(8 + i).padStart(2, '0')}:00:00Z`,
            status: 'booked',
            patient: {
              first_name: 'Pat',
              last_name: lastName,
              dob: '1980-01-01',
              zipcode: '78701',
            },
            insurer_code: 'insurer:demo:vision',
          })),
        })
        .expect(200);
    const id = fc.stringMatching(/^[\x20-\x7e]{1,64}$/).filter((s) => s.trim() === s && s !== '');
    const listed = new Set<string>();
    await fc.assert(
      fc.asyncProperty(fc.uniqueArray(id, { minLength: 1, maxLength: 6 }), async (ids) => {
        await sync(a, ids, 'Alpha');
        await sync(b, [...ids].reverse(), 'Bravo');
        // A sync cancels the ids of earlier runs: they stay listed, cancelled.
        for (const i of ids) listed.add(i);
        for (const [agent, mine, theirs] of [
          [staff, 'Alpha', 'Bravo'],
          [bAgent, 'Bravo', 'Alpha'],
        ] as const) {
          const html = (await page(agent, `date=${day}`).expect(200)).text;
          const rows = html.match(/<tr data-appointment=[\s\S]*?<\/tr>/g) ?? [];
          expect(rows).toHaveLength(listed.size);
          for (const row of rows) {
            expect(textOf(row)).toContain(`Pat ${mine}`);
            expect(textOf(row)).not.toContain(`Pat ${theirs}`);
          }
          for (const i of ids) expect(rowOf(html, i)).not.toBeNull();
        }
      }),
      { numRuns: 8 },
    );
  }, 60_000);

  it('"Check now" shows the row Checking; a cancelled or unknown visit is refused on the page, never a 500', async () => {
    const csrf = csrfOf((await page(staff)).text);
    const check = (external_id: string) =>
      staff
        .post('/app/schedule/check')
        .type('form')
        .send({ _csrf: csrf, external_id, date: DAY, location: a.locationCode });
    const asked = await check('V-new').expect(302);
    expect(asked.headers.location).toBe(`/app/schedule/?date=${DAY}&location=${a.locationCode}`);
    const after = await staff.get(asked.headers.location).expect(200);
    expect(after.text).toContain('The coverage of appointment V-new is being checked.');
    expect(rowOf(after.text, 'V-new')).toContain(
      '<span class="badge coverage-checking">Checking</span>',
    );
    const [{ origin }] = await db.query(
      `SELECT r.origin FROM appointments a JOIN eligibility_requests r
          ON r.account_id = a.account_id AND r.uid = a.check_request_uid
        WHERE a.account_id = $1 AND a.external_id = 'V-new'`,
      [a.accountId],
    );
    expect(origin).toBe('appointment');

    const cancelled = await check('V-cancelled').expect(400);
    expect(cancelled.text).toContain(
      'Appointment V-cancelled is not checked: only a visit to come',
    );
    expect(rowOf(cancelled.text, 'V-active')).not.toBeNull();
    const theirs = await check('B-secret').expect(404);
    expect(theirs.text).toContain('Appointment B-secret not found.');
    expect(theirs.text).not.toContain('Bravo');
    const [{ coverage_state }] = await db.query(
      `SELECT coverage_state FROM appointments WHERE account_id = $1 AND external_id = 'B-secret'`,
      [b.accountId],
    );
    expect(coverage_state).toBe('not_checked');
    const blank = await check('').expect(400);
    expect(blank.text).toContain('external_id: This field is required.');
    const events = await db.query(
      `SELECT resource_id FROM audit_events
        WHERE account_id = $1 AND resource_type = 'appointment' AND action = 'update' AND actor_type = 'user'`,
      [a.accountId],
    );
    expect(events).toEqual([{ resource_id: 'V-new' }]);
  });
});
