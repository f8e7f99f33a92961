import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { Database } from '@/platform/db/database';
import { sql as sqlTag } from '@/platform/db/sql';
import { AuditEventsRepository } from '@/modules/audit/store/audit-events.repository';
import { eventRow, type AuditRecord } from '@/modules/audit/domain/audit-record';
import { RequestPurger } from '@/modules/eligibility/retention/domain/request-purger';
import { purgedBody } from '@/modules/eligibility/retention/domain/purged-answer';
import { MailPurger } from '@/modules/mail/domain/mail-purger';
import { InsurerSettingsRepository } from '@/modules/insurers/store/insurer-settings.repository';
import {
  TaskRequests,
  type TaskRequestsPort,
} from '@/modules/verification/domain/task-requests.port';
import { VerificationTasksRepository } from '@/modules/verification/store/verification-tasks.repository';
import { createTestContext, TestContext } from '../support/app';
import { createPractice } from '../support/factories';
import { recordSql, SqlRecording } from '../support/sql-recorder';

const VSP = 'insurer:vision:vsp';
const LONG_AGO = '2001-02-03T04:05:06Z';

/**
 * The SQL of the audit (AuditEventsRepository, and retention's purgers: RequestPurger over
 * eligibility's, webhooks' and verification's repositories, MailPurger), insurers
 * (InsurerSettingsRepository) and verification (VerificationTasksRepository) repositories, one
 * snapshot per method, each with what the method answered.
 */
