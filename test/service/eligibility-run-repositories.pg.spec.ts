import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { Database } from '@/platform/db/database';
import { AssistedSearchesRepository } from '@/modules/eligibility/assisted/store/assisted-searches.repository';
import { SearchTasks } from '@/modules/verification/domain/search-tasks';
import { SearchTasksRepository } from '@/modules/verification/store/search-tasks.repository';
import { BatchIntake } from '@/modules/eligibility/intake/domain/batch-intake';
import { BatchProgressRepository } from '@/modules/eligibility/batches/store/batch-progress.repository';
import type { FoundPerson } from '@/modules/eligibility/store/eligibility-result.entity';
import { SearchQueue } from '@/modules/eligibility/jobs/search.queue';
import { EligibilityService } from '@/modules/eligibility/domain/eligibility.service';
import { InsurerExchangesRepository } from '@/modules/eligibility/run/store/insurer-exchanges.repository';
import {
  type Finishing,
  SearchRunsRepository,
} from '@/modules/eligibility/store/search-runs.repository';
import { WebhookOutbox } from '@/modules/webhooks/domain/webhook-outbox';
import { createTestContext, TestContext } from '../support/app';
import { createAccountId } from '../support/factories';
import { patient } from '../support/eligibility';
import { recordSql, SqlRecording } from '../support/sql-recorder';

const VSP = 'insurer:vision:vsp';
const tag = () => randomBytes(4).toString('hex');

/**
 * The SQL of eligibility's running side (a search's lease and finishing, the batch counters, the
 * insurer exchange log, assisted verification's tasks), one snapshot per method: a change to a
 * statement shows in review as a snapshot diff.
 */
