import request from 'supertest';
import { DataSource } from 'typeorm';
import { ClearinghouseReadyClaims1795490200000 } from '@/platform/db/migrations/1795490200000-ClearinghouseReadyClaims';
import { createTestApp, TestApp } from './support/app';
import { createAccount, TestAccount } from './support/factories';

/**
 * the Claims section's (docs/api.md) migration: locations stored before it (a 5-digit ZIP included) get the default
 * taxonomy and no rendering provider; the database refuses a half-given rendering provider or a
 * malformed ZIP; down takes the columns out again, up puts them back.
 */
describe('migration: taxonomy, rendering provider and kept control numbers', () => {
  let t: TestApp;
  let a: TestAccount;
  let db: DataSource;

  beforeAll(async () => {
    t = await createTestApp();
    a = await createAccount(t.app);
    db = t.app.get(DataSource);
  });
  afterAll(() => t.close());

  const columns = async (table: string): Promise<string[]> => {
    const rows = await db.query<{ column_name: string }[]>(
      `SELECT column_name FROM information_schema.columns WHERE table_name = $1`,
      [table],
    );
    return rows.map((c) => c.column_name);
  };

  it('gives old rows the default taxonomy, keeps a 5-digit ZIP, and goes down and up again', async () => {
    const migration = new ClearinghouseReadyClaims1795490200000();
    const runner = db.createQueryRunner();
    try {
      await migration.down(runner);
      expect(await columns('locations')).not.toContain('taxonomy_code');
      expect(await columns('claims')).not.toContain('x12_control_number');
      // A location as stored before §15: a 5-digit ZIP.
      await db.query(
        `UPDATE locations SET address_line1 = '1 Main St', city = 'Austin', state = 'TX', zipcode = '78701' WHERE code = $1`,
        [a.locationCode],
      );
      await migration.up(runner);
    } finally {
      await runner.release();
    }
    const res = await request(t.app.getHttpServer()).get('/api/auth/v1/locations/').set(a.auth);
    const main = res.body.result.find((l: { code: string }) => l.code === a.locationCode);
    expect(main).toMatchObject({
      taxonomy_code: '152W00000X',
      rendering_provider: null,
      address: { zipcode: '78701' },
    });
    await expect(
      db.query(`UPDATE locations SET rendering_npi = '1245319599' WHERE code = $1`, [
        a.locationCode,
      ]),
    ).rejects.toThrow(/locations_rendering_provider_check/);
    await expect(
      db.query(`UPDATE locations SET zipcode = '7870' WHERE code = $1`, [a.locationCode]),
    ).rejects.toThrow(/locations_zipcode_check/);
    await expect(
      db.query(`UPDATE locations SET taxonomy_code = '152w00000x' WHERE code = $1`, [
        a.locationCode,
      ]),
    ).rejects.toThrow(/locations_taxonomy_code_check/);
    expect(await columns('claims')).toEqual(
      expect.arrayContaining([
        'rendering_provider',
        'submission_detail',
        'x12_control_number',
        'x12_created_at',
      ]),
    );
  });
});
