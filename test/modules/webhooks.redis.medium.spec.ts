import { randomUUID } from 'node:crypto';
import { Database } from '@/platform/db/database';
import {
  type WebhookActor,
  WebhookOutbox,
  WebhooksModule,
  WebhooksService,
} from '@/modules/webhooks';
import { bootModule, insertAccount, ModuleContext } from '../support/module';
import { bullQueue } from '../support/queues';

/**
 * The webhooks module booted alone (test/support/module.ts): webhooks, their audit events and the
 * outbox of claim events against the real database. WebhooksModule imports AuditModule alone
 * (its pages are WebhooksPagesModule's, on the web shell): nothing of the shell, eligibility,
 * claims, insurers or verification boots.
 */
describe('webhooks module, alone', () => {
  let t: ModuleContext;
  let webhooks: WebhooksService;
  let accountId: string;
  let by: WebhookActor;

  beforeAll(async () => {
    t = await bootModule(WebhooksModule, { env: { WEBHOOK_ALLOW_PRIVATE: 'false' } });
    webhooks = t.ctx.get(WebhooksService);
    accountId = await insertAccount(t.db);
    by = operator(accountId, null);
  });
  afterAll(() => t.close());

  const operator = (account: string, scopes: string[] | null): WebhookActor => ({
    ctx: {
      actor: {
        accountId: account,
        type: 'user',
        name: 'ops@practice.test',
        apiKeyId: null,
        userId: null,
      },
      requestId: 'req-medium',
      ip: '127.0.0.1',
    },
    scopes,
  });

  it('boots with the audit module, its one import, and without the web shell', () => {
    expect(t.booted).toEqual(['AuditModule', 'WebhooksModule']);
  });

  it('stores a webhook with its secret sealed, lists it, and records who created it', async () => {
    const { webhook, secret } = await webhooks.create(by, {
      url: 'https://93.184.216.34/hooks',
      secret: 'a-receiver-secret',
      events: ['claim'],
    });
    expect(secret).toBe('a-receiver-secret');
    const [row] = await t.db.query(
      'SELECT url, is_active, version, events, secret_sealed FROM webhooks WHERE id = $1',
      [webhook.id],
    );
    expect(row).toMatchObject({
      url: 'https://93.184.216.34/hooks',
      is_active: true,
      version: 'v2',
      events: ['claim'],
    });
    expect(row.secret_sealed).not.toContain('a-receiver-secret');
    expect((await webhooks.list(accountId)).map((w) => w.id)).toEqual([webhook.id]);
    const events = await t.db.query(
      `SELECT action, resource_type, actor, request_id FROM audit_events
       WHERE account_id = $1 AND resource_id = $2`,
      [accountId, webhook.id],
    );
    expect(events).toEqual([
      {
        action: 'create',
        resource_type: 'webhook',
        actor: 'ops@practice.test',
        request_id: 'req-medium',
      },
    ]);
  });

  it('refuses a private target, a key without the topic’s read scope, and another account’s webhook', async () => {
    await expect(webhooks.create(by, { url: 'http://127.0.0.1:9/hook' })).rejects.toMatchObject({
      status: 400,
      errors: { url: expect.anything() },
    });
    await expect(
      webhooks.create(operator(accountId, ['webhooks:write']), {
        url: 'https://93.184.216.34/claims',
        events: ['claim'],
      }),
    ).rejects.toMatchObject({ status: 403 });
    const { webhook } = await webhooks.create(by, { url: 'https://93.184.216.34/mine' });
    const other = await insertAccount(t.db);
    await expect(webhooks.get(other, webhook.id)).rejects.toMatchObject({ status: 404 });
    await expect(webhooks.get(accountId, 'not-a-uuid')).rejects.toMatchObject({ status: 404 });
    const count = await t.db.query('SELECT count(*)::int AS n FROM webhooks WHERE url LIKE $1', [
      '%/claims',
    ]);
    expect(count).toEqual([{ n: 0 }]);
  });

  it('records a claim event once per subscribed webhook, queues it, and ends it when the webhook is turned off', async () => {
    const account = await insertAccount(t.db);
    const owner = operator(account, null);
    const claims = (
      await webhooks.create(owner, { url: 'https://93.184.216.34/c', events: ['claim'] })
    ).webhook;
    await webhooks.create(owner, { url: 'https://93.184.216.34/e', events: ['eligibility'] });
    const outbox = t.ctx.get(WebhookOutbox);
    const event = {
      accountId: account,
      topic: 'claim' as const,
      event: 'claim.status_changed',
      resourceKey: `claim:${randomUUID()}:accepted`,
      resourceUid: 'CLM-0001',
      body: '{"code":"CLM-0001","status":"accepted"}',
    };
    const database = t.ctx.get(Database);
    const ids = await database.transaction((tx) => outbox.recordEventInTx(tx, event));
    expect(ids).toHaveLength(1);
    // The same occurrence again records nothing new.
    expect(await database.transaction((tx) => outbox.recordEventInTx(tx, event))).toEqual([]);
    // Its first attempt was queued after the commit, before the transaction answered.
    expect(
      (await bullQueue(t.ctx, 'webhook-delivery').getJob(`deliver:${ids[0]}:a1`))?.data,
    ).toEqual({
      id: ids[0],
    });
    const page = await webhooks.listDeliveries(account, claims.id);
    expect(page.result.map((d) => [d.delivery.id, d.delivery.status, d.delivery.event])).toEqual([
      [ids[0], 'pending', 'claim.status_changed'],
    ]);
    await webhooks.update(owner, claims.id, { isActive: false });
    expect((await webhooks.getDelivery(account, claims.id, ids[0])).delivery.status).toBe('failed');
  });
});
