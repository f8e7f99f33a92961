import request from 'supertest';
import { DataSource } from 'typeorm';
import { Clock } from '@/platform/kernel/clock';
import { AppointmentChecks } from '@/modules/appointments';
import { createTestApp, TestApp } from './support/app';
import { DEMO, patient, startSearch, waitForResult } from './support/eligibility';
import { createAccount, TestAccount } from './support/factories';
import { waitUntil } from './support/queues';
import { TestReceiver } from './support/receiver';

const API = '/api/auth/v1/appointments/';
const POLICY = '/api/auth/v1/appointment-policy/';
const VSP = 'insurer:vision:vsp';
const TASKS = '/api/auth/v1/verification-tasks/';
const HOUR = 3_600_000;

type Json = any;

/**
 * docs/api.md, Appointments: the service checks coverage before every visit by itself. Time is
 * the injected Clock's, moved forward by the tests (no sleeping until tomorrow); each pass of the
 * checks loop is run by the test (`runDue`).
 */
describe('appointment checks (docs/api.md, Appointments)', () => {
  let t: TestApp;
  let a: TestAccount;
  let b: TestAccount;
  let db: DataSource;
  let checks: AppointmentChecks;
  let now: Date;
  const receiver = new TestReceiver();
  const http = () => request(t.app.getHttpServer());
  let people = 0;
  const someone = (over: Record<string, unknown> = {}) =>
    patient({ last_name: `Visit${++people}`, member_id: `APC${1000 + people}`, ...over });

  beforeAll(async () => {
    await receiver.start();
    t = await createTestApp();
    db = t.app.get(DataSource);
    checks = t.app.get(AppointmentChecks);
    now = new Date();
    jest.spyOn(t.app.get(Clock), 'now').mockImplementation(() => new Date(now));
    a = await createAccount(t.app);
    b = await createAccount(t.app);
    await http()
      .post('/api/auth/v1/webhooks/')
      .set(a.auth)
      .send({ url: receiver.url('/a'), events: ['appointment'] })
      .expect(201);
    // Checks on booking and 24 and 12 hours before; an answer is fresh for 24 hours.
    for (const who of [a, b])
      await http()
        .put(POLICY)
        .set(who.auth)
        .send({
          on_booking: true,
          days_before: [],
          hours_before: [24, 12],
          freshness_hours: 24,
          statuses: ['booked', 'arrived'],
        })
        .expect(200);
  });
  afterAll(async () => {
    await t.close();
    await receiver.stop();
  });

  const get = async (id: string, who = a) =>
    (await http().get(`${API}${encodeURIComponent(id)}/`).set(who.auth).expect(200)).body;
  const put = (id: string, body: Json, who = a) =>
    http().put(`${API}${encodeURIComponent(id)}/`).set(who.auth).send(body);
  /** A pass of the checks loop at the clock's time, then the checks' answers. */
  async function pass(id: string, who = a): Promise<Json> {
    await checks.runDue();
    return waitUntil(`coverage of ${id}`, async () => {
      const body = await get(id, who);
      return ['checking', 'not_checked'].includes(body.coverage.state) ? undefined : body;
    });
  }
  const checksOf = async (accountId: string) =>
    Number(
      (
        await db.query(
          `SELECT count(*) AS n FROM eligibility_requests WHERE account_id = $1 AND origin = 'appointment'`,
          [accountId],
        )
      )[0].n,
    );
  /** 15:00 UTC, `days` days from the clock's today. */
  const dayAt15 = (days: number) => {
    const d = new Date(now);
    return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() + days, 15));
  };

  it('a visit the day after tomorrow: checked at once, again 24 hours before, not again while fresh; active with the four benefits on its date', async () => {
    const startsAt = dayAt15(2);
    const body = { starts_at: startsAt.toISOString(), status: 'booked', patient: someone(), insurer_code: DEMO };
    await put('day-after', body).expect(201);
    const booked = await pass('day-after');
    const first = booked.coverage.request_uid;
    expect(first).toEqual(expect.any(String));
    // Answered now, fresh for 24 hours: older than that when the visit starts.
    expect(booked.coverage.state).toBe('stale');
    expect(await checksOf(a.accountId)).toBe(1);
    // The check is an ordinary request of the account.
    expect((await waitForResult(t.app, a.auth, first)).status).toBe('complete');

    now = new Date(startsAt.getTime() - 24 * HOUR + 60_000);
    const dayBefore = await pass('day-after');
    expect(dayBefore.coverage.request_uid).not.toBe(first);
    expect(dayBefore.coverage).toMatchObject({ state: 'active', changes: [] });
    const visitDate = startsAt.toISOString().slice(0, 10);
    for (const name of ['exam', 'frames', 'spectacle_lenses', 'contact_lenses']) {
      const benefit = dayBefore.coverage.benefits[name];
      expect(Object.keys(benefit).sort()).toEqual([
        'allowance',
        'available',
        'copayment',
        'next_eligible_date',
      ]);
      expect(benefit.available).toBe(true);
      for (const money of [benefit.copayment, benefit.allowance])
        expect(money === null || /^\d+\.\d{4}$/.test(money)).toBe(true);
      if (benefit.next_eligible_date) expect(benefit.next_eligible_date <= visitDate).toBe(true);
    }
    expect(dayBefore.coverage.next_check_at).toBe(
      new Date(startsAt.getTime() - 12 * HOUR).toISOString().replace('Z', '+00:00'),
    );

    // 12 hours before: the answer of 12 hours ago is fresh (24 hours): it is used, no new check.
    now = new Date(startsAt.getTime() - 12 * HOUR + 60_000);
    await checks.runDue();
    const twelve = await get('day-after');
    expect(twelve.coverage.request_uid).toBe(dayBefore.coverage.request_uid);
    expect(twelve.coverage.next_check_at).toBeNull();
    expect(await checksOf(a.accountId)).toBe(2);
    // Once past, never again.
    now = new Date(startsAt.getTime() + HOUR);
    await http().post(`${API}day-after/check/`).set(a.auth).expect(400);
    now = new Date();
  });
});
