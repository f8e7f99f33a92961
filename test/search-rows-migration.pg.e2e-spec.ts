import { DataSource } from 'typeorm';
import { SearchRowsWithoutAccountLocks1795530000000 } from '@/platform/db/migrations/1795530000000-SearchRowsWithoutAccountLocks';
import { PlansStoredOnce1795540000000 } from '@/platform/db/migrations/1795540000000-PlansStoredOnce';
import { createTestApp, TestApp } from './support/app';
import { patient, startSearch, waitForResult } from './support/eligibility';
import { createAccount } from './support/factories';

const CHILDREN = ['eligibility_results', 'eligibility_persons', 'insurer_exchanges'];

/**
 * Issue 34: a search's rows under its request no longer carry a foreign key to the account
 * (each insert locked the account's row); an account's deletion still takes every one of them,
 * through the request's own key and the cascades.
 */
describe('migration: search rows without account locks', () => {
  let t: TestApp;
  let db: DataSource;

  beforeAll(async () => {
    t = await createTestApp();
    db = t.app.get(DataSource);
  });
  afterAll(() => t.close());

  const accountKeys = async (): Promise<string[]> =>
    (
      await db.query(
        `SELECT conrelid::regclass::text AS t FROM pg_constraint
         WHERE contype = 'f' AND confrelid = 'accounts'::regclass
           AND conrelid::regclass::text = ANY($1) ORDER BY 1`,
        [CHILDREN],
      )
    ).map((r: { t: string }) => r.t);

  const rowsOf = async (accountId: string): Promise<number[]> => {
    const counts: number[] = [];
    for (const table of ['eligibility_requests', ...CHILDREN]) {
      const [row] = await db.query(
        `SELECT count(*)::int AS n FROM ${table} WHERE account_id = $1`,
        [accountId],
      );
      counts.push(row.n);
    }
    return counts;
  };

  it('drops the children’s account keys, keeps the cascade, and down puts the keys back', async () => {
    expect(await accountKeys()).toEqual([]);
    const a = await createAccount(t.app);
    const uid = await startSearch(t.app, a.auth, { patient: patient() });
    expect((await waitForResult(t.app, a.auth, uid)).status).toBe('complete');
    const before = await rowsOf(a.accountId);
    expect(before.every((n) => n > 0)).toBe(true);

    await db.query(`DELETE FROM accounts WHERE id = $1`, [a.accountId]);
    expect(await rowsOf(a.accountId)).toEqual([0, 0, 0, 0]);

    const runner = db.createQueryRunner();
    try {
      await new SearchRowsWithoutAccountLocks1795530000000().down(runner);
      expect(await accountKeys()).toEqual(CHILDREN.slice().sort());
      await new SearchRowsWithoutAccountLocks1795530000000().up(runner);
      expect(await accountKeys()).toEqual([]);
    } finally {
      await runner.release();
    }
  });

  it('plans stored once: the rollback refuses while a person keeps their plan in the body only', async () => {
    const a = await createAccount(t.app);
    const uid = await startSearch(t.app, a.auth, { patient: patient() });
    expect((await waitForResult(t.app, a.auth, uid)).status).toBe('complete');
    const runner = db.createQueryRunner();
    try {
      await expect(new PlansStoredOnce1795540000000().down(runner)).rejects.toThrow(
        /keep their plan in their request's body only/,
      );
      const [{ n }] = await db.query(
        `SELECT count(*)::int AS n FROM pg_constraint WHERE conname = 'eligibility_persons_plan_token_key'`,
      );
      expect(n).toBe(0);
    } finally {
      await runner.release();
    }
  });
});
