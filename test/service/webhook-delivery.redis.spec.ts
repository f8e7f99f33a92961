import { DataSource } from 'typeorm';
import { EligibilityQueryService } from '@/modules/eligibility/read/domain/eligibility-query.service';
import { SearchFinisher } from '@/modules/eligibility/finish/domain/search-finisher';
import { EligibilityService } from '@/modules/eligibility/domain/eligibility.service';
import { WebhooksProcessor } from '@/modules/webhooks/jobs/webhooks.processor';
import { DeliveryQueue } from '@/modules/webhooks/jobs/delivery.queue';
import { type WebhookActor, WebhooksService } from '@/modules/webhooks/domain/webhooks.service';
import { createTestContext, TestContext } from '../support/app';
import { createAccountId } from '../support/factories';
import { patient } from '../support/eligibility';
import { waitUntil } from '../support/queues';
import { TestReceiver } from '../support/receiver';

/**
 * Webhook scheduling against the real database, without HTTP or queue workers: the outbox call
 * in the finishing statement, each attempt run by hand, the retry schedule, and the stops.
 */
describe('webhook deliveries (service level)', () => {
  let t: TestContext;
  let db: DataSource;
  let accountId: string;
  const receiver = new TestReceiver();
  let jobs = 0;

  beforeAll(async () => {
    await receiver.start();
    t = await createTestContext({ env: { WEBHOOK_RETRY_SCHEDULE: '60,120' } });
    db = t.ctx.get(DataSource);
    accountId = await createAccountId(t.ctx);
  });
  // Each test starts without webhooks.
  afterEach(() => db.query('DELETE FROM webhooks WHERE account_id = $1', [accountId]));
  afterAll(async () => {
    await t.close();
    await receiver.stop();
  });

  const webhooks = () => t.ctx.get(WebhooksService);
  /** An operator of the account, as a web user would be: audited, not scope-checked. */
  const operator = (): WebhookActor => ({
    ctx: {
      actor: { accountId, type: 'user', name: 'ops@practice.test', apiKeyId: null, userId: null },
      requestId: null,
      ip: null,
    },
    scopes: null,
  });

  async function addWebhook(
    path: string,
    extra: { version?: 'v1' | 'v2'; isActive?: boolean } = {},
  ) {
    return (await webhooks().create(operator(), { url: receiver.url(path), ...extra })).webhook;
  }

  /** A request finished as an error: the outbox records its deliveries in that transaction. */
  async function finishedRequest(): Promise<{ id: string; uid: string }> {
    const uid = await t.ctx
      .get(EligibilityService)
      .create(accountId, { insurer_code: 'insurer:demo:vision', patient: patient() });
    const [row] = await db.query('SELECT id FROM eligibility_requests WHERE uid = $1', [uid]);
    expect(await t.ctx.get(SearchFinisher).fail(String(row.id), 'unexpected_error', null)).toBe(
      true,
    );
    return { id: String(row.id), uid };
  }

  interface DeliveryRow {
    id: string;
    webhook_id: string;
    status: string;
    attempt_count: number;
    body: string;
    next_attempt_at: Date | null;
    completed_at: Date | null;
  }

  async function deliveriesOf(requestId: string): Promise<DeliveryRow[]> {
    return db.query<DeliveryRow[]>(
      `SELECT id, webhook_id, status, attempt_count, body, next_attempt_at, completed_at
       FROM webhook_deliveries WHERE request_id = $1 ORDER BY webhook_id`,
      [requestId],
    );
  }

  const attempt = (deliveryId: string) =>
    t.ctx.get(WebhooksProcessor).attempt(deliveryId, `test-job-${++jobs}`);
  const makeDue = (deliveryId: string) =>
    db.query('UPDATE webhook_deliveries SET next_attempt_at = now() WHERE id = $1', [deliveryId]);

  it('records one delivery per active webhook, with the body of its version, in the finishing statement', async () => {
    const v2 = await addWebhook('/v2');
    const v1 = await addWebhook('/v1', { version: 'v1' });
    const off = await addWebhook('/off', { isActive: false });
    const { id, uid } = await finishedRequest();
    const rows = await deliveriesOf(id);
    expect(rows.map((r) => r.webhook_id).sort()).toEqual([v1.id, v2.id].sort());
    expect(rows.map((r) => r.webhook_id)).not.toContain(off.id);
    const query = t.ctx.get(EligibilityQueryService);
    expect(rows.find((r) => r.webhook_id === v1.id)!.body).toBe(
      await query.getBody(accountId, uid, 'v1'),
    );
    expect(rows.find((r) => r.webhook_id === v2.id)!.body).toBe(
      await query.getBody(accountId, uid, 'v2'),
    );
    // ROLE=api makes no attempt itself: the first attempts are queued for a worker after the commit.
    const queue = t.ctx.get(DeliveryQueue).queue;
    await waitUntil('the first attempts queued', async () => {
      const queued = (await queue.getJobs(['waiting'])).map((j) => j.data.id);
      return rows.every((r) => queued.includes(r.id)) ? true : undefined;
    });
  });

  it('schedules a failed attempt by WEBHOOK_RETRY_SCHEDULE, refuses an early duplicate job, and fails after the last', async () => {
    await addWebhook('/retry');
    const { id } = await finishedRequest();
    const [delivery] = await deliveriesOf(id);
    receiver.defaultReply = 500;

    await attempt(delivery.id);
    let [row] = await deliveriesOf(id);
    expect(row).toMatchObject({ status: 'pending', attempt_count: 1, completed_at: null });
    const waitS = (row.next_attempt_at!.getTime() - Date.now()) / 1000;
    expect(waitS).toBeGreaterThan(50);
    expect(waitS).toBeLessThanOrEqual(60);
    const delayed = await t.ctx.get(DeliveryQueue).queue.getJobs(['delayed']);
    expect(delayed.map((j) => String(j.id))).toContain(`deliver:${delivery.id}:a2`);

    // Another job for the same delivery before it is due: nothing is sent.
    const before = receiver.forPath('/retry').length;
    await attempt(delivery.id);
    expect(receiver.forPath('/retry')).toHaveLength(before);

    await makeDue(delivery.id);
    await attempt(delivery.id);
    await makeDue(delivery.id);
    await attempt(delivery.id);
    [row] = await deliveriesOf(id);
    expect(row).toMatchObject({ status: 'failed', attempt_count: 3, next_attempt_at: null });
    expect(row.completed_at).not.toBeNull();
    expect(receiver.forPath('/retry')).toHaveLength(3);
  });

  it('a 2xx ends the delivery succeeded with nothing more scheduled', async () => {
    await addWebhook('/ok');
    const { id } = await finishedRequest();
    const [delivery] = await deliveriesOf(id);
    receiver.defaultReply = 204;
    await attempt(delivery.id);
    const [row] = await deliveriesOf(id);
    expect(row).toMatchObject({ status: 'succeeded', attempt_count: 1, next_attempt_at: null });
    const jobsLeft = await t.ctx.get(DeliveryQueue).queue.getJobs(['delayed', 'waiting']);
    expect(jobsLeft.map((j) => String(j.id))).not.toContain(`deliver:${delivery.id}:a2`);
  });

  it('deactivating the webhook ends its pending deliveries; a due job then sends nothing', async () => {
    const hook = await addWebhook('/deactivated');
    const { id } = await finishedRequest();
    const [delivery] = await deliveriesOf(id);
    await webhooks().update(operator(), hook.id, { isActive: false });
    const [row] = await deliveriesOf(id);
    expect(row).toMatchObject({ status: 'failed', attempt_count: 0, next_attempt_at: null });
    await makeDue(delivery.id);
    await attempt(delivery.id);
    expect(receiver.forPath('/deactivated')).toHaveLength(0);
  });

  it('a delivery whose webhook was deactivated behind its back stops at its next attempt', async () => {
    const hook = await addWebhook('/behind');
    const { id } = await finishedRequest();
    const [delivery] = await deliveriesOf(id);
    // As if another process changed the flag without the service (no pending delivery ended).
    await db.query('UPDATE webhooks SET is_active = false WHERE id = $1', [hook.id]);
    await attempt(delivery.id);
    expect(receiver.forPath('/behind')).toHaveLength(0);
    expect((await deliveriesOf(id))[0]).toMatchObject({ status: 'failed' });
  });

  it('deleting the webhook deletes its deliveries; their jobs find nothing and send nothing', async () => {
    const hook = await addWebhook('/deleted');
    const { id } = await finishedRequest();
    const [delivery] = await deliveriesOf(id);
    await webhooks().remove(operator(), hook.id);
    expect(await deliveriesOf(id)).toEqual([]);
    await expect(attempt(delivery.id)).resolves.toBeUndefined();
    expect(receiver.forPath('/deleted')).toHaveLength(0);
  });
});
