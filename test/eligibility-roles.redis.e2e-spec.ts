import { DataSource } from 'typeorm';
import { QueueWorkers } from '@/platform/jobs/queue-workers';
import { CLAIMS_QUEUE } from '@/modules/claims/jobs/claims.queue';
import { BATCH_QUEUE } from '@/modules/eligibility/jobs/batch-search.queue';
import { SEARCH_QUEUE } from '@/modules/eligibility/jobs/search.queue';
import { MAIL_QUEUE } from '@/modules/mail/jobs/mail.queue';
import { DELIVERY_QUEUE } from '@/modules/webhooks/jobs/delivery.queue';
import { createTestApp, TestApp } from './support/app';
import { patient, startSearch, waitForResult } from './support/eligibility';
import { createAccount } from './support/factories';
import { bullQueue } from './support/queues';

describe('ROLE: api processes add jobs, worker processes run them (docs/configuration.md, ROLE)', () => {
  it('a search accepted by a ROLE=api app waits in the queue until a ROLE=worker app runs it', async () => {
    const api = await createTestApp({ env: { ROLE: 'api' } });
    let worker: TestApp | null = null;
    try {
      // The role comes from the injected config, not from the environment of the process.
      expect(api.config.role).toBe('api');
      expect(api.app.get(QueueWorkers).running()).toEqual([]);
      const a = await createAccount(api.app);
      const uid = await startSearch(api.app, a.auth, { patient: patient() });
      const queue = bullQueue(api.app, SEARCH_QUEUE);
      expect(await queue.getJobCounts()).toMatchObject({ waiting: 1, active: 0 });
      const [row] = await api.app
        .get(DataSource)
        .query('SELECT status, attempts FROM eligibility_requests WHERE uid = $1', [uid]);
      expect(row).toEqual({ status: 'processing', attempts: 0 });

      worker = await createTestApp({ env: { ROLE: 'worker' }, keepState: true });
      expect(worker.app.get(QueueWorkers).running().sort()).toEqual(
        [DELIVERY_QUEUE, SEARCH_QUEUE, BATCH_QUEUE, CLAIMS_QUEUE, MAIL_QUEUE].sort(),
      );
      const body = await waitForResult(api.app, a.auth, uid);
      expect(body.status).toBe('complete');
      expect(body.results[0].persons[0].first_name).toBe('Maria');
    } finally {
      await worker?.close();
      await api.close();
    }
  });

  it('a ROLE=all app runs every queue', async () => {
    const all = await createTestApp();
    try {
      expect(all.config.role).toBe('all');
      expect(all.app.get(QueueWorkers).running()).toHaveLength(5);
    } finally {
      await all.close();
    }
  });
});
