import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { TaskStatsRepository } from '@/modules/verification/store/task-stats.repository';
import { createTestContext, TestContext } from '../support/app';
import { createPractice } from '../support/factories';
import { recordSql, SqlRecording } from '../support/sql-recorder';

const VSP = 'insurer:vision:vsp';
const EYEMED = 'insurer:vision:eye_med';

/**
 * The SQL of TaskStatsRepository (docs/api.md, The insurer directory and Verification tasks),
 * one snapshot per method, each with what the method answered.
 */
describe("verification tasks' clocks and reuse (TaskStatsRepository)", () => {
  let t: TestContext;
  let db: DataSource;
  let sql: SqlRecording;
  let accountId: string;
  let locationId: string;
  let stats: TaskStatsRepository;

  /** A task of a request of the account: its state, and its clocks as SQL expressions. */
  const task = async (
    insurer: string,
    state: string,
    clocks: { created?: string; claimed?: string; answered?: string; reused?: number } = {},
  ): Promise<string> => {
    const [request]: { id: string }[] = await db.query(
      `INSERT INTO eligibility_requests
         (account_id, uid, kind, location_id, insurer_codes, query, status)
       VALUES ($1, $2, 'search', $3, $4, '{"firstName":"Ada","lastName":"Lovelace"}', 'processing')
       RETURNING id::text AS id`,
      [accountId, randomUUID(), locationId, [insurer]],
    );
    const [row]: { id: string }[] = await db.query(
      `INSERT INTO verification_tasks (account_id, request_id, insurer_code, state, due_by, history,
         created_at, claimed_at, answered_at, reused_count, last_reused_at)
       VALUES ($1, $2, $3, $4, now() + interval '4 hours', '[]',
         ${clocks.created ?? 'now()'}, ${clocks.claimed ?? 'NULL'}, ${clocks.answered ?? 'NULL'},
         $5, CASE WHEN $5 > 0 THEN now() - interval '5 minutes' END)
       RETURNING id`,
      [accountId, request.id, insurer, state, clocks.reused ?? 0],
    );
    return row.id;
  };

  beforeAll(async () => {
    t = await createTestContext();
    db = t.ctx.get(DataSource);
    stats = t.ctx.get(TaskStatsRepository);
    ({ accountId, locationId } = await createPractice(t.ctx));
    sql = recordSql();
  });
  afterAll(async () => {
    sql.stop();
    await t.close();
  });

  it('answers open tasks and the median minutes to answer per insurer, one statement for all', async () => {
    await task(VSP, 'queued');
    await task(VSP, 'needs_info');
    await task(VSP, 'completed', {
      created: "now() - interval '2 hours 30 minutes'",
      answered: "now() - interval '2 hours'",
    });
    await task(VSP, 'failed', {
      created: "now() - interval '1 hour 15 minutes'",
      answered: "now() - interval '1 hour'",
    });
    await task(VSP, 'completed', {
      created: "now() - interval '40 days'",
      answered: "now() - interval '35 days'",
    });
    const rows = await sql.snapshot('byInsurer', () => stats.byInsurer(accountId, [VSP, EYEMED]));
    expect(rows).toEqual([
      { insurer_code: VSP, tasks_open: 2, median: '22.5' },
      { insurer_code: EYEMED, tasks_open: 0, median: null },
    ]);
  });

  it('answers the answered tasks with their clocks, and the reused ones', async () => {
    const reused = await task(EYEMED, 'completed', {
      created: "now() - interval '50 minutes'",
      claimed: "now() - interval '45 minutes'",
      answered: "now() - interval '3 minutes'",
      reused: 2,
    });
    const answered = await sql.snapshot('answered', () =>
      stats.answered(accountId, 'answered', 10),
    );
    expect(answered.map((r) => r.id)[0]).toBe(reused);
    expect(answered).toHaveLength(3);
    const [first] = answered;
    expect(first.answered_at!.getTime() - first.claimed_at!.getTime()).toBe(42 * 60_000);
    expect(first).toMatchObject({ reused_count: 2, request_uid: expect.any(String) });
    const reuses = await sql.snapshot('answered reused', () =>
      stats.answered(accountId, 'reused', 10),
    );
    expect(reuses.map((r) => r.id)).toEqual([reused]);
  });
});
