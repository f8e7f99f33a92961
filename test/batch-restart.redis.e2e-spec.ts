import request from 'supertest';
import { DataSource } from 'typeorm';
import { BATCH_QUEUE } from '@/modules/eligibility/jobs/batch-search.queue';
import { createTestApp, TestApp } from './support/app';
import { DEMO, patient } from './support/eligibility';
import { createAccount } from './support/factories';
import { bullQueue, waitUntil } from './support/queues';

/**
 * docs/api.md, Batches: a batch survives restarts like single requests do. The database is the record of
 * what is due: a batch accepted by an API process whose jobs were lost with Redis is run by a
 * worker started later (the sweeper re-enqueues its overdue items), and the watchdog does not
 * time items that never started.
 */
describe('batches across restarts', () => {
  let api: TestApp | null = null;
  let worker: TestApp | null = null;
  afterAll(async () => {
    await worker?.close();
    await api?.close();
  });

  it('runs a batch whose jobs were lost, from the database, once a worker is back', async () => {
    api = await createTestApp({ env: { ROLE: 'api' } });
    const a = await createAccount(api.app);
    const items = Array.from({ length: 50 }, (_, i) => ({
      insurer_code: DEMO,
      patient: patient({ first_name: `Restart${i}` }),
    }));
    const res = await request(api.app.getHttpServer())
      .post('/api/auth/v1/eligibility/batches/')
      .set(a.auth)
      .send({ items, batch_uid: 'restart' });
    expect(res.status).toBe(201);
    const queue = bullQueue(api.app, BATCH_QUEUE);
    await waitUntil('the jobs to be added', async () =>
      (await queue.getJobCounts()).waiting === 50 ? true : undefined,
    );
    // Redis loses every job; the rows stay due. Their due time is set back past the sweeper's
    // grace (30 s) instead of waiting for it, and their creation past the watchdog's limit (5 s
    // below): items wait in line for longer than that in a big batch.
    await queue.obliterate({ force: true });
    const db = api.app.get(DataSource);
    await db.query(
      `UPDATE eligibility_requests SET job_due_at = now() - interval '1 minute',
         created_at = now() - interval '1 minute' WHERE batch_id IS NOT NULL`,
    );
    await api.close();
    api = null;

    worker = await createTestApp({
      env: { MAINTENANCE_INTERVAL_MS: '200', ELIGIBILITY_WATCHDOG_SECONDS: '5' },
      keepState: true,
    });
    const done = await waitUntil(
      'the batch to complete',
      async () => {
        const r = await request(worker!.app.getHttpServer())
          .get('/api/auth/v1/eligibility/batches/restart/')
          .set(a.auth);
        return r.body.status === 'complete' ? r.body : undefined;
      },
      60_000,
    );
    // Every item ran (none was ended by the watchdog although created long ago in its terms).
    expect(done.counts).toEqual({ processing: 0, complete: 50, error: 0 });
  });
});
