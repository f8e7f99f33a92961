import request from 'supertest';
import { DataSource } from 'typeorm';
import { todayIso } from '@/platform/kernel/time';
import { AppointmentCoverageOutcome1795569100000 } from '@/platform/db/migrations/1795569100000-AppointmentCoverageOutcome';
import { createTestApp, TestApp } from './support/app';
import { createAccount } from './support/factories';

/**
 * docs/api.md, Appointments: `coverage.state` is the last check's outcome and `stale` stands
 * beside it. A row the old code left `stale` takes back the outcome it kept (`answered_state`);
 * down folds them back into `stale`.
 */
describe('migration: appointment coverage keeps its outcome', () => {
  let t: TestApp;
  let db: DataSource;

  beforeAll(async () => {
    t = await createTestApp({ env: { ROLE: 'api' } });
    db = t.app.get(DataSource);
  });
  afterAll(() => t.close());

  it('turns a stale row into its outcome with stale true, and back on down', async () => {
    const a = await createAccount(t.app);
    await request(t.app.getHttpServer())
      .put('/api/auth/v1/appointments/M-1/')
      .set(a.auth)
      .send({
        starts_at: `${todayIso(5)}T15:00:00-06:00`,
        status: 'booked',
        patient: { first_name: 'Maria', last_name: 'Garcia', dob: '1984-06-15', zipcode: '78701' },
        insurer_code: 'insurer:demo:vision',
      })
      .expect(201);
    const row = async () =>
      (
        await db.query(
          `SELECT coverage_state, coverage_stale FROM appointments WHERE account_id = $1`,
          [a.accountId],
        )
      )[0];
    const runner = db.createQueryRunner();
    try {
      await new AppointmentCoverageOutcome1795569100000().down(runner);
      await db.query(
        `UPDATE appointments SET coverage_state = 'stale', coverage = $2 WHERE account_id = $1`,
        [
          a.accountId,
          JSON.stringify({ answered_state: 'inactive', checked_at: '2026-01-01T00:00:00Z' }),
        ],
      );
      await new AppointmentCoverageOutcome1795569100000().up(runner);
      expect(await row()).toEqual({ coverage_state: 'inactive', coverage_stale: true });
      await expect(
        db.query(`UPDATE appointments SET coverage_state = 'stale' WHERE account_id = $1`, [
          a.accountId,
        ]),
      ).rejects.toThrow(/appointments_coverage_state_check/);
      const read = await request(t.app.getHttpServer())
        .get('/api/auth/v1/appointments/M-1/')
        .set(a.auth)
        .expect(200);
      expect(read.body.coverage).toMatchObject({ state: 'inactive', stale: true });
      // The sent offset is kept from now on (rows stored before have none).
      expect(
        (
          await db.query(`SELECT starts_offset FROM appointments WHERE account_id = $1`, [
            a.accountId,
          ])
        )[0],
      ).toEqual({ starts_offset: null });
    } finally {
      await runner.release();
    }
  });
});
