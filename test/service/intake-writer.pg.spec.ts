import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { isUniqueViolation } from '@/platform/kernel/codes';
import { EligibilityRequestsRepository } from '@/modules/eligibility/store/eligibility-requests.repository';
import { IntakeWriter, type IntakeRow } from '@/modules/eligibility/intake/domain/intake-writer';
import { createTestContext, TestContext } from '../support/app';
import { createAccountId } from '../support/factories';

const VSP = 'insurer:vision:vsp';
const EYEMED = 'insurer:vision:eyemed';

/**
 * Intake's group-committed INSERT: requests accepted together share one statement, and each
 * caller gets its own row (or its own failure).
 */
describe('IntakeWriter', () => {
  let t: TestContext;
  let db: DataSource;
  let writer: IntakeWriter;
  const accounts: string[] = [];

  beforeAll(async () => {
    t = await createTestContext({ env: { ROLE: 'api' } });
    db = t.ctx.get(DataSource);
    writer = new IntakeWriter(t.ctx.get(EligibilityRequestsRepository), 60_000);
    for (let i = 0; i < 2; i++) accounts.push(await createAccountId(t.ctx));
  });
  afterAll(() => t.close());

  const row = (accountId: string, uid: string, extra: Partial<IntakeRow> = {}): IntakeRow => ({
    accountId,
    uid,
    kind: 'search',
    parentId: null,
    locationId: null,
    locationCode: null,
    insurerCodes: [VSP, EYEMED],
    query: { firstName: 'Ana', lastName: `O'Brien "${uid}"`, dateOfBirth: '1980-01-02' } as never,
    target: null,
    leaseJob: null,
    ...extra,
  });

  it('stores requests arriving together, each answered its own row; a duplicate fails alone', async () => {
    const tag = randomBytes(3).toString('hex');
    const [a, b] = accounts;
    const rows = [
      row(a, `first-${tag}`),
      ...Array.from({ length: 12 }, (_, i) => row(i % 2 ? a : b, `many-${tag}-${i}`)),
      row(a, `leased-${tag}`, { leaseJob: `job-${tag}:l1.1` }),
      row(a, `nowhere-${tag}`, { locationCode: 'no-such-location' }),
      row(b, `dup-${tag}`),
      row(b, `dup-${tag}`, { insurerCodes: [EYEMED] }),
      // The same uid in another account is another request.
      row(a, `dup-${tag}`),
    ];
    const outcomes = await Promise.allSettled(rows.map((r) => writer.store(r)));

    const dups = outcomes.slice(15, 17);
    expect(dups.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
    const refused = dups.find((o) => o.status === 'rejected') as PromiseRejectedResult;
    expect(isUniqueViolation(refused.reason, 'eligibility_requests_account_uid_key')).toBe(true);

    expect(outcomes[14]).toEqual({ status: 'fulfilled', value: undefined });
    for (const [i, o] of outcomes.entries()) {
      if (i === 14 || i === 15 || i === 16) continue;
      expect(o.status).toBe('fulfilled');
      const stored = (o as PromiseFulfilledResult<Awaited<ReturnType<IntakeWriter['store']>>>)
        .value!;
      expect(stored).toMatchObject({
        accountId: rows[i].accountId,
        uid: rows[i].uid,
        insurerCodes: [VSP, EYEMED],
        query: rows[i].query,
        status: 'processing',
        leaseJob: rows[i].leaseJob,
        attempt: rows[i].leaseJob ? 1 : 0,
      });
      const [inDb] = await db.query(
        `SELECT account_id, uid, lease_job, attempts, job_due_at > now() + interval '50 seconds' AS leased_ahead
         FROM eligibility_requests WHERE id = $1`,
        [stored.id],
      );
      expect(inDb).toEqual({
        account_id: rows[i].accountId,
        uid: rows[i].uid,
        lease_job: rows[i].leaseJob,
        attempts: rows[i].leaseJob ? 1 : 0,
        leased_ahead: rows[i].leaseJob !== null,
      });
    }
    const [{ count }] = await db.query(
      'SELECT count(*)::int AS count FROM eligibility_requests WHERE uid LIKE $1',
      [`%${tag}%`],
    );
    expect(count).toBe(rows.length - 2);
  });
});
