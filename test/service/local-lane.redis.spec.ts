import { DataSource } from 'typeorm';
import { SearchQueue, SEARCH_QUEUE } from '@/modules/eligibility/jobs/search.queue';
import { EligibilityService } from '@/modules/eligibility/domain/eligibility.service';
import { createTestContext, TestContext } from '../support/app';
import { createAccountId } from '../support/factories';
import { patient } from '../support/eligibility';
import { fakeConnector } from '../support/fake-connector';
import { bullQueue, waitUntil } from '../support/queues';

const VSP = 'insurer:vision:vsp';
const FakeVsp = fakeConnector(VSP);

/**
 * A worker process (ROLE=all) runs the searches it accepts itself, through its queue's local
 * lane, without a Bull job; on shutdown it hands the ones it has not started to Bull.
 */
describe('Searches dispatched to the local lane (ROLE=all)', () => {
  let t: TestContext;
  let accountId: string;

  async function open(role = 'all'): Promise<TestContext> {
    return createTestContext({
      providers: [FakeVsp],
      // One run at a time, so the lane has a line; a hung insurer call ends in a second.
      env: { ROLE: role, SEARCH_CONCURRENCY: '1', INSURER_TIMEOUT_MS: '1000' },
      keepState: t !== undefined,
    });
  }

  beforeAll(async () => {
    t = await open();
    accountId = await createAccountId(t.ctx);
  });
  afterAll(() => t.close());

  async function accept(ctx: TestContext): Promise<string> {
    const uid = await ctx.ctx
      .get(EligibilityService)
      .create(accountId, { insurer_code_list: [VSP], patient: patient() });
    const [row] = await ctx.ctx
      .get(DataSource)
      .query('SELECT id FROM eligibility_requests WHERE uid = $1', [uid]);
    return String(row.id);
  }

  it('runs an accepted search in the process that accepted it, stored leased to it, with no Bull job', async () => {
    const id = await accept(t);
    const db = t.ctx.get(DataSource);
    const row = await waitUntil('the search to finish', async () => {
      const [r] = await db.query(
        'SELECT status, lease_job, attempts FROM eligibility_requests WHERE id = $1',
        [id],
      );
      return r.status === 'processing' ? undefined : (r as { status: string; lease_job: string });
    });
    expect(row).toMatchObject({ status: 'complete', attempts: 1 });
    // The lease intake stored names a local-lane run, not a Bull job (`search:<id>:a0`).
    expect(row.lease_job).toMatch(/^search:l[0-9a-f]{8}\.\d+$/);
    const jobs = await t.ctx.get(SearchQueue).queue.getJobs(['waiting', 'active', 'delayed']);
    expect(jobs.filter((j) => j.data.id === id)).toEqual([]);
    expect(t.ctx.get(SearchQueue).localPending).toBe(0);
  });

  it('hands the searches it has not started to Bull on shutdown, with their leases given back', async () => {
    const vsp = t.ctx.get(FakeVsp);
    vsp.reset();
    vsp.defaultReply = 'hang';
    const first = await accept(t);
    await waitUntil('the first search to be asked', () =>
      vsp.calls.length > 0 ? true : undefined,
    );
    const waiting = [await accept(t), await accept(t)];
    expect(t.ctx.get(SearchQueue).localPending).toBe(3);
    const db = t.ctx.get(DataSource);
    await t.close();

    // The run in flight ended (its insurer timed out: a retry is scheduled), the other two were
    // never asked, and Bull now holds a job for each, for whichever worker comes next.
    expect(vsp.calls).toHaveLength(1);
    // Looked at from a process that runs no workers, so nothing takes the jobs meanwhile.
    t = await open('api');
    const jobs = await bullQueue(t.ctx, SEARCH_QUEUE).getJobs(['waiting', 'active']);
    const byId = jobs.filter((j) => waiting.includes(j.data.id)).map((j) => String(j.id));
    expect(byId.sort()).toEqual(waiting.map((id) => `search:${id}:a0`).sort());
    const rows: {
      id: string;
      status: string;
      attempts: number;
      lease_job: string | null;
      due: boolean;
    }[] = await t.ctx.get(DataSource).query(
      `SELECT id::text, status, attempts, lease_job, job_due_at <= now() AS due
         FROM eligibility_requests WHERE id = ANY($1) ORDER BY id`,
      [[first, ...waiting]],
    );
    // The first ran once (a retry is scheduled); the others are due, unleased, never attempted.
    expect(rows.find((r) => r.id === first)).toMatchObject({ status: 'processing', attempts: 1 });
    for (const id of waiting)
      expect(rows.find((r) => r.id === id)).toMatchObject({
        status: 'processing',
        attempts: 0,
        lease_job: null,
        due: true,
      });
    expect(db.isInitialized).toBe(false);
  });
});
