import { Database } from '@/platform/db/database';
import { AppointmentPoliciesRepository } from '@/modules/appointments/store/appointment-policies.repository';
import {
  AppointmentsRepository,
  type StoredValues,
} from '@/modules/appointments/store/appointments.repository';
import { PatientsRepository } from '@/modules/patients/store/patients.repository';
import { createTestContext, TestContext } from '../support/app';
import { createPractice } from '../support/factories';
import { recordSql, SqlRecording } from '../support/sql-recorder';

/** The SQL of the appointments repositories, one snapshot per method, with what each answered. */
describe('appointments repositories', () => {
  let t: TestContext;
  let sql: SqlRecording;
  let appointments: AppointmentsRepository;
  let accountId: string;
  let locationId: string;
  let userId: string;

  const rec = <T>(name: string, call: () => Promise<T>) => sql.snapshot(name, call);
  const values = (id: string, over: Partial<StoredValues> = {}): StoredValues => ({
    external_id: id,
    starts_at: '2026-11-24T15:00:00-06:00',
    ends_at: null,
    status: 'booked',
    location_id: locationId,
    services: ['exam.routine'],
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
    source_updated_at: '2026-11-20T09:00:00Z',
    visit_date: '2026-11-24',
    starts_offset: -360,
    check_key: 'key-of-maria-garcia',
    stored_by_api_key_id: null,
    stored_by_user_id: userId,
    auto_checks: true,
    ...over,
  });

  beforeAll(async () => {
    t = await createTestContext();
    appointments = t.ctx.get(AppointmentsRepository);
    ({ accountId, locationId, userId } = await createPractice(t.ctx));
    sql = recordSql();
  });
  afterAll(async () => {
    sql.stop();
    await t.close();
  });

  it('upserts one appointment: created, unchanged, updated, and an older write ignored', async () => {
    const created = await rec('upsertOne', () => appointments.upsertOne(accountId, values('r-1')));
    expect(created.outcome).toBe('created');
    expect(created.appointment).toMatchObject({
      externalId: 'r-1',
      startsAt: new Date('2026-11-24T21:00:00Z'),
      coverageState: 'not_checked',
      coverage: null,
      nextCheckAt: null,
    });
    const same = await appointments.upsertOne(accountId, values('r-1'));
    expect(same).toEqual({ ...created, outcome: 'unchanged' });
    const changed = await appointments.upsertOne(
      accountId,
      values('r-1', { status: 'arrived', source_updated_at: '2026-11-21T09:00:00Z' }),
    );
    expect(changed.outcome).toBe('updated');
    expect(changed.appointment.updatedAt.getTime()).toBeGreaterThanOrEqual(
      created.appointment.updatedAt.getTime(),
    );
    const older = await appointments.upsertOne(accountId, values('r-1', { status: 'noshow' }));
    expect(older).toEqual({ ...changed, outcome: 'unchanged' });
  });

  it('upserts a chunk, cancels what a window does not list, cancels one', async () => {
    const counts = await rec('upsertChunk', () =>
      appointments.upsertChunk(accountId, [values('r-2'), values('r-3'), values('r-1')]),
    );
    expect(counts).toEqual({ created: 2, updated: 0 });
    const cancelled = await rec('cancelUnlisted', () =>
      t.ctx.get(Database).transaction(async (tx) => {
        await appointments.lockSyncs(accountId, tx);
        return appointments.cancelUnlisted(
          accountId,
          { from: '2026-11-24T00:00:00Z', to: '2026-11-25T00:00:00Z', locationId },
          ['r-2'],
          tx,
        );
      }),
    );
    expect(cancelled).toBe(2);
    const one = await rec('cancelOne', () => appointments.cancelOne(accountId, 'r-2'));
    expect(one?.status).toBe('cancelled');
    expect(await appointments.cancelOne(accountId, 'r-2')).toEqual(one);
    expect(await appointments.cancelOne(accountId, 'nope')).toBeNull();
    expect((await rec('findOne', () => appointments.findOne(accountId, 'r-3')))?.status).toBe(
      'cancelled',
    );
  });

  it('pages the worklist by starts_at', async () => {
    const first = await rec('page', () =>
      appointments.page(
        accountId,
        { from: '2026-11-24T00:00:00Z', to: '2026-11-25T00:00:00Z', coverageState: 'not_checked' },
        { limit: 2 },
      ),
    );
    expect(first.result).toHaveLength(2);
    const rest = await rec('page after a cursor', () =>
      appointments.page(accountId, { locationId }, { limit: 2, cursor: first.next_cursor }),
    );
    expect([...first.result, ...rest.result].map((a) => a.externalId).sort()).toEqual([
      'r-1',
      'r-2',
      'r-3',
    ]);
    expect(rest.next_cursor).toBeNull();
  });

  it('schedules no check for an appointment stored without auto_checks, until one who may stores it', async () => {
    const later = { starts_at: '2099-03-01T15:00:00Z', visit_date: '2099-03-01' };
    const none = await appointments.upsertOne(
      accountId,
      values('r-auto', { ...later, stored_by_user_id: null, auto_checks: false }),
    );
    expect(none.appointment).toMatchObject({ autoChecks: false, nextCheckAt: null });
    // The same body stored by the account's user: checks may run now, and one is due.
    const allowed = await appointments.upsertOne(accountId, values('r-auto', later));
    expect(allowed.outcome).toBe('updated');
    expect(allowed.appointment).toMatchObject({ autoChecks: true, storedByUserId: userId });
    expect(allowed.appointment.nextCheckAt).toEqual(expect.any(Date));
  });

  it('stores and finds a policy', async () => {
    const policies = t.ctx.get(AppointmentPoliciesRepository);
    expect(await rec('policy find', () => policies.find(accountId))).toBeNull();
    const saved = await rec('policy save', () =>
      policies.save(accountId, {
        onBooking: false,
        daysBefore: [1],
        hoursBefore: [2],
        freshnessHours: 3,
        statuses: ['booked'],
      }),
    );
    expect(saved).toMatchObject({
      accountId,
      onBooking: false,
      daysBefore: [1],
      statuses: ['booked'],
    });
    expect(await policies.find(accountId)).toMatchObject({ hoursBefore: [2], freshnessHours: 3 });
  });

  it("knows which codes are the account's patients", async () => {
    const patients = t.ctx.get(PatientsRepository);
    await patients.insert({
      accountId,
      locationId,
      code: 'PATAPPT0001',
      firstName: 'ada',
      lastName: 'lovelace',
      dob: '1985-12-10',
    });
    const { accountId: other } = await createPractice(t.ctx);
    expect(
      await rec('patients existingCodes', () =>
        patients.existingCodes(accountId, ['PATAPPT0001', 'PATNONE0001']),
      ),
    ).toEqual(new Set(['PATAPPT0001']));
    expect(await patients.existingCodes(other, ['PATAPPT0001'])).toEqual(new Set());
  });
});
