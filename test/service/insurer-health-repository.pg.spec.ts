import { DataSource } from 'typeorm';
import { EligibilityService } from '@/modules/eligibility/domain/eligibility.service';
import { InsurerExchangesRepository } from '@/modules/eligibility/run/store/insurer-exchanges.repository';
import { InsurerHealth } from '@/modules/insurers/domain/insurer-health.service';
import { KNOWN_INSURER_CODES } from '@/modules/insurers';
import { createTestContext, TestContext } from '../support/app';
import { createAccountId } from '../support/factories';
import { patient } from '../support/eligibility';
import { recordSql, SqlRecording } from '../support/sql-recorder';

const DAVIS = 'insurer:vision:davis_vision';
const SPECTERA = 'insurer:vision:spectera';

/**
 * Insurer health's statement (docs/api.md, Insurer health) over hand-placed exchange rows, with
 * percentiles computed by hand, and its SQL snapshot; then the same figures through the
 * insurers module's port, as the endpoint reads them.
 */
describe('insurer health over the exchange log (InsurerExchangesRepository.callsSince)', () => {
  let t: TestContext;
  let db: DataSource;
  let sql: SqlRecording;
  let exchanges: InsurerExchangesRepository;

  /** A stored request of the account (processing; ROLE=api runs nothing). */
  const accept = async (accountId: string, code = DAVIS): Promise<string> => {
    const uid = await t.ctx
      .get(EligibilityService)
      .create(accountId, { insurer_code: code, patient: patient() });
    const [row] = await db.query('SELECT id FROM eligibility_requests WHERE uid = $1', [uid]);
    return String(row.id);
  };

  /** One call of `requestId`, started `ago` before now (an interval as PostgreSQL reads it). */
  const call = async (
    accountId: string,
    requestId: string,
    code: string,
    outcome: string,
    durationMs: number,
    ago: string,
  ): Promise<void> => {
    await db.query(
      `INSERT INTO insurer_exchanges (account_id, request_id, insurer_code, attempt, started_at,
         duration_ms, outcome, error)
       VALUES ($1, $2, $3, 1, now() - $4::interval, $5, $6, 'words that may name a patient')`,
      [accountId, requestId, code, ago, durationMs, outcome],
    );
  };

  beforeAll(async () => {
    t = await createTestContext();
    db = t.ctx.get(DataSource);
    exchanges = t.ctx.get(InsurerExchangesRepository);
    sql = recordSql();
  });
  afterAll(async () => {
    sql.stop();
    await t.close();
  });

  it('answers requests, calls, share answered, interpolated p50 and p95 and the latest unanswered call per insurer, in one statement', async () => {
    const a = await createAccountId(t.ctx);
    const other = await createAccountId(t.ctx);
    const [r1, r2, r3] = [await accept(a), await accept(a), await accept(a)];
    const r4 = await accept(a, SPECTERA);
    // In the window: durations 100, 200, 300, 400, 1500, 1600 ms over three requests.
    await call(a, r1, DAVIS, 'found', 100, '50 minutes');
    await call(a, r1, DAVIS, 'not_found', 300, '45 minutes');
    await call(a, r2, DAVIS, 'rejected', 1600, '30 minutes');
    await call(a, r2, DAVIS, 'found', 200, '25 minutes');
    await call(a, r3, DAVIS, 'unavailable', 1500, '10 minutes');
    await call(a, r3, DAVIS, 'found', 400, '5 minutes');
    // Not counted: a deferred call, a call of two hours ago, another account's calls.
    await call(a, r3, DAVIS, 'deferred', 9000, '4 minutes');
    await call(a, r1, DAVIS, 'unexpected', 50_000, '2 hours');
    const o = await accept(other);
    await call(other, o, DAVIS, 'unexpected', 20_000, '1 minute');
    await call(a, r4, SPECTERA, 'found', 250, '20 minutes');

    const since = new Date(Date.now() - 3600_000);
    const rows = await sql.snapshot('callsSince', () => exchanges.callsSince(a, since));
    const [{ ended }] = await db.query(
      `SELECT max(started_at + duration_ms * interval '1 millisecond') AS ended
       FROM insurer_exchanges WHERE request_id = $1 AND outcome = 'unavailable'`,
      [r3],
    );
    expect(rows).toEqual([
      {
        insurer_code: DAVIS,
        searches: 3,
        calls: 6,
        // 4 of 6 answered (found, not_found).
        answered_share: 0.667,
        // Sorted 100 200 300 400 1500 1600: p50 at rank 2.5 → (300 + 400) / 2 = 350 ms;
        // p95 at rank 0.95 × 5 = 4.75 → 1500 + 0.75 × (1600 − 1500) = 1575 ms.
        p50_seconds: 0.35,
        p95_seconds: 1.575,
        // The rejected call ended 30 minutes ago; the unavailable one 10 minutes ago.
        last_error_kind: 'unavailable',
        last_error_at: ended,
      },
      {
        insurer_code: SPECTERA,
        searches: 1,
        calls: 1,
        answered_share: 1,
        p50_seconds: 0.25,
        p95_seconds: 0.25,
        last_error_kind: null,
        last_error_at: null,
      },
    ]);

    // Through the insurers module's port, as the endpoint reads it: every insurer, zeros too.
    const health = await t.ctx.get(InsurerHealth).forAccount(a);
    expect(health.window_seconds).toBe(3600);
    expect(health.result.map((e) => e.insurer_code)).toEqual([...KNOWN_INSURER_CODES]);
    const byCode = new Map(health.result.map((e) => [e.insurer_code, e]));
    expect(byCode.get(DAVIS)).toMatchObject({
      searches: 3,
      calls: 6,
      answered_share: 0.667,
      p50_seconds: 0.35,
      p95_seconds: 1.575,
      last_error: { kind: 'unavailable', at: (ended as Date).toISOString() },
    });
    expect(byCode.get('insurer:vision:vsp')).toEqual({
      insurer_code: 'insurer:vision:vsp',
      name: 'VSP Vision Care',
      searches: 0,
      calls: 0,
      answered_share: null,
      p50_seconds: null,
      p95_seconds: null,
      last_error: null,
    });
    expect(JSON.stringify(health)).not.toContain('words that may name');

    // The other account sees its own call only.
    const theirs = await exchanges.callsSince(other, since);
    expect(theirs).toEqual([
      expect.objectContaining({ insurer_code: DAVIS, calls: 1, answered_share: 0 }),
    ]);
  });

  it('orders the latest error by when the call ended: a long call started first can end last', async () => {
    const a = await createAccountId(t.ctx);
    const r = await accept(a);
    // Started 10 minutes ago, ran 2 minutes (ended 8 minutes ago); started 9 minutes ago, ended at once.
    await call(a, r, DAVIS, 'unavailable', 120_000, '10 minutes');
    await call(a, r, DAVIS, 'rejected', 1000, '9 minutes');
    const [row] = await exchanges.callsSince(a, new Date(Date.now() - 3600_000));
    expect(row).toMatchObject({ calls: 2, answered_share: 0, last_error_kind: 'unavailable' });
    // Two calls: p50 is their mean, p95 at 0.95 of the way from the shorter to the longer.
    expect(row.p50_seconds).toBe(60.5);
    expect(row.p95_seconds).toBe(114.05);
  });

  it('answers nothing for an account without calls in the window', async () => {
    const a = await createAccountId(t.ctx);
    const r = await accept(a);
    await call(a, r, DAVIS, 'found', 100, '61 minutes');
    expect(await exchanges.callsSince(a, new Date(Date.now() - 3600_000))).toEqual([]);
  });
});
