import { DataSource } from 'typeorm';
import { EligibilityService } from '@/modules/eligibility/domain/eligibility.service';
import { SearchQueue } from '@/modules/eligibility/jobs/search.queue';
import { createTestContext, TestContext } from '../support/app';
import { patient } from '../support/eligibility';
import { createAccountId } from '../support/factories';
import { fakeConnector } from '../support/fake-connector';

const VSP = 'insurer:vision:vsp';
const FakeVsp = fakeConnector(VSP);

/**
 * The sweeper's requeue of a search whose Bull job was lost with Redis (docs/architecture.md, The
 * queue idiom): PostgreSQL says it is overdue, a new Bull job wakes a worker. ROLE=api: nothing
 * runs it meanwhile.
 */
describe('SearchQueue.requeueOverdue (service level, with Redis)', () => {
  let t: TestContext;
  let db: DataSource;
  let accountId: string;

  beforeAll(async () => {
    t = await createTestContext({ providers: [FakeVsp] });
    db = t.ctx.get(DataSource);
    accountId = await createAccountId(t.ctx);
  });
  afterAll(() => t.close());

  it('requeues a request whose job was lost, once, whichever sweeper gets it', async () => {
    const uid = await t.ctx
      .get(EligibilityService)
      .create(accountId, { insurer_code_list: [VSP], patient: patient() });
    const [{ id }] = await db.query(
      'SELECT id::text AS id FROM eligibility_requests WHERE uid = $1',
      [uid],
    );
    await db.query(
      `UPDATE eligibility_requests SET job_due_at = now() - interval '2 minutes' WHERE id = $1`,
      [id],
    );
    const queue = t.ctx.get(SearchQueue);
    const counts = await Promise.all([queue.requeueOverdue(), queue.requeueOverdue()]);
    expect(counts.reduce((a, b) => a + b, 0)).toBe(1);
    const jobs = await queue.queue.getJobs(['waiting']);
    expect(jobs.filter((j) => j.data.id === id).map((j) => String(j.id))).toEqual(
      expect.arrayContaining([expect.stringMatching(new RegExp(`^search:${id}:q\\d+$`))]),
    );
  });
});
