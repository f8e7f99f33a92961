import { randomBytes, randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { Database } from '@/platform/db/database';
import { compile, queryOne, sql as sqlTag } from '@/platform/db/sql';
import { EligibilityService } from '@/modules/eligibility/domain/eligibility.service';
import { WebhookDeliveriesRepository } from '@/modules/webhooks/store/webhook-deliveries.repository';
import type { SendResult } from '@/modules/webhooks/domain/webhook-sender';
import type { WebhookTopic } from '@/modules/webhooks/store/webhook.entity';
import { WebhooksRepository } from '@/modules/webhooks/store/webhooks.repository';
import { createTestContext, TestContext } from '../support/app';
import { patient } from '../support/eligibility';
import { createAccountId } from '../support/factories';
import { recordSql, SqlRecording } from '../support/sql-recorder';

const tag = () => randomBytes(4).toString('hex');

/**
 * The SQL of the webhooks repositories, one snapshot per method: a change to a statement shows
 * in review as a snapshot diff.
 */
describe('webhooks repositories', () => {
  let t: TestContext;
  let sql: SqlRecording;
  let db: DataSource;
  let database: Database;
  let webhooks: WebhooksRepository;
  let deliveries: WebhookDeliveriesRepository;
  let accountId: string;

  /** Runs `call` alone on the recording and snapshots its statements. */
  const rec = <T>(name: string, call: () => Promise<T>) => sql.snapshot(name, call);

  const newWebhook = (events: WebhookTopic[] = ['eligibility', 'claim']) => ({
    id: randomUUID(),
    accountId,
    url: `https://hooks.example.test/${tag()}`,
    isActive: true,
    description: 'Front desk PMS',
    version: 'v2' as const,
    events,
    secretSealed: null,
    allowNonstandardPort: false,
  });

  const claimEvent = (key: string) => ({
    accountId,
    topic: 'claim' as const,
    event: 'claim.status_changed',
    resourceKey: `claim:CLM${key}:1`,
    resourceUid: `CLM${key}`,
    body: `{"code":"CLM${key}"}`,
  });

  const failed = (): SendResult => ({
    startedAt: new Date(),
    statusCode: 500,
    durationMs: 12,
    error: 'HTTP 500',
    responseBody: '{"ok":false}',
    ok: false,
  });

  const stateOf = async (id: string) => {
    const [row] = await db.query(
      `SELECT status, attempt_count, lease_job, next_attempt_at, completed_at
       FROM webhook_deliveries WHERE id = $1`,
      [id],
    );
    return row as {
      status: string;
      attempt_count: number;
      lease_job: string | null;
      next_attempt_at: Date | null;
      completed_at: Date | null;
    };
  };

  beforeAll(async () => {
    t = await createTestContext();
    db = t.ctx.get(DataSource);
    database = t.ctx.get(Database);
    webhooks = t.ctx.get(WebhooksRepository);
    deliveries = t.ctx.get(WebhookDeliveriesRepository);
    accountId = await createAccountId(t.ctx);
    sql = recordSql();
  });
  afterAll(async () => {
    sql?.stop();
    await t.close();
  });

  it('WebhooksRepository', async () => {
    const fields = newWebhook();
    const created = await rec('webhooks.create', () => webhooks.create(fields));
    expect(created).toMatchObject({ id: fields.id, accountId, isActive: true, version: 'v2' });
    expect(created.createdAt).toBeInstanceOf(Date);

    const listed = await rec('webhooks.listOfAccount', () => webhooks.listOfAccount(accountId));
    expect(listed.map((w) => w.id)).toContain(fields.id);
    const found = await rec('webhooks.findOfAccount', () =>
      webhooks.findOfAccount(accountId, fields.id),
    );
    expect(found?.url).toBe(fields.url);
    expect(await webhooks.findOfAccount(randomUUID(), fields.id)).toBeNull();
    expect((await rec('webhooks.findById', () => webhooks.findById(fields.id)))?.id).toBe(
      fields.id,
    );

    found!.isActive = false;
    found!.description = 'Deactivated';
    const saved = await database.transaction((tx) =>
      rec('webhooks.save', () => webhooks.save(found!, tx)),
    );
    expect(saved).toMatchObject({ isActive: false, description: 'Deactivated' });

    await rec('webhooks.delete', () => webhooks.delete(accountId, fields.id));
    expect(await webhooks.findById(fields.id)).toBeNull();
  });

  it('WebhookDeliveriesRepository: the outbox, the delivery log and attempts', async () => {
    const hook = await webhooks.create(newWebhook());
    await webhooks.create(newWebhook(['eligibility'])); // not subscribed to claims

    const key = tag();
    const [first] = await database.transaction((tx) =>
      rec('deliveries.recordEvent', () => deliveries.recordEvent(claimEvent(`${key}A`), tx)),
    );
    expect(first).toBeDefined();
    expect(await deliveries.recordEvent(claimEvent(`${key}A`))).toEqual([]); // once per key
    const [second] = await deliveries.recordEvent(claimEvent(`${key}B`));
    const [third] = await deliveries.recordEvent(claimEvent(`${key}C`));
    expect(await stateOf(first)).toMatchObject({
      status: 'pending',
      attempt_count: 0,
      lease_job: null,
    });

    const page = await rec('deliveries.pageOfWebhook', () =>
      deliveries.pageOfWebhook(accountId, hook.id, { limit: 2 }),
    );
    // Newest first, on (created_at, id): deliveries stored within one millisecond (the column's
    // precision) are ordered by id, so the expected order is read, not assumed.
    const order: { id: string }[] = await t.ctx
      .get(DataSource)
      .query(
        `SELECT id FROM webhook_deliveries WHERE id = ANY($1::uuid[]) ORDER BY created_at DESC, id DESC`,
        [[first, second, third]],
      );
    const newestFirst = order.map((r) => r.id);
    expect(newestFirst).toHaveLength(3);
    expect(page.result.map((d) => d.id)).toEqual(newestFirst.slice(0, 2));
    expect(page.next_cursor).not.toBeNull();
    const rest = await rec('deliveries.pageOfWebhook.after', () =>
      deliveries.pageOfWebhook(accountId, hook.id, { limit: 2, cursor: page.next_cursor }),
    );
    expect(rest).toEqual({
      result: [expect.objectContaining({ id: newestFirst[2] })],
      next_cursor: null,
    });

    const one = await rec('deliveries.findOfWebhook', () =>
      deliveries.findOfWebhook(accountId, hook.id, first),
    );
    expect(one).toMatchObject({ id: first, webhookId: hook.id, requestUid: `CLM${key}A` });
    expect(await deliveries.findOfWebhook(accountId, randomUUID(), first)).toBeNull();
    expect((await rec('deliveries.findById', () => deliveries.findById(first)))?.event).toBe(
      'claim.status_changed',
    );

    const status = await rec('deliveries.recordAttempt', () =>
      deliveries.recordAttempt(first, failed(), false, 60_000),
    );
    expect(status).toBe('pending');
    expect((await stateOf(first)).next_attempt_at!.getTime()).toBeGreaterThan(Date.now() + 50_000);

    await database.transaction(async (tx) => {
      await rec('deliveries.insertAttempt', () =>
        deliveries.insertAttempt(
          {
            deliveryId: first,
            startedAt: new Date(),
            statusCode: 200,
            durationMs: 8,
            error: null,
            responseBody: '{"ok":true}',
            manual: true,
          },
          tx,
        ),
      );
      await rec('deliveries.succeed', () => deliveries.succeed(first, new Date(), tx));
    });
    expect(await stateOf(first)).toMatchObject({
      status: 'succeeded',
      lease_job: null,
      next_attempt_at: null,
    });
    const attempts = await rec('deliveries.attemptsOf', () => deliveries.attemptsOf([first]));
    expect(attempts.get(first)?.map((a) => [a.statusCode, a.manual])).toEqual([
      [500, false],
      [200, true],
    ]);

    await rec('deliveries.endPending', () => deliveries.endPending(second));
    expect(await stateOf(second)).toMatchObject({ status: 'failed', next_attempt_at: null });
    await database.transaction((tx) =>
      rec('deliveries.endPendingOfWebhook', () => deliveries.endPendingOfWebhook(hook.id, tx)),
    );
    expect((await stateOf(third)).status).toBe('failed');
    expect((await stateOf(first)).status).toBe('succeeded');
  });

  it('WebhookDeliveriesRepository.finishing: the deliveries CTE of a finishing statement', async () => {
    accountId = await createAccountId(t.ctx); // without the webhooks of the tests above
    const v2 = await webhooks.create(newWebhook(['eligibility']));
    const v1 = await webhooks.create({ ...newWebhook(['eligibility']), version: 'v1' });
    await webhooks.create(newWebhook(['claim'])); // not subscribed to eligibility
    const uid = await t.ctx
      .get(EligibilityService)
      .create(accountId, { insurer_code: 'insurer:demo:vision', patient: patient() });
    const [{ id: requestId }] = await db.query(
      'SELECT id FROM eligibility_requests WHERE uid = $1',
      [uid],
    );

    const { cte, summary } = deliveries.finishing({
      bodies: { v1: sqlTag`${'{"v":1}'}::text`, v2: sqlTag`${'{"v":2}'}::text` },
      event: 'eligibility.finished',
      leaseJob: 'first:spec',
      leaseMs: '60000',
      owner: null,
    });
    const statement = sqlTag`WITH request AS (SELECT id, account_id, uid FROM eligibility_requests WHERE id = ${requestId}),
      ${cte}
      SELECT ${summary} AS deliveries FROM request`;
    // The CTE carries its own values (the event, the bodies, the lease) where it places them.
    expect(compile(statement).values).toEqual([
      requestId,
      'eligibility.finished',
      '{"v":1}',
      '{"v":2}',
      'first:spec',
      '60000',
      'first:spec',
      'first:spec',
      'first:spec',
      null,
    ]);
    const row = await rec('deliveries.finishing', () =>
      queryOne<{ deliveries: unknown }>(db, statement),
    );
    const recorded = row!.deliveries as { id: string; webhook_id: string; version: string }[];
    expect(recorded.map((d) => [d.webhook_id, d.version]).sort()).toEqual(
      [
        [v1.id, 'v1'],
        [v2.id, 'v2'],
      ].sort(),
    );
    const [stored] = await db.query(
      `SELECT body, attempt_count, lease_job, next_attempt_at > now() + interval '50 seconds' AS leased
       FROM webhook_deliveries WHERE id = $1`,
      [recorded.find((d) => d.version === 'v1')!.id],
    );
    expect(stored).toEqual({
      body: '{"v":1}',
      attempt_count: 1,
      lease_job: 'first:spec',
      leased: true,
    });
  });
});