describe('audit, insurers and verification repositories', () => {
  let t: TestContext;
  let db: DataSource;
  let database: Database;
  let sql: SqlRecording;
  let accountId: string;
  let locationId: string;

  const rec = <T>(name: string, call: () => Promise<T>) => sql.snapshot(name, call);

  /** A request of the account (processing unless told), created at `createdAt` (default now). */
  const request = async (
    fields: { status?: string; createdAt?: string } = {},
  ): Promise<{ id: string; uid: string }> => {
    const [row]: { id: string; uid: string }[] = await db.query(
      `INSERT INTO eligibility_requests
         (account_id, uid, kind, location_id, insurer_codes, query, status, created_at)
       VALUES ($1, $2, 'search', $3, $4, '{"firstName":"Ada"}', $5, COALESCE($6::timestamptz, now()))
       RETURNING id::text AS id, uid`,
      [accountId, randomUUID(), locationId, [VSP], fields.status ?? 'processing', fields.createdAt],
    );
    return row;
  };

  const task = async (requestId: string, dueInMinutes: number): Promise<string> => {
    const [row]: { id: string }[] = await db.query(
      `INSERT INTO verification_tasks (account_id, request_id, insurer_code, due_by, history)
       VALUES ($1, $2, $3, now() + ($4 || ' minutes')::interval, '[]') RETURNING id`,
      [accountId, requestId, VSP, String(dueInMinutes)],
    );
    return row.id;
  };

  beforeAll(async () => {
    t = await createTestContext();
    db = t.ctx.get(DataSource);
    database = t.ctx.get(Database);
    ({ accountId, locationId } = await createPractice(t.ctx));
    sql = recordSql();
  });
  afterAll(async () => {
    sql.stop();
    await t.close();
  });

  it('audit events: inserts, recorded reads and the keyset list', async () => {
    const events = t.ctx.get(AuditEventsRepository);
    const record = (resourceId: string | null): AuditRecord => ({
      actor: { accountId, type: 'user', name: 'ada@practice.test', apiKeyId: null, userId: null },
      action: 'read',
      resourceType: 'eligibility',
      resourceId,
      requestId: 'req-1',
      ip: '127.0.0.1',
    });
    await rec('insertMany', () => events.insertMany([eventRow(record('one'))]));

    const { uid } = await request();
    const reads = events.recordedReads<{ n: string; uid: string }>(
      (q) => sqlTag`SELECT ${q.n}, er.uid FROM ${q.reads}
        JOIN eligibility_requests er ON er.account_id = ${q.accountId} AND er.uid = ${q.key}`,
    );
    const found = await rec('recordedReads', () => reads.read(uid, record(uid)));
    expect(found).toMatchObject({ uid });
    expect(await reads.read('no-such-uid', record('no-such-uid'))).toBeUndefined();

    const page = await rec('list', () =>
      events.list(accountId, { limit: 10, resourceType: 'eligibility', resourceId: uid }),
    );
    expect(page.result.map((e) => [e.resourceId, e.actor])).toEqual([[uid, 'ada@practice.test']]);
    const all = await events.list(accountId, { limit: 10 });
    expect(all.result.map((e) => e.resourceId).sort()).toEqual(['one', uid].sort());
  });

  it('retention: the purgers lock and purge requests with their tasks, and empty old mail', async () => {
    const requests = t.ctx.get(RequestPurger);
    const old = await request({ status: 'complete', createdAt: LONG_AGO });
    await request({ status: 'processing', createdAt: LONG_AGO });
    const oldTask = await task(old.id, 60);
    await db.query(
      `UPDATE verification_tasks SET detail = 'called Ada', history = '[{"state":"queued","detail":"Ada"}]'
        WHERE id = $1`,
      [oldTask],
    );
    const cutoff = new Date('2001-06-01T00:00:00Z');

    const purged = await rec('RequestPurger.purge', () =>
      database.transaction((tx) => requests.purge(cutoff, 10, tx)),
    );
    expect(purged).toBe(1);
    const [row]: { body_v2: string; purged: boolean }[] = await db.query(
      'SELECT body_v2, purged_at IS NOT NULL AS purged FROM eligibility_requests WHERE id = $1',
      [old.id],
    );
    expect(row).toEqual({ body_v2: purgedBody(old.uid, 'complete', null), purged: true });
    const [erased]: { detail: string | null; history: unknown }[] = await db.query(
      'SELECT detail, history FROM verification_tasks WHERE id = $1',
      [oldTask],
    );
    expect(erased).toEqual({ detail: null, history: [{ state: 'queued' }] });
    expect(await database.transaction((tx) => requests.purge(cutoff, 10, tx))).toBe(0);
    // The verification tasks' test below counts the account's tasks.
    await db.query('DELETE FROM verification_tasks WHERE id = $1', [oldTask]);

    await db.query(
      `INSERT INTO mail_messages
         (account_id, kind, to_address, subject, text_body, html_body, status, sent_at, created_at)
       VALUES ($1, 'claim', 'payer@example.test', 'Claim', 'text', '<p>html</p>', 'sent', $2, $2)`,
      [accountId, LONG_AGO],
    );
    const mails = t.ctx.get(MailPurger);
    expect(
      await rec('MailPurger.purge', () =>
        database.transaction((tx) => mails.purge(cutoff, 10, tx)),
      ),
    ).toBe(1);
    expect(await database.transaction((tx) => mails.purge(cutoff, 10, tx))).toBe(0);
  });

  it('insurer settings: setters, reads and credentials', async () => {
    const settings = t.ctx.get(InsurerSettingsRepository);
    await rec('upsertEnabled', () => settings.upsertEnabled(accountId, VSP, false));
    await rec('upsertEligibilityMode', () =>
      settings.upsertEligibilityMode(accountId, VSP, 'assisted'),
    );
    await rec('upsertClaimsMailingAddress', () =>
      settings.upsertClaimsMailingAddress(accountId, VSP, 'VSP\nPO Box 1\nMason, OH 45040'),
    );
    await rec('upsertCredentials', () =>
      settings.upsertCredentials(accountId, VSP, 'ada', 'sealed-secret'),
    );
    await rec('markCredentialsNeedAttention', () =>
      settings.markCredentialsNeedAttention(accountId, VSP),
    );
    const [row] = await rec('list', () => settings.list(accountId));
    expect(row).toMatchObject({
      insurer_code: VSP,
      enabled: false,
      username: 'ada',
      eligibility_mode: 'assisted',
      credentials_status: 'needs_attention',
      claims_mailing_address: 'VSP\nPO Box 1\nMason, OH 45040',
    });
    expect(await rec('findForSearch', () => settings.findForSearch(accountId, VSP))).toEqual({
      insurer_code: VSP,
      enabled: false,
      username: 'ada',
      password_sealed: 'sealed-secret',
    });
    expect(
      await rec('findClaimsMailingAddress', () =>
        settings.findClaimsMailingAddress(accountId, VSP),
      ),
    ).toBe('VSP\nPO Box 1\nMason, OH 45040');
    await rec('clearCredentials', () => settings.clearCredentials(accountId, VSP));
    expect(await settings.findForSearch(accountId, VSP)).toMatchObject({
      username: null,
      password_sealed: null,
    });
  });

  it('verification tasks: views, a change, lapsed leases and overdue tasks', async () => {
    const tasks = t.ctx.get(VerificationTasksRepository);
    const req = await request();
    const id = await task(req.id, 60);
    const overdueId = await task((await request()).id, -60);

    const page = await rec('page', () =>
      tasks.page(accountId, { limit: 10, state: 'queued', insurerCode: VSP }),
    );
    expect(page.result.map((r) => r.id).sort()).toEqual([id, overdueId].sort());
    const views = await rec('viewsByIds', () => tasks.viewsByIds(accountId, [id]));
    expect(views.map((v) => [v.id, v.request_uid])).toEqual([[id, req.uid]]);
    const open = await rec('openViews', () => tasks.openViews(accountId, 10));
    expect(open.map((v) => v.id)).toEqual([overdueId, id]);
    expect((await rec('findView', () => tasks.findView(accountId, id)))?.state).toBe('queued');

    const locked = await rec('requestIdOf + lockRequest + lockTask + write', () =>
      database.transaction(async (tx) => {
        const requestId = (await tasks.requestIdOf(accountId, id, tx))!;
        await t.ctx.get<TaskRequestsPort>(TaskRequests.provide).lockRequest(tx, requestId);
        const row = await tasks.lockTask(id, tx);
        await tasks.write(
          id,
          {
            state: 'in_progress',
            entry: {
              at: new Date().toISOString(),
              state: 'in_progress',
              actor: 'bot',
              detail: 'x',
            },
            // A lease ending at once, for releaseLapsedLeases.
            lease: { holder: 'api_key:1', name: 'api_key:abc', minutes: 0 },
            columns: { detail: 'claimed' },
          },
          tx,
        );
        return row;
      }),
    );
    expect(locked).toMatchObject({ id, state: 'queued', batch_id: null, lease_holder: null });
    expect(await tasks.findView(accountId, id)).toMatchObject({
      state: 'in_progress',
      lease_holder: 'api_key:1',
      detail: 'claimed',
    });

    const released = await rec('releaseLapsedLeases', () =>
      database.transaction((tx) => tasks.releaseLapsedLeases(100, tx)),
    );
    expect(released).toEqual([req.id]);
    expect((await tasks.findView(accountId, id))?.state).toBe('queued');

    const overdue = await rec('markOverdue', () =>
      database.transaction((tx) => tasks.markOverdue(100, tx)),
    );
    expect(overdue).toEqual([{ id: overdueId, account_id: accountId }]);
    expect(await tasks.markOverdue(100)).toEqual([]);
  });
});
