import request from 'supertest';
import { DataSource } from 'typeorm';
import { Clock } from '@/platform/kernel/clock';
import { AppointmentChecksLoop } from '@/modules/appointments/jobs/appointment-checks.loop';
import { PatientsService } from '@/modules/patients';
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
  /** The checks loop: a pass here also waits for the one a write started (a booking's). */
  let checks: { runDue: () => Promise<void> };
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
    const loop = t.app.get(AppointmentChecksLoop);
    checks = { runDue: () => loop.tick() };
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
    (
      await http()
        .get(`${API}${encodeURIComponent(id)}/`)
        .set(who.auth)
        .expect(200)
    ).body;
  const put = (id: string, body: Json, who = a) =>
    http()
      .put(`${API}${encodeURIComponent(id)}/`)
      .set(who.auth)
      .send(body);
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

  it('a visit three days away: checked at once, again 24 hours before, not again while fresh; active with the four benefits on its date', async () => {
    // Three days, not two: 24 hours before a visit two days away at 15:00 is less than 24 hours
    // after a booking made after 15:00 UTC, whose answer is then still fresh (no second check).
    const startsAt = dayAt15(3);
    const body = {
      starts_at: startsAt.toISOString(),
      status: 'booked',
      patient: someone(),
      insurer_code: DEMO,
    };
    await put('day-after', body).expect(201);
    const booked = await pass('day-after');
    const first = booked.coverage.request_uid;
    expect(first).toEqual(expect.any(String));
    // Answered now, fresh for 24 hours: older than that when the visit starts. The state is
    // still the check's outcome; `stale` says its age.
    expect(booked.coverage).toMatchObject({ state: 'active', stale: true });
    expect(await checksOf(a.accountId)).toBe(1);
    // The check is an ordinary request of the account.
    expect((await waitForResult(t.app, a.auth, first)).status).toBe('complete');

    now = new Date(startsAt.getTime() - 24 * HOUR + 60_000);
    const dayBefore = await pass('day-after');
    expect(dayBefore.coverage.request_uid).not.toBe(first);
    expect(dayBefore.coverage).toMatchObject({ state: 'active', stale: false, changes: [] });
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

  it('flip_inactive checked twice: appointment.coverage_changed names the state; every answer is appointment.checked', async () => {
    // 20 hours ahead: an answer now is still fresh (24 hours) when the visit starts.
    const startsAt = new Date(now.getTime() + 20 * HOUR);
    await put('flip', {
      starts_at: startsAt.toISOString(),
      status: 'booked',
      patient: someone({ first_name: 'flip_inactive' }),
      insurer_code: DEMO,
    }).expect(201);
    const first = await pass('flip');
    expect(first.coverage.benefits.frames.available).toBe(true);
    const asked = await http().post(`${API}flip/check/`).set(a.auth).expect(202);
    expect(asked.body.coverage.state).toBe('checking');
    const second = await waitUntil('second answer', async () => {
      const body = await get('flip');
      return body.coverage.request_uid !== first.coverage.request_uid &&
        body.coverage.state !== 'checking'
        ? body
        : undefined;
    });
    expect(second.coverage.state).toBe('inactive');
    expect(second.coverage.changes).toContainEqual({
      field: 'state',
      before: 'active',
      after: 'inactive',
    });
    expect(second.coverage.changes).toContainEqual({
      field: 'benefits.frames.available',
      before: true,
      after: false,
    });
    const flips = await waitUntil(
      'the deliveries of flip',
      () => {
        const mine = receiver.received
          .filter((d) => d.path === '/a')
          .map((d) => ({
            event: d.headers['x-event-type'],
            body: JSON.parse(d.raw.toString('utf8')),
          }))
          .filter((d) => d.body.external_id === 'flip');
        return mine.length >= 3 ? mine : undefined;
      },
      30_000,
    );
    expect(flips.map((d) => d.event).sort()).toEqual([
      'appointment.checked',
      'appointment.checked',
      'appointment.coverage_changed',
    ]);
    const changed = flips.find((d) => d.event === 'appointment.coverage_changed')!;
    expect(changed.body).toEqual(second);
  });

  it('flip_inactive three days ahead: the second check says inactive (stale beside it), as its changes do', async () => {
    // Three days ahead, fresh for 24 hours: each answer is stale at the visit.
    await put('flip-far', {
      starts_at: dayAt15(3).toISOString(),
      status: 'booked',
      patient: someone({ first_name: 'flip_inactive' }),
      insurer_code: DEMO,
    }).expect(201);
    const first = await pass('flip-far');
    expect(first.coverage).toMatchObject({ state: 'active', stale: true });
    await http().post(`${API}flip-far/check/`).set(a.auth).expect(202);
    const second = await waitUntil('second answer', async () => {
      const body = await get('flip-far');
      return body.coverage.request_uid !== first.coverage.request_uid &&
        body.coverage.state !== 'checking'
        ? body
        : undefined;
    });
    expect(second.coverage).toMatchObject({ state: 'inactive', stale: true });
    expect(second.coverage.changes).toContainEqual({
      field: 'state',
      before: 'active',
      after: 'inactive',
    });
    // The worklist's `coverage_state=stale` selects `stale: true`, whatever the state.
    const list = async (state: string) =>
      (
        await http().get(`${API}?coverage_state=${state}&limit=200`).set(a.auth).expect(200)
      ).body.result.map((r: Json) => r.external_id);
    expect(await list('stale')).toContain('flip-far');
    expect(await list('inactive')).toContain('flip-far');
    expect(await list('active')).not.toContain('flip-far');
  });

  it("answers the check's eligibility request with origin appointment (V1 and V2), a client's own with null", async () => {
    await put('origin', {
      starts_at: dayAt15(2).toISOString(),
      status: 'booked',
      patient: someone(),
      insurer_code: DEMO,
    }).expect(201);
    const checked = await pass('origin');
    const uid = checked.coverage.request_uid;
    for (const version of ['v1', 'v2'] as const) {
      const body = await waitForResult(t.app, a.auth, uid, version);
      expect(Object.keys(body).slice(0, 2)).toEqual(['request_uid', 'origin']);
      expect(body.origin).toBe('appointment');
    }
    const own = await startSearch(t.app, a.auth, { patient: patient({ last_name: 'Own' }) });
    const processing = await http().get(`/api/auth/v2/eligibility/${own}/`).set(a.auth).expect(200);
    expect(processing.body.origin).toBeNull();
    expect((await waitForResult(t.app, a.auth, own, 'v1')).origin).toBeNull();
  });

  it("records every automatic check in the audit trail as the system's; a check now as its asker's", async () => {
    await put('audited', {
      starts_at: dayAt15(4).toISOString(),
      status: 'booked',
      patient: someone(),
      insurer_code: DEMO,
    }).expect(201);
    const booked = await pass('audited');
    const trail = async (uid: string) =>
      (
        await http().get(`/api/auth/v1/audit-events/?resource_id=${uid}`).set(a.auth).expect(200)
      ).body.result.map((e: Json) => ({
        actor_type: e.actor_type,
        actor: e.actor,
        action: e.action,
        resource_type: e.resource_type,
      }));
    await waitUntil('the system event', async () =>
      (await trail(booked.coverage.request_uid)).length > 0 ? true : undefined,
    );
    expect(await trail(booked.coverage.request_uid)).toContainEqual({
      actor_type: 'system',
      actor: 'appointment-checks',
      action: 'create',
      resource_type: 'eligibility_request',
    });
    await http().post(`${API}audited/check/`).set(a.auth).expect(202);
    const asked = await waitUntil('the asked check', async () => {
      const body = await get('audited');
      return body.coverage.request_uid !== booked.coverage.request_uid ? body : undefined;
    });
    const events = await db.query(
      `SELECT actor_type FROM audit_events WHERE account_id = $1 AND resource_id = $2`,
      [a.accountId, asked.coverage.request_uid],
    );
    expect(events.filter((e: Json) => e.actor_type === 'system')).toEqual([]);
  });

  it('a reschedule moves the pending checks; cancelled or noshow drops them', async () => {
    const body = (days: number, status = 'booked') => ({
      starts_at: dayAt15(days).toISOString(),
      status,
      patient: someone({ last_name: 'Moved' }),
      insurer_code: DEMO,
    });
    await put('moved', body(5)).expect(201);
    const booked = await pass('moved');
    const stamp = (d: Date) => d.toISOString().replace('Z', '+00:00');
    expect(booked.coverage.next_check_at).toBe(stamp(new Date(dayAt15(5).getTime() - 24 * HOUR)));
    await put('moved', body(7)).expect(200);
    await checks.runDue();
    const moved = await get('moved');
    expect(moved.coverage.next_check_at).toBe(stamp(new Date(dayAt15(7).getTime() - 24 * HOUR)));
    // The answer on the new date, not a new check (it is fresh).
    expect(moved.coverage.request_uid).toBe(booked.coverage.request_uid);
    await put('moved', body(7, 'noshow')).expect(200);
    expect((await get('moved')).coverage.next_check_at).toBeNull();
    await put('moved', body(7)).expect(200);
    await checks.runDue();
    expect((await get('moved')).coverage.next_check_at).not.toBeNull();
    await http().delete(`${API}moved/`).set(a.auth).expect(200);
    expect((await get('moved')).coverage.next_check_at).toBeNull();
    now = new Date(dayAt15(7).getTime() - 24 * HOUR + 60_000);
    const before = await checksOf(a.accountId);
    await checks.runDue();
    expect(await checksOf(a.accountId)).toBe(before);
    now = new Date();
  });

  it("VSP: the person's task is due an hour before the visit at the latest; the answer grows when they answer", async () => {
    const startsAt = new Date(now.getTime() + 3 * HOUR);
    await put('vsp', {
      starts_at: startsAt.toISOString(),
      status: 'booked',
      patient: someone({ last_name: 'Assisted' }),
      insurer_code: VSP,
    }).expect(201);
    const waiting = await pass('vsp');
    expect(waiting.coverage.state).toBe('waiting_for_person');
    const answer = await waitForResult(t.app, a.auth, waiting.coverage.request_uid);
    const due = new Date(answer.insurers[0].verification.due_by).getTime();
    expect(due).toBeLessThanOrEqual(startsAt.getTime() - HOUR);
    const plans = (
      await waitForResult(t.app, a.auth, await startSearch(t.app, a.auth, { patient: patient() }))
    ).results.map((p: Json) => ({ ...p, insurer_code: VSP }));
    await http()
      .post(`${TASKS}${answer.insurers[0].verification.task_id}/complete/`)
      .set(a.auth)
      .send({ plans, evidence: { source: 'portal', checked_at: '2026-11-24T15:04:00Z' } })
      .expect(200);
    const grown = await get('vsp');
    expect(grown.coverage.state).toBe('active');
    expect(grown.coverage.changes).toContainEqual({
      field: 'state',
      before: 'waiting_for_person',
      after: 'active',
    });
  });

  it("tenant isolation: another account's answer is never reused, its appointment never checked or read", async () => {
    const startsAt = dayAt15(4);
    const same = {
      starts_at: startsAt.toISOString(),
      status: 'booked',
      patient: patient({ last_name: 'Shared' }),
      insurer_code: DEMO,
    };
    await put('shared', same).expect(201);
    const mine = await pass('shared');
    await put('shared', same, b).expect(201);
    const theirs = await pass('shared', b);
    expect(theirs.coverage.request_uid).not.toBe(mine.coverage.request_uid);
    expect(await checksOf(b.accountId)).toBe(1);
    // A second visit of the same patient in account a reuses a's fresh answer instead.
    await put('shared-2', { ...same, starts_at: dayAt15(4.5).toISOString() }).expect(201);
    const again = await pass('shared-2');
    expect(again.coverage.request_uid).toBe(mine.coverage.request_uid);
    await http().post(`${API}vsp/check/`).set(b.auth).expect(404);
  });

  it('an appointment whose patient cannot be read holds back no other: it is looked at again an hour later', async () => {
    const code = (
      await http()
        .post('/api/auth/v1/patients/')
        .set(a.auth)
        .send({ first_name: 'Record', last_name: 'Holder', dob: '1979-03-04' })
        .expect(200)
    ).body.code;
    const startsAt = dayAt15(3);
    const patients = t.app.get(PatientsService);
    const unreadable = jest
      .spyOn(patients, 'findByCode')
      .mockRejectedValue(new Error('patient record unreadable'));
    try {
      await put('by-record', {
        starts_at: startsAt.toISOString(),
        status: 'booked',
        patient_code: code,
        insurer_code: DEMO,
      }).expect(201);
      await put('by-body', {
        starts_at: startsAt.toISOString(),
        status: 'booked',
        patient: someone(),
        insurer_code: DEMO,
      }).expect(201);
      await pass('by-body');
      const held = await get('by-record');
      expect(held.coverage.state).toBe('not_checked');
      expect(held.coverage.next_check_at).toBe(
        new Date(now.getTime() + HOUR).toISOString().replace('Z', '+00:00'),
      );
    } finally {
      unreadable.mockRestore();
    }
    now = new Date(now.getTime() + HOUR + 60_000);
    const checked = await pass('by-record');
    expect(checked.coverage.request_uid).toEqual(expect.any(String));
    now = new Date();
  });
});
