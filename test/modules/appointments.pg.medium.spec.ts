import { ClaimedServices } from '@/modules/patients';
import { AppointmentsModule } from '@/modules/appointments';
import { AppointmentsService } from '@/modules/appointments/domain/appointments.service';
import { createPractice } from '../support/factories';
import { bootModule, ModuleContext } from '../support/module';

/** A booking for Maria at VSP on 24 November 2026, 15:00 in Austin. */
const visit = (over: Record<string, unknown> = {}) => ({
  starts_at: '2026-11-24T15:00:00-06:00',
  status: 'booked',
  services: ['exam.routine'],
  patient: { first_name: 'Maria', last_name: 'Garcia', dob: '1984-06-15', zipcode: '78701' },
  insurer_code: 'insurer:vision:vsp',
  source_updated_at: '2026-11-20T09:00:00Z',
  ...over,
});

/**
 * The appointments module booted alone (test/support/module.ts), without its Schedule page
 * (AppointmentsPagesModule): appointments stored, read and cancelled against the real database.
 * Claims, which answer the claimed services of a patient's history, are not booted.
 */
describe('appointments module, alone', () => {
  let t: ModuleContext;
  let appointments: AppointmentsService;
  let accountId: string;
  let actor: { kind: 'user'; id: string };

  beforeAll(async () => {
    t = await bootModule(AppointmentsModule, { openHooks: [ClaimedServices] });
    appointments = t.ctx.get(AppointmentsService);
    const practice = await createPractice(t.ctx);
    accountId = practice.accountId;
    actor = { kind: 'user', id: practice.userId };
  });
  afterAll(() => t.close());

  it('boots with patients and eligibility (and what they import), without the web shell', () => {
    expect(t.booted).toEqual([
      'AccountsModule',
      'AppointmentsModule',
      'AuditModule',
      'EligibilityModule',
      'InsurersModule',
      'PatientsModule',
      'RateLimitModule',
      'VerificationModule',
      'WebhooksModule',
    ]);
  });

  it('stores a booking once, reads it back, and cancels it', async () => {
    const first = await appointments.upsert(accountId, 'visit-0001', visit(), actor);
    expect(first.created).toBe(true);
    expect(first.appointment).toMatchObject({
      starts_at: '2026-11-24T21:00:00.000+00:00',
      status: 'booked',
    });
    expect((await appointments.upsert(accountId, 'visit-0001', visit(), actor)).created).toBe(
      false,
    );
    expect(await appointments.get(accountId, 'visit-0001', actor)).toEqual(first.appointment);
    expect((await appointments.cancel(accountId, 'visit-0001', actor)).status).toBe('cancelled');
  });

  it("refuses a time without its offset, and another account's appointment", async () => {
    await expect(
      appointments.upsert(
        accountId,
        'visit-0002',
        visit({ starts_at: '2026-11-24T15:00:00' }),
        actor,
      ),
    ).rejects.toMatchObject({ status: 400, errors: { starts_at: expect.anything() } });
    const other = await createPractice(t.ctx);
    await expect(appointments.get(other.accountId, 'visit-0001', actor)).rejects.toMatchObject({
      status: 404,
    });
    const [{ n }] = await t.db.query(
      'SELECT count(*)::int AS n FROM appointments WHERE account_id = $1',
      [accountId],
    );
    expect(n).toBe(1);
  });
});
