import request from 'supertest';
import { DataSource } from 'typeorm';
import { SEARCH_QUEUE } from '@/modules/eligibility/jobs/search.queue';
import { createTestApp, TestApp } from './support/app';
import { patient, startSearch, waitForResult } from './support/eligibility';
import { createAccount } from './support/factories';
import { bullQueue, waitUntil } from './support/queues';
import { ERROR_DETAILS } from '@/modules/eligibility/domain/error-details';

/** Polls until every uid has left `processing`; returns when each one finished (ms since `since`). */
async function finishTimes(
  t: TestApp,
  auth: { Authorization: string },
  uids: string[],
  since: number,
  timeoutMs: number,
) {
  const done = new Map<string, { at: number; body: any }>();
  const deadline = Date.now() + timeoutMs;
  while (done.size < uids.length) {
    if (Date.now() > deadline)
      throw new Error(`${uids.length - done.size} requests still processing`);
    await Promise.all(
      uids
        .filter((u) => !done.has(u))
        .map(async (uid) => {
          const res = await request(t.app.getHttpServer())
            .get(`/api/auth/v2/eligibility/${uid}/`)
            .set(auth);
          if (res.body.status !== 'processing')
            done.set(uid, { at: Date.now() - since, body: res.body });
        }),
    );
    await new Promise((r) => setTimeout(r, 250));
  }
  return done;
}

describe('search queue', () => {
  it('completes 50 delay_10 searches sent at once 10 s after acceptance, and delay_30 after 30 s, as delayed jobs', async () => {
    const t = await createTestApp();
    try {
      const a = await createAccount(t.app);
      const slow = await startSearch(t.app, a.auth, {
        patient: patient({ first_name: 'delay_30' }),
      });
      const uids = await Promise.all(
        Array.from({ length: 50 }, (_, i) =>
          startSearch(t.app, a.auth, { patient: patient({ first_name: `delay_10 n${i}` }) }),
        ),
      );
      // Every search waits as a delayed job, none holds a worker (a sleeping worker would be active).
      const queue = bullQueue(t.app, SEARCH_QUEUE);
      await waitUntil('51 delayed search jobs', async () =>
        (await queue.getDelayedCount()) === 51 ? true : undefined,
      );
      expect(await queue.getActiveCount()).toBe(0);
      const done = await finishTimes(t, a.auth, [slow, ...uids], Date.now(), 60_000);
      for (const { body } of done.values()) expect(body.status).toBe('complete');
      // How long each took, as the database recorded it (not the test's polling).
      const rows: { uid: string; waited_ms: number }[] = await t.app.get(DataSource).query(
        `SELECT uid, (extract(epoch FROM completed_at - created_at) * 1000)::int AS waited_ms
         FROM eligibility_requests WHERE uid = ANY($1)`,
        [[slow, ...uids]],
      );
      expect(rows).toHaveLength(51);
      for (const row of rows) {
        expect(row.waited_ms).toBeGreaterThanOrEqual(row.uid === slow ? 30_000 : 10_000);
      }
    } finally {
      await t.close();
    }
  }, 90_000);

  it('loses nothing when the application stops mid-search and starts again', async () => {
    const first = await createTestApp();
    const a = await createAccount(first.app);
    const uids = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        startSearch(first.app, a.auth, {
          patient: patient({ first_name: i % 4 === 0 ? `delay_10 r${i}` : `Restart${i}` }),
        }),
      ),
    );
    await first.close(); // graceful stop with searches queued, delayed and running
    const second = await createTestApp({ keepState: true });
    try {
      const done = await finishTimes(second, a.auth, uids, Date.now(), 30_000);
      expect(done.size).toBe(40);
      for (const { body } of done.values()) expect(body.status).toBe('complete');
    } finally {
      await second.close();
    }
  }, 60_000);

  it('re-enqueues a processing request whose job was lost', async () => {
    const t = await createTestApp({ env: { MAINTENANCE_INTERVAL_MS: '200' } });
    try {
      const a = await createAccount(t.app);
      const uid = await startSearch(t.app, a.auth, { patient: patient() });
      await waitForResult(t.app, a.auth, uid);
      // A request stored as processing whose job never reached Redis (as after a Redis restart).
      const db = t.app.get(DataSource);
      await db.query(
        `INSERT INTO eligibility_requests (account_id, uid, kind, location_id, insurer_codes, query, status, job_due_at)
         SELECT account_id, 'orphan-1', 'search', location_id, insurer_codes, query, 'processing', now() - interval '2 minutes'
         FROM eligibility_requests WHERE uid = $1`,
        [uid],
      );
      const orphan = await waitForResult(t.app, a.auth, 'orphan-1', 'v2', 10_000);
      expect(orphan.status).toBe('complete');
      expect(orphan.results[0].persons[0].first_name).toBe('Maria');
    } finally {
      await t.close();
    }
  });

  it('ends a request stuck past the watchdog limit as unexpected_error', async () => {
    const t = await createTestApp({
      env: { ELIGIBILITY_WATCHDOG_SECONDS: '5', MAINTENANCE_INTERVAL_MS: '250' },
    });
    try {
      const a = await createAccount(t.app);
      const uid = await startSearch(t.app, a.auth, {
        patient: patient({ first_name: 'delay_30' }),
      });
      const body = await waitForResult(t.app, a.auth, uid, 'v2', 15_000);
      expect(body).toEqual({
        request_uid: uid,
        origin: null,
        status: 'error',
        error_code: 'unexpected_error',
        error_detail: ERROR_DETAILS.unexpected_error,
        results: null,
        insurers: [
          {
            insurer_code: 'insurer:demo:vision',
            state: 'failed',
            result_ids: [],
            detail: 'Demo Vision (sandbox) did not answer in time.',
            finished_at: expect.any(String),
            verification: null,
          },
        ],
      });
      // The delayed job firing later changes nothing.
      await t.app
        .get(DataSource)
        .query(`UPDATE eligibility_requests SET job_due_at = now() WHERE uid = $1`, [uid]);
      expect(await waitForResult(t.app, a.auth, uid)).toEqual(body);
    } finally {
      await t.close();
    }
  });
});