describe('eligibility run repositories', () => {
  let t: TestContext;
  let sql: SqlRecording;
  let db: DataSource;
  let runs: SearchRunsRepository;
  let accountId: string;

  /** Runs `call` alone on the recording and snapshots its statements (sorted when `sorted`). */
  const rec = <T>(name: string, call: () => Promise<T>, sorted = false) =>
    sql.snapshot(name, call, sorted);

  /** A stored request, processing (not run: ROLE=api). */
  const accept = async (codes = [VSP]): Promise<{ id: string; uid: string }> => {
    const uid = await t.ctx
      .get(EligibilityService)
      .create(accountId, { insurer_code_list: codes, patient: patient() });
    const [row] = await db.query('SELECT id FROM eligibility_requests WHERE uid = $1', [uid]);
    return { id: String(row.id), uid };
  };

  /** How a request ends `complete` with one plan of one person, ids taken ahead. */
  const finishing = async (requestId: string): Promise<Finishing> => {
    const [[resultId], [personId]] = await runs.takeIds(1, 1);
    const person = {
      id: personId,
      resultId,
      accountId,
      position: 0,
      firstName: 'Ana',
      lastName: 'Lee',
      dob: '1980-01-02',
      sex: 'F',
      memberId: 'M-1',
      ssnLastFour: null,
      type: 'subscriber',
      address: {},
      email: null,
      phone: '555',
      isActive: true,
      insurerState: 'oon',
      plan: {},
      planToken: null,
      planTokenExpiredAt: null,
    } as unknown as FoundPerson;
    return {
      requestId,
      status: 'complete',
      errorCode: null,
      bodyV1: '{"v":1}',
      bodyV2: '{"v":2}',
      results: [
        {
          result: {
            id: resultId,
            requestId,
            accountId,
            position: 0,
            insurerCode: VSP,
            status: 'active',
            planName: 'Plan',
            planGroup: 'Group',
            planGroupId: null,
            planBeginDate: '2026-01-01',
            planEndDate: null,
            planRefreshDate: null,
            planIsActive: true,
          } as never,
          persons: [person],
        },
      ],
    };
  };

  const deliveries = () =>
    t.ctx.get(WebhookOutbox).finishingDeliveries({ v1: '{"v":1}', v2: '{"v":2}' });

  beforeAll(async () => {
    t = await createTestContext();
    db = t.ctx.get(DataSource);
    runs = t.ctx.get(SearchRunsRepository);
    accountId = await createAccountId(t.ctx);
    sql = recordSql();
  });
  afterAll(async () => {
    sql?.stop();
    await t.close();
  });

  it('SearchRunsRepository.lease: the row and its setup, leased in one statement', async () => {
    const { id, uid } = await accept();
    const row = await rec('lease', () => runs.lease(t.ctx.get(SearchQueue), id, 'job-lease'));
    expect(row).toMatchObject({
      uid,
      accountId,
      attempt: 1,
      insurerCodes: [VSP],
      status: 'processing',
    });
    expect(row!.settings).toEqual([]);
  });

  it('SearchRunsRepository.lease: leases asked together share one statement, each answered its own row', async () => {
    const queue = t.ctx.get(SearchQueue);
    const requests = [];
    for (let i = 0; i < 7; i++) requests.push(await accept());
    const last = requests[6];
    sql.take();
    // Eight runs at once: four statements may be in flight, so the first four go alone and the
    // four that wait share the next statement; the last request, asked by two jobs in that
    // statement, is leased to one of them.
    const leased = await Promise.all([
      ...requests.map((r, i) => runs.lease(queue, r.id, `job-group-${i}`)),
      runs.lease(queue, last.id, 'job-group-twice'),
    ]);
    const statements = sql.take().filter((s) => s.includes('json_populate_recordset'));
    expect(statements).toHaveLength(5);
    requests
      .slice(0, 6)
      .forEach((r, i) => expect(leased[i]).toMatchObject({ uid: r.uid, attempt: 1 }));
    expect(leased.slice(6).filter((row) => row !== null)).toEqual([
      expect.objectContaining({ uid: last.uid, attempt: 1 }),
    ]);
    const [{ lease_job }]: { lease_job: string }[] = await db.query(
      'SELECT lease_job FROM eligibility_requests WHERE id = $1',
      [last.id],
    );
    expect(lease_job).toBe(leased[6] ? 'job-group-6' : 'job-group-twice');
    // Held by its job: another job does not take it; the same job leases it again.
    const first = requests[0];
    expect(await runs.lease(queue, first.id, 'job-other')).toBeNull();
    expect(await runs.lease(queue, first.id, 'job-group-0')).toMatchObject({ attempt: 2 });
  });

  it('SearchRunsRepository.head and takeIds', async () => {
    const { id, uid } = await accept();
    const head = await rec('head', () => runs.head(id));
    expect(head).toEqual({
      requestId: id,
      uid,
      accountId,
      batchId: null,
      origin: null,
      progress: { codes: [VSP], outcomes: {} },
    });
    const [results, persons] = await rec('takeIds', () => runs.takeIds(2, 3), true);
    expect([results.length, persons.length]).toEqual([2, 3]);
  });

  it('SearchRunsRepository.finish: once; then target finds the stored result and person', async () => {
    const { id } = await accept();
    const f = await finishing(id);
    const first = await rec('finish', () => runs.finish(f, deliveries()));
    expect(first).toEqual([]);
    expect(await runs.finish(f, deliveries())).toBeNull();
    expect(await runs.head(id)).toBeNull();

    const result = f.results[0].result;
    const person = f.results[0].persons[0];
    const found = await rec('target', () => runs.target(result.id, person.id));
    expect(found?.result).toMatchObject({ id: result.id, requestId: id, planName: 'Plan' });
    expect(found?.person).toMatchObject({ id: person.id, firstName: 'Ana' });
    expect(await runs.target(result.id, '0')).toBeNull();
  });

  it('SearchRunsRepository.finishGrouped: finishes ready together share one statement, each with its own deliveries', async () => {
    const hooks: { id: string; version: string }[] = await db.query(
      `INSERT INTO webhooks (account_id, url, version, events)
       VALUES ($1, 'http://127.0.0.1:9/v1', 'v1', '{eligibility}'), ($1, 'http://127.0.0.1:9/v2', 'v2', '{eligibility}')
       RETURNING id, version`,
      [accountId],
    );
    try {
      // Seven finishes at once: GroupCommit starts four statements of one, and the three that
      // wait meanwhile go together in the fifth; the last was finished already.
      const requests: { id: string; uid: string }[] = [];
      for (let i = 0; i < 7; i++) requests.push(await accept());
      const fs = await Promise.all(requests.map(({ id }) => finishing(id)));
      fs.forEach((f, i) => {
        f.bodyV1 = `{"request":${i},"v":1}`;
        f.bodyV2 = `{"request":${i},"v":2}`;
      });
      const outbox = t.ctx.get(WebhookOutbox);
      await runs.finish(fs[6], outbox.finishingDeliveries({ v1: '1', v2: '2' }));
      sql.take();
      const answers = await Promise.all(
        fs.map((f) =>
          runs.finishGrouped(f, outbox.finishingDeliveries({ v1: f.bodyV1, v2: f.bodyV2 })),
        ),
      );
      const statements = sql.take();
      expect(statements).toHaveLength(5);
      expect(statements.slice(3)).toMatchSnapshot('finishGrouped');
      expect(answers[6]).toBeNull();
      for (const i of [0, 1, 2, 3, 4, 5]) {
        const byVersion = new Map(
          answers[i]!.map((d) => [hooks.find((h) => h.id === d.webhookId)!.version, d.body]),
        );
        expect(Object.fromEntries(byVersion)).toEqual({ v1: fs[i].bodyV1, v2: fs[i].bodyV2 });
      }
      const stored: { request_id: string; v2: string }[] = await db.query(
        `SELECT d.request_id::text, d.body AS v2 FROM webhook_deliveries d
         JOIN webhooks w ON w.id = d.webhook_id AND w.version = 'v2'
         WHERE d.request_id = ANY($1::bigint[])`,
        [requests.map((r) => r.id)],
      );
      // The finished one has those of its own earlier finish: one per webhook, as for the others.
      expect(Object.fromEntries(stored.map((r) => [r.request_id, r.v2]))).toEqual(
        Object.fromEntries(requests.map((r, i) => [r.id, fs[i].bodyV2])),
      );
      const bodies: { id: string; v2: string }[] = await db.query(
        'SELECT id::text, body_v2 AS v2 FROM eligibility_requests WHERE id = ANY($1::bigint[])',
        [requests.map((r) => r.id)],
      );
      expect(Object.fromEntries(bodies.map((b) => [b.id, b.v2]))).toEqual(
        Object.fromEntries(requests.map((r, i) => [r.id, fs[i].bodyV2])),
      );
      const [{ n }] = await db.query(
        'SELECT count(*)::int AS n FROM eligibility_results WHERE request_id = ANY($1::bigint[])',
        [requests.map((r) => r.id)],
      );
      expect(n).toBe(7);
    } finally {
      await db.query('DELETE FROM webhooks WHERE id = ANY($1::uuid[])', [hooks.map((h) => h.id)]);
    }
  });

  it('SearchRunsRepository.stuck: processing requests past the limit', async () => {
    const { id } = await accept();
    const ids = await rec('stuck', () => runs.stuck(0, 1000));
    expect(ids).toContain(id);
    expect(await runs.stuck(3600, 1000)).not.toContain(id);
  });

  it("BatchProgressRepository: a batch item's finishing transaction counts it", async () => {
    const batchUid = `batch-${tag()}`;
    await t.ctx.get(BatchIntake).create(
      accountId,
      {
        batch_uid: batchUid,
        items: [{ insurer_code: VSP, patient: patient() }],
      },
      { userId: 'service-spec' },
    );
    const [item] = await db.query(
      `SELECT r.id, b.id AS batch_id FROM eligibility_requests r
       JOIN eligibility_batches b ON b.id = r.batch_id WHERE b.uid = $1`,
      [batchUid],
    );
    const f = await finishing(String(item.id));
    const progress = t.ctx.get(BatchProgressRepository);
    const counted = await t.ctx.get(Database).transaction(async (tx) => {
      expect(await runs.finish(f, deliveries(), tx)).toEqual([]);
      const row = await rec('countFinished', () =>
        progress.countFinished(String(item.batch_id), 'complete', tx),
      );
      await rec('setBody', () => progress.setBody(String(item.batch_id), '{"done":true}', tx));
      return row;
    });
    expect(counted).toMatchObject({ status: 'complete', processing_count: 0, complete_count: 1 });
    expect(await progress.countFinished(String(item.batch_id), 'error')).toBeNull();
    const [batch] = await db.query('SELECT body FROM eligibility_batches WHERE id = $1', [
      item.batch_id,
    ]);
    expect(batch.body).toBe('{"done":true}');
  });

  it('InsurerExchangesRepository: stored together, read per request', async () => {
    const { id } = await accept();
    const exchanges = t.ctx.get(InsurerExchangesRepository);
    const call = {
      account_id: accountId,
      request_id: id,
      insurer_code: VSP,
      attempt: 1,
      started_at: new Date(),
      duration_ms: 12,
      url: 'https://payer.example/270',
      request: 'ISA*270',
      response: 'ISA*271',
      http_status: 200,
      aaa_codes: ['72'],
      outcome: 'found',
      error: null,
      trace_number: 'T-1',
    };
    await rec('insertMany', () =>
      exchanges.insertMany([call, { ...call, attempt: 2, outcome: 'unavailable' }]),
    );
    const rows = await rec('forRequest', () => exchanges.forRequest(accountId, id));
    expect(rows.map((r) => [r.attempt, r.outcome, r.aaa_codes])).toEqual([
      [1, 'found', ['72']],
      [2, 'unavailable', ['72']],
    ]);
  });

  it("AssistedSearchesRepository and verification's SearchTasks: a run's task, its view, and the request's bodies", async () => {
    const { id } = await accept();
    const tasks = t.ctx.get(SearchTasksRepository);
    const requests = t.ctx.get(AssistedSearchesRepository);
    expect(await rec('answer', () => tasks.answer(id, VSP))).toBeNull();
    const task = { accountId, requestId: id, code: VSP, slaMinutes: 60 };
    const taskId = await rec('open', () => tasks.open(task));
    expect(taskId).toEqual(expect.any(String));
    expect(await tasks.open(task)).toBeNull();
    expect(await tasks.answer(id, VSP)).toMatchObject({ state: 'queued', plans: null });
    expect(await rec('anyAnswered', () => tasks.anyAnswered(id, [VSP]))).toBe(false);

    const view = await rec('taskView', () => t.ctx.get(SearchTasks).view(accountId, taskId!));
    expect(view).toMatchObject({ id: taskId, state: 'queued', insurer_code: VSP });
    const body = `{"request_uid":"x","insurers":[]}`;
    await rec('writeProcessing', () =>
      t.ctx.get(Database).transaction((tx) => requests.writeProcessing(id, body, tx)),
    );
    const [row] = await db.query('SELECT body_v2 FROM eligibility_requests WHERE id = $1', [id]);
    expect(row.body_v2).toBe(body);

    await db.query(`UPDATE verification_tasks SET state = 'completed' WHERE id = $1`, [taskId]);
    expect(await tasks.anyAnswered(id, [VSP])).toBe(true);

    // A task is due by its SLA, or by `latestDueBy` when that is sooner (an appointment's check).
    const dueOf = async (code: string) =>
      new Date(
        (
          await db.query(
            'SELECT due_by FROM verification_tasks WHERE request_id = $1 AND insurer_code = $2',
            [id, code],
          )
        )[0].due_by,
      ).getTime();
    const soon = new Date(Date.now() + 30 * 60_000);
    await tasks.open({ ...task, code: 'insurer:vision:eye_med', latestDueBy: soon.toISOString() });
    expect(await dueOf('insurer:vision:eye_med')).toBe(soon.getTime());
    const later = new Date(Date.now() + 5 * 3_600_000).toISOString();
    const before = Date.now();
    await tasks.open({ ...task, code: 'insurer:vision:superior', latestDueBy: later });
    const due = await dueOf('insurer:vision:superior');
    expect(due).toBeGreaterThanOrEqual(before + 59 * 60_000);
    expect(due).toBeLessThan(before + 61 * 60_000);
  });
});
