import request from 'supertest';
import { Database } from '@/platform/db/database';
import { WebhookOutbox } from '@/modules/webhooks/domain/webhook-outbox';
import { createTestApp, TestApp } from './support/app';
import { patient, startSearch, waitForResult } from './support/eligibility';
import { createAccount, TestAccount } from './support/factories';
import { TestReceiver } from './support/receiver';
import { MSG } from '@/platform/kernel/messages';
import { WEBHOOK_TOPICS } from '@/modules/webhooks';

/** docs/api.md, Claim lifecycle and Batches: webhooks subscribe to topics; the outbox records claim and batch events too. */
describe('webhook events (topics)', () => {
  let t: TestApp;
  let a: TestAccount;
  let b: TestAccount;
  const receiver = new TestReceiver();
  const http = () => request(t.app.getHttpServer());

  beforeAll(async () => {
    await receiver.start();
    t = await createTestApp({ env: { WEBHOOK_RETRY_SCHEDULE: '0.2,0.2' } });
    a = await createAccount(t.app);
    b = await createAccount(t.app);
  });
  afterAll(async () => {
    await t.close();
    await receiver.stop();
  });

  async function addWebhook(account: TestAccount, body: Record<string, unknown>) {
    const res = await http().post('/api/auth/v1/webhooks/').set(account.auth).send(body);
    expect(res.status).toBe(201);
    return res.body as { id: string; events: string[] };
  }

  it('subscribes to eligibility alone by default, and answers the topics on every read', async () => {
    const hook = await addWebhook(a, { url: receiver.url('/default') });
    expect(hook.events).toEqual(['eligibility']);
    const got = await http().get(`/api/auth/v1/webhooks/${hook.id}/`).set(a.auth);
    expect(got.body.events).toEqual(['eligibility']);
    const changed = await http()
      .patch(`/api/auth/v1/webhooks/${hook.id}/`)
      .set(a.auth)
      .send({ events: ['claim', 'eligibility'] });
    expect(changed.status).toBe(200);
    expect(changed.body.events).toEqual(['claim', 'eligibility']);
  });

  it('takes every documented topic at once', async () => {
    const all = ['eligibility', 'claim', 'batch', 'remittance', 'verification'];
    const hook = await addWebhook(a, { url: receiver.url('/all'), events: all });
    expect(hook.events).toEqual(all);
  });

  it.each([
    [
      { events: ['nope'] },
      {
        events: {
          '0': { $: ['"nope" is not a valid choice.', MSG.allowedChoices(WEBHOOK_TOPICS)] },
        },
      },
    ],
    [{ events: [] }, { events: { $: ['Ensure this field has at least 1 elements.'] } }],
    [{ events: 'claim' }, { events: { $: ['Expected a list of items.'] } }],
    [{ events: null }, { events: { $: ['This field may not be null.'] } }],
    [{ events: ['claim', 'claim'] }, { events: { $: ['Duplicate values are not allowed.'] } }],
  ])('refuses events %j with a field error', async (extra, errors) => {
    const res = await http()
      .post('/api/auth/v1/webhooks/')
      .set(a.auth)
      .send({ url: receiver.url('/bad'), ...extra });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ errors });
  });

  it('delivers eligibility results only to webhooks subscribed to eligibility', async () => {
    const eligibility = await addWebhook(b, { url: receiver.url('/b-eligibility') });
    const claimsOnly = await addWebhook(b, { url: receiver.url('/b-claims'), events: ['claim'] });
    const uid = await startSearch(t.app, b.auth, { patient: patient() });
    await waitForResult(t.app, b.auth, uid);
    const [delivered] = await receiver.waitFor('/b-eligibility', 1);
    expect(delivered.headers['x-event-type']).toBe('eligibility.finished');
    // Both webhooks' deliveries are recorded in the transaction that finished the search, so
    // once one exists the other's absence is final.
    const claimLog = await http()
      .get(`/api/auth/v1/webhooks/${claimsOnly.id}/deliveries/`)
      .set(b.auth);
    expect(claimLog.body.result).toEqual([]);
    const log = await http().get(`/api/auth/v1/webhooks/${eligibility.id}/deliveries/`).set(b.auth);
    expect(log.body.result).toHaveLength(1);
  });

  it('records a claim event once per key for subscribed webhooks of the account only', async () => {
    const c = await createAccount(t.app);
    const subscribed = await addWebhook(c, {
      url: receiver.url('/c-claims'),
      events: ['claim'],
    });
    await addWebhook(c, { url: receiver.url('/c-eligibility') });
    const other = await createAccount(t.app);
    await addWebhook(other, { url: receiver.url('/other-claims'), events: ['claim'] });

    const outbox = t.app.get(WebhookOutbox);
    const event = {
      accountId: c.accountId,
      topic: 'claim' as const,
      event: 'claim.status_changed',
      resourceKey: 'claim:CLMTEST0001:1',
      resourceUid: 'CLMTEST0001',
      body: '{"code":"CLMTEST0001","status":"submitted"}',
    };
    const db = t.app.get(Database);
    // Its first attempt is queued once the transaction has committed (recordEventInTx).
    const ids = await db.transaction((tx) => outbox.recordEventInTx(tx, event));
    expect(ids).toHaveLength(1);
    const again = await db.transaction((tx) => outbox.recordEventInTx(tx, event));
    expect(again).toEqual([]);

    const [delivered] = await receiver.waitFor('/c-claims', 1);
    expect(delivered.raw.toString()).toBe(event.body);
    expect(delivered.headers['x-event-type']).toBe('claim.status_changed');
    const log = await http().get(`/api/auth/v1/webhooks/${subscribed.id}/deliveries/`).set(c.auth);
    expect(log.body.result).toEqual([
      expect.objectContaining({
        event: 'claim.status_changed',
        request_uid: 'CLMTEST0001',
        status: 'succeeded',
      }),
    ]);
    expect(receiver.forPath('/c-eligibility')).toEqual([]);
    expect(receiver.forPath('/other-claims')).toEqual([]);
  });
});
