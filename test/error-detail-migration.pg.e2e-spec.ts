import { DataSource } from 'typeorm';
import { ErrorDetailInStoredBodies1795490000000 } from '@/platform/db/migrations/1795490000000-ErrorDetailInStoredBodies';
import { ERROR_DETAILS } from '@/modules/eligibility/domain/error-details';
import { createTestApp, TestApp } from './support/app';
import { patient, startSearch, waitForResult } from './support/eligibility';
import { createAccount, TestAccount } from './support/factories';
import request from 'supertest';

/**
 * Bodies stored before docs/api.md, Errors lack `error_detail`; the migration gives each stored head
 * the key, as the renderer writes it today, and touches nothing else.
 */
describe('migration: error_detail in stored eligibility bodies', () => {
  let t: TestApp;
  let a: TestAccount;
  let db: DataSource;

  beforeAll(async () => {
    t = await createTestApp();
    a = await createAccount(t.app);
    db = t.app.get(DataSource);
  });
  afterAll(() => t.close());

  async function stored(uid: string): Promise<{ v1: string; v2: string }> {
    const [row] = await db.query(
      `SELECT body_v1 AS v1, body_v2 AS v2 FROM eligibility_requests WHERE uid = $1`,
      [uid],
    );
    return row;
  }

  it('adds error_detail to old complete and error bodies, byte for byte as rendered today, and down takes it out again', async () => {
    const complete = await startSearch(t.app, a.auth, { patient: patient() });
    // No clearinghouse here: Spectera has no path and fails (VSP would wait for a person).
    const failed = await startSearch(t.app, a.auth, {
      insurer_code: 'insurer:vision:spectera',
      patient: patient(),
    });
    await waitForResult(t.app, a.auth, complete);
    const error = await waitForResult(t.app, a.auth, failed);
    expect(error.status).toBe('error');
    // The bodies this migration met had no `origin` yet (docs/api.md, Appointments added it later,
    // after `request_uid`): stored as they were then.
    for (const column of ['body_v1', 'body_v2'])
      await db.query(
        `UPDATE eligibility_requests SET ${column} = regexp_replace(${column}, $2, $3)
         WHERE uid = ANY($1)`,
        [[complete, failed], String.raw`^(\{"request_uid":"[^"]*"),"origin":null`, String.raw`\1`],
      );
    const today = { complete: await stored(complete), failed: await stored(failed) };
    expect(today.failed.v1).toContain('"error_code":"insurer_problem","error_detail":"');
    // A body stored before the key existed says nothing of why it failed: the migration gives it
    // the error code's own words (today a search says more, such as "not connected").
    const detail = (body: string) => JSON.stringify(JSON.parse(body).error_detail);
    const coded = JSON.stringify(ERROR_DETAILS.insurer_problem);
    const migrated = {
      v1: today.failed.v1.replace(detail(today.failed.v1), coded),
      v2: today.failed.v2.replace(detail(today.failed.v2), coded),
    };

    // As stored before §21: the key taken out of the head.
    const migration = new ErrorDetailInStoredBodies1795490000000();
    const runner = db.createQueryRunner();
    try {
      await migration.down(runner);
      const old = { complete: await stored(complete), failed: await stored(failed) };
      for (const body of [old.complete.v1, old.complete.v2, old.failed.v1, old.failed.v2])
        expect(body).not.toContain('error_detail');
      expect(old.complete.v2.length).toBe(today.complete.v2.length - ',"error_detail":null'.length);

      await migration.up(runner);
      expect(await stored(complete)).toEqual(today.complete);
      expect(await stored(failed)).toEqual(migrated);
      // Twice is harmless: a body that has the key does not match.
      await migration.up(runner);
      expect(await stored(failed)).toEqual(migrated);
    } finally {
      await runner.release();
    }
    const res = await request(t.app.getHttpServer())
      .get(`/api/auth/v1/eligibility/${failed}/`)
      .set(a.auth);
    expect(res.body.error_detail).toMatch(/^The insurer could not be asked/);
  });
});
