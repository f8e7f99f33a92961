import { randomBytes, randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { Database } from '@/platform/db/database';
import { BatchesRepository } from '@/modules/eligibility/batches/store/batches.repository';
import { EligibilityQueryService } from '@/modules/eligibility/read/domain/eligibility-query.service';
import {
  EligibilityRequestsRepository,
  type IntakeRow,
} from '@/modules/eligibility/store/eligibility-requests.repository';
import { createTestContext, TestContext } from '../support/app';
import { createAccountId } from '../support/factories';
import { recordSql, SqlRecording } from '../support/sql-recorder';

const VSP = 'insurer:vision:vsp';
const tag = () => randomBytes(4).toString('hex');
const query = { firstName: 'Ana', lastName: 'Lee', dateOfBirth: '1980-01-02' } as never;

/**
 * The SQL of eligibility's intake and read-side repositories (requests, batches), one snapshot
 * per method: a change to a statement shows in review as a snapshot diff.
 */
describe('eligibility intake and read repositories', () => {
  let t: TestContext;
  let sql: SqlRecording;
  let db: DataSource;
  let requests: EligibilityRequestsRepository;
  let batches: BatchesRepository;
  let accountId: string;
  let locationId: string;

  /** Runs `call` alone on the recording and snapshots its statements. */
  const rec = <T>(name: string, call: () => Promise<T>) => sql.snapshot(name, call);

  const intakeRow = (uid: string, extra: Partial<IntakeRow> = {}): IntakeRow => ({
    accountId,
    uid,
    kind: 'search',
    parentId: null,
    locationId: null,
    locationCode: null,
    insurerCodes: [VSP],
    query,
    target: null,
    leaseJob: null,
    ...extra,
  });

  /** A complete request with one result and one person (as a finished search stores them). */
  const completeWithResult = async (uid: string) => {
    const [stored] = await requests.insertIntake([intakeRow(uid)], 60_000, null);
    await db.query(
      `UPDATE eligibility_requests SET status = 'complete', body_v1 = '{"v":1}', body_v2 = '{"results":[1]}'
       WHERE id = $1`,
      [stored.id],
    );
    const [result]: { id: string }[] = await db.query(
      `INSERT INTO eligibility_results (request_id, account_id, position, insurer_code, status,
         plan_name, plan_group, plan_begin_date, plan_is_active)
       VALUES ($1, $2, 0, $3, 'active', 'Plan', 'Group', '2026-01-01', true) RETURNING id`,
      [stored.id, accountId, VSP],
    );
    const [person]: { id: string }[] = await db.query(
      `INSERT INTO eligibility_persons (result_id, account_id, position, first_name, last_name, dob,
         sex, type, address, phone, insurer_state, plan)
       VALUES ($1, $2, 0, 'Ana', 'Lee', '1980-01-02', 'F', 'subscriber', '{}', '555', 'oon', '{}')
       RETURNING id`,
      [result.id, accountId],
    );
    return { id: String(stored.id), resultId: String(result.id), personId: String(person.id) };
  };

  beforeAll(async () => {
    t = await createTestContext();
    db = t.ctx.get(DataSource);
    requests = t.ctx.get(EligibilityRequestsRepository);
    batches = t.ctx.get(BatchesRepository);
    accountId = await createAccountId(t.ctx);
    [{ id: locationId }] = await db.query('SELECT id FROM locations WHERE account_id = $1', [
      accountId,
    ]);
    sql = recordSql();
  });
  afterAll(async () => {
    sql.stop();
    await t.close();
  });

  it('EligibilityRequestsRepository: intake', async () => {
    const k = tag();
    const job = `search:l${k}.1`;
    const stored = await rec('requests.insertIntake', () =>
      requests.insertIntake(
        [
          intakeRow(`due-${k}`),
          intakeRow(`leased-${k}`, { leaseJob: job, locationId }),
          intakeRow(`nowhere-${k}`, { locationCode: 'no-such-location' }),
        ],
        60_000,
        null,
      ),
    );
    const byUid = new Map(stored.map((s) => [s.uid, s]));
    expect(stored).toHaveLength(2);
    expect(byUid.get(`due-${k}`)).toMatchObject({ attempt: 0, leaseJob: null, locationId });
    expect(byUid.get(`leased-${k}`)).toMatchObject({
      attempt: 1,
      leaseJob: job,
      status: 'processing',
      insurerCodes: [VSP],
      settings: [],
      provider: null,
    });

    const found = await rec('requests.findByUid', () => requests.findByUid(accountId, `due-${k}`));
    expect(found).toMatchObject({ uid: `due-${k}`, status: 'processing', locationId });
    const taken = await rec('requests.takenUids', () =>
      requests.takenUids(accountId, [`due-${k}`, `free-${k}`]),
    );
    expect([...taken]).toEqual([`due-${k}`]);
  });

  it('EligibilityRequestsRepository: reads', async () => {
    const k = tag();
    const done = await completeWithResult(`done-${k}`);
    const [open] = await requests.insertIntake([intakeRow(`open-${k}`)], 60_000, null);

    expect(
      await rec('requests.body.v1', () => requests.body(accountId, `done-${k}`, 'v1')),
    ).toEqual({ body: '{"v":1}', codes: null, attempts: 0, origin: null });
    expect(
      await rec('requests.body.v2', () => requests.body(accountId, `open-${k}`, 'v2')),
    ).toEqual({ body: null, codes: [VSP], attempts: expect.any(Number), origin: null });
    const event = {
      actor: { accountId, type: 'api_key' as const, name: 'key', apiKeyId: null, userId: null },
      action: 'read',
      resourceType: 'eligibility_request',
      requestId: null,
      ip: null,
    };
    const recorded = await rec('requests.recordedBodySelect (v2, through RecordedReads)', () =>
      t.ctx.get(EligibilityQueryService).getBodyRecorded(event, `done-${k}`, 'v2'),
    );
    expect(recorded).toBe('{"results":[1]}');

    const bodies = await rec('requests.v2BodiesByIds', () =>
      requests.v2BodiesByIds(accountId, [done.id, String(open.id)]),
    );
    expect(bodies.map((b) => [b.uid, b.body]).sort()).toEqual([
      [`done-${k}`, '{"results":[1]}'],
      [`open-${k}`, null],
    ]);
    const recent = await rec('requests.listRecent', () => requests.listRecent(accountId, 2));
    expect(recent.map((r) => r.uid)).toEqual([`open-${k}`, `done-${k}`]);
    const withResults = await rec('requests.withResults', () =>
      requests.withResults(accountId, [done.id, String(open.id)]),
    );
    expect([...withResults]).toEqual([done.id]);
    const result = await rec('requests.findResult', () =>
      requests.findResult(Number(done.resultId), done.id),
    );
    expect(result).toEqual({ id: done.resultId, insurer_code: VSP });
    expect(
      await rec('requests.personOfResult', () =>
        requests.personOfResult(Number(done.personId), done.resultId),
      ),
    ).toBe(true);
  });

  it('BatchesRepository', async () => {
    const uid = `batch-${tag()}`;
    const keys = [randomUUID(), randomUUID()].sort().reverse();
    const items = keys.map((key, i) => ({
      uid: `${uid}-item-${i}`,
      location_id: locationId,
      codes: [VSP],
      query,
      options: null,
      key,
    }));
    expect(await rec('batches.exists (none)', () => batches.exists(accountId, uid))).toBe(false);
    const ids = await t.ctx.get(Database).transaction(async (tx) => {
      const batchId = await rec('batches.insert', () => batches.insert(accountId, uid, 2, tx));
      return rec('batches.insertItems', () => batches.insertItems(accountId, batchId, items, tx));
    });
    expect(ids).toHaveLength(2);
    const [due] = await db.query(
      `SELECT attempts, lease_job, lease_owner, job_due_at <= now() AS due, batch_key
       FROM eligibility_requests WHERE id = $1`,
      [ids[0]],
    );
    expect(due).toEqual({
      attempts: 0,
      lease_job: null,
      lease_owner: null,
      due: true,
      batch_key: keys[0],
    });

    const batch = await rec('batches.findByUid', () => batches.findByUid(accountId, uid));
    expect(batch).toMatchObject({ uid, itemCount: 2, processingCount: 2 });
    const recent = await rec('batches.listRecent', () => batches.listRecent(accountId, 1));
    expect(recent.map((b) => b.uid)).toEqual([uid]);

    await db.query(
      `UPDATE eligibility_requests SET status = 'error', error_code = 'insurer_problem' WHERE id = $1`,
      [ids[1]],
    );
    const attention = await rec('batches.attention', () => batches.attention(batch!.id, 10));
    expect(attention).toMatchObject([
      { row: '2', uid: `${uid}-item-1`, outcome: 'error', total: '1', no_plan: '0' },
    ]);
    const page = await rec('batches.itemsPage', () =>
      batches.itemsPage(batch!.id, { limit: 1, cursor: null }),
    );
    expect(page.result.map((r) => r.uid)).toEqual([`${uid}-item-0`]);
    expect(page.next_cursor).not.toBeNull();
    const chunk = await rec('batches.exportChunk', () =>
      batches.exportChunk(batch!.id, keys[0], 5),
    );
    expect(chunk).toMatchObject([{ uid: `${uid}-item-1`, status: 'error', reason: null }]);
  });
});
