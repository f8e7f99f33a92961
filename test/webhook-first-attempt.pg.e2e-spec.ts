import { createHmac } from 'node:crypto';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { WebhookOutbox } from '@/modules/webhooks/domain/webhook-outbox';
import { DeliveryQueue } from '@/modules/webhooks/jobs/delivery.queue';
import { createTestApp, TestApp } from './support/app';
import { patient, startSearch, waitForResult } from './support/eligibility';
import { createAccount, TestAccount } from './support/factories';
import { waitUntil } from './support/queues';
import { TestReceiver } from './support/receiver';

interface DeliveryRow {
  id: string;
  status: string;
  attempt_count: number;
  lease_job: string | null;
  attempts: string;
}

/**
 * The first attempt of an eligibility delivery is made by the process that finished the search,
 * right after the commit, without a delivery job; retries and lost first attempts go through the
 * delivery queue.
 */
describe('first webhook attempts', () => {
  let t: TestApp;
  let a: TestAccount;
  let db: DataSource;
  let queue: DeliveryQueue;
  const receiver = new TestReceiver();
  const http = () => request(t.app.getHttpServer());

  beforeAll(async () => {
    await receiver.start();
    t = await createTestApp({ env: { WEBHOOK_RETRY_SCHEDULE: '0.2,0.2' } });
    a = await createAccount(t.app);
    db = t.app.get(DataSource);
    queue = t.app.get(DeliveryQueue);
  });
  afterAll(async () => {
    await t.close();
    await receiver.stop();
  });
  afterEach(async () => {
    jest.restoreAllMocks();
    // A failed test must not leave a webhook that the next test's searches deliver to.
    await db.query('DELETE FROM webhooks WHERE account_id = $1', [a.accountId]);
  });

  const deliveryOf = async (uid: string): Promise<DeliveryRow> => {
    const [row]: DeliveryRow[] = await db.query(
      `SELECT d.id, d.status, d.attempt_count, d.lease_job,
              (SELECT count(*) FROM webhook_attempts x WHERE x.delivery_id = d.id) AS attempts
       FROM webhook_deliveries d WHERE d.request_uid = $1`,
      [uid],
    );
    return row;
  };
  const settled = async (uid: string, status: string): Promise<DeliveryRow> => {
    for (let i = 0; i < 200; i++) {
      const row = await deliveryOf(uid);
      if (row?.status === status) return row;
      await new Promise((r) => setTimeout(r, 25));
    }
    throw new Error(`delivery of ${uid} never became ${status}`);
  };

  it('is made without a delivery job, signed, and recorded as attempt 1', async () => {
    const hook = await http()
      .post('/api/auth/v1/webhooks/')
      .set(a.auth)
      .send({ url: receiver.url('/first'), secret: 'first-attempt-secret' });
    expect(hook.status).toBe(201);
    const enqueued = jest.spyOn(queue, 'enqueue');
    const uid = await startSearch(t.app, a.auth, { patient: patient() });
    const [got] = await receiver.waitFor('/first', 1);
    expect(got.headers['x-signature']).toBe(
      createHmac('sha256', 'first-attempt-secret').update(got.raw).digest('hex'),
    );
    expect(JSON.parse(got.raw.toString()).request_uid).toBe(uid);
    const row = await settled(uid, 'succeeded');
    expect(row).toMatchObject({ attempt_count: 1, lease_job: null, attempts: '1' });
    expect(enqueued).not.toHaveBeenCalled();
  });

  it('is retried through the delivery queue when it fails', async () => {
    await http()
      .post('/api/auth/v1/webhooks/')
      .set(a.auth)
      .send({ url: receiver.url('/retry') })
      .expect(201);
    receiver.replies.push(500);
    const enqueued = jest.spyOn(queue, 'enqueue');
    const uid = await startSearch(t.app, a.auth, { patient: patient() });
    await receiver.waitFor('/retry', 2);
    const row = await settled(uid, 'succeeded');
    expect(row).toMatchObject({ attempt_count: 2, attempts: '2' });
    expect(enqueued).toHaveBeenCalledWith(row.id, 200, 'a2');
  });

  it('left unmade (the process died after the commit) is the sweeper’s once its lease is over', async () => {
    await http()
      .post('/api/auth/v1/webhooks/')
      .set(a.auth)
      .send({ url: receiver.url('/lost') })
      .expect(201);
    // The finishing statement records the delivery; the process "dies" before its first attempt.
    const deliver = jest.spyOn(t.app.get(WebhookOutbox), 'deliver').mockResolvedValue(undefined);
    const uid = await startSearch(t.app, a.auth, { patient: patient() });
    const body = await waitForResult(t.app, a.auth, uid);
    expect(deliver).toHaveBeenCalledTimes(1);
    deliver.mockRestore();
    const recorded = await deliveryOf(uid);
    expect(recorded).toMatchObject({ status: 'pending', attempt_count: 1, attempts: '0' });
    expect(recorded.lease_job).toMatch(/^first:/);
    // Still leased: the sweeper leaves it alone.
    expect(await queue.requeueOverdue(30)).toBe(0);
    await db.query(
      `UPDATE webhook_deliveries SET next_attempt_at = now() - interval '1 minute' WHERE id = $1`,
      [recorded.id],
    );
    expect(await queue.requeueOverdue(30)).toBe(1);
    const [got] = await receiver.waitFor('/lost', 1);
    expect(JSON.parse(got.raw.toString())).toEqual(body);
    expect(await settled(uid, 'succeeded')).toMatchObject({ attempts: '1' });
  });
});

/**
 * First attempts take the permits of the delivery queue's lane, the ones its worker's runs take:
 * with a slow receiver, first attempts and queued retries together never make more than
 * SEARCH_CONCURRENCY requests at once.
 */
describe('first webhook attempts and retries share the delivery permits', () => {
  let t: TestApp;
  let a: TestAccount;
  const receiver = new TestReceiver();

  beforeAll(async () => {
    await receiver.start();
    t = await createTestApp({
      env: { SEARCH_CONCURRENCY: '2', WEBHOOK_RETRY_SCHEDULE: '0.1,0.1' },
    });
    a = await createAccount(t.app);
  });
  afterAll(async () => {
    await t.close();
    await receiver.stop();
  });

  it('makes at most SEARCH_CONCURRENCY webhook requests at once', async () => {
    await request(t.app.getHttpServer())
      .post('/api/auth/v1/webhooks/')
      .set(a.auth)
      .send({ url: receiver.url('/slow') })
      .expect(201);
    const searches = 6;
    receiver.delayMs = 300;
    // Every first attempt fails: its retry (due 100 ms later, a delivery job) runs while the
    // later first attempts still wait for a permit.
    receiver.replies = Array.from({ length: searches }, () => 500);
    const enqueued = jest.spyOn(t.app.get(DeliveryQueue), 'enqueue');
    const uids = await Promise.all(
      Array.from({ length: searches }, () => startSearch(t.app, a.auth, { patient: patient() })),
    );
    await receiver.waitFor('/slow', 2 * searches, 30_000);
    const db = t.app.get(DataSource);
    await waitUntil('every delivery ended', async () => {
      const [{ ended }] = await db.query(
        `SELECT count(*)::int AS ended FROM webhook_deliveries
         WHERE request_uid = ANY($1) AND status <> 'pending'`,
        [uids],
      );
      return ended === searches ? true : undefined;
    });
    // Retries went through the delivery queue, and requests overlapped up to the permits.
    expect(enqueued.mock.calls.some(([, , tag]) => tag === 'a2')).toBe(true);
    expect(receiver.maxOpen).toBe(2);
  });
});
