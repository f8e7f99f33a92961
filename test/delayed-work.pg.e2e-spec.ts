import { DataSource } from 'typeorm';
import { createTestApp, freePort, type TestApp } from './support/app';
import { patient, startSearch, waitForResult } from './support/eligibility';
import { createAccount } from './support/factories';

/**
 * docs/configuration.md, Database and Redis: on PostgreSQL alone (nothing answers at REDIS_URL), delayed work runs when it is
 * due, not at the next sweep (MAINTENANCE_INTERVAL_MS, 10 s). Times are the database's own
 * (created_at to completed_at), not the test's polling.
 */
async function waited(t: TestApp, uid: string): Promise<number> {
  const [row]: { waited_ms: number }[] = await t.app.get(DataSource).query(
    `SELECT (extract(epoch FROM completed_at - created_at) * 1000)::int AS waited_ms
     FROM eligibility_requests WHERE uid = $1`,
    [uid],
  );
  return row.waited_ms;
}

describe('delayed work on PostgreSQL alone', () => {
  let noRedis: Record<string, string>;
  beforeAll(async () => {
    noRedis = { REDIS_URL: `redis://127.0.0.1:${await freePort()}` };
  });

  it('completes a delay_10 search within 1.5 s of its delay in the process that took it', async () => {
    const t = await createTestApp({ env: noRedis });
    try {
      const a = await createAccount(t.app);
      const uids = await Promise.all(
        [0, 1, 2].map((i) =>
          startSearch(t.app, a.auth, { patient: patient({ first_name: `delay_10 n${i}` }) }),
        ),
      );
      for (const uid of uids) {
        expect((await waitForResult(t.app, a.auth, uid, 'v2', 20_000)).status).toBe('complete');
        const ms = await waited(t, uid);
        expect(ms).toBeGreaterThanOrEqual(10_000);
        expect(ms).toBeLessThan(11_500);
      }
    } finally {
      await t.close();
    }
  }, 40_000);

  it('runs a row an API process stored when it is due, in a worker process (its sweep looks ahead)', async () => {
    const worker = await createTestApp({ env: { ...noRedis, ROLE: 'worker' } });
    const api = await createTestApp({ env: { ...noRedis, ROLE: 'api' }, keepState: true });
    try {
      const a = await createAccount(api.app);
      // The first attempt waits for the worker's sweep (the API process has no lane); the retry
      // it asks for at 30 s is due between two sweeps and must not wait for the next one.
      const uid = await startSearch(api.app, a.auth, {
        patient: patient({ first_name: 'delay_30' }),
      });
      expect((await waitForResult(api.app, a.auth, uid, 'v2', 45_000)).status).toBe('complete');
      const ms = await waited(api, uid);
      expect(ms).toBeGreaterThanOrEqual(30_000);
      expect(ms).toBeLessThan(31_500);
    } finally {
      await api.close();
      await worker.close();
    }
  }, 60_000);
});
