import { DataSource } from 'typeorm';
import { EligibilityQueryService } from '@/modules/eligibility/read/domain/eligibility-query.service';
import { SearchQueue } from '@/modules/eligibility/jobs/search.queue';
import { EligibilityService } from '@/modules/eligibility/domain/eligibility.service';
import { InsurerSlots } from '@/modules/eligibility/run/domain/insurer-slots';
import { SearchFinisher } from '@/modules/eligibility/finish/domain/search-finisher';
import type { InsurerPlanResult } from '@/modules/insurers/domain/insurer-connector';
import { InsurerRegistry } from '@/modules/insurers/domain/insurer-registry.service';
import { InsurerSettingsService } from '@/modules/insurers/domain/insurer-settings.service';
import { MAX_SEARCH_ATTEMPTS } from '@/modules/eligibility/domain/search-outcome';
import { SearchRunner } from '@/modules/eligibility/run/domain/search-runner';

import {
  LEASED_REQUEST_COLUMNS,
  type LeasedRow,
  SEARCH_SETUP_SQL,
} from '@/modules/eligibility/run/domain/search-lease';
import { queryOne, sql } from '@/platform/db/sql';
import { createTestContext, TestContext } from '../support/app';
import { createAccountId } from '../support/factories';
import { patient } from '../support/eligibility';
import { fakeConnector, ScriptedConnector } from '../support/fake-connector';

const VSP = 'insurer:vision:vsp';
const EYE_MED = 'insurer:vision:eye_med';
const FakeVsp = fakeConnector(VSP);
const FakeEyeMed = fakeConnector(EYE_MED);

/**
 * The search runner against the real database, without HTTP or queue workers: each test runs
 * the jobs itself, so every step of a search is seen (ROLE=api: nothing runs behind its back).
 */
describe('SearchRunner (service level, scripted insurers)', () => {
  let t: TestContext;
  let accountId: string;
  let vsp: ScriptedConnector;
  let eyeMed: ScriptedConnector;
  let db: DataSource;
  let jobs = 0;

  beforeAll(async () => {
    t = await createTestContext({
      providers: [FakeVsp, FakeEyeMed],
      env: { INSURER_TIMEOUT_MS: '200' },
    });
    db = t.ctx.get(DataSource);
    vsp = t.ctx.get(FakeVsp);
    eyeMed = t.ctx.get(FakeEyeMed);
    accountId = await createAccountId(t.ctx);
  });
  afterAll(() => t.close());
  beforeEach(() => {
    vsp.reset();
    eyeMed.reset();
  });

  async function accept(
    codes: string[],
    extra: Record<string, unknown> = {},
  ): Promise<{ id: string; uid: string }> {
    const uid = await t.ctx
      .get(EligibilityService)
      .create(accountId, { insurer_code_list: codes, patient: patient(), ...extra });
    const [row] = await db.query('SELECT id FROM eligibility_requests WHERE uid = $1', [uid]);
    return { id: String(row.id), uid };
  }

  /** One run of the search's job, as a worker would do it once the job is due. */
  async function runNow(id: string): Promise<void> {
    await db.query('UPDATE eligibility_requests SET job_due_at = now() WHERE id = $1', [id]);
    await t.ctx.get(SearchRunner).run(id, `test-job-${++jobs}`);
  }

  async function state(id: string) {
    const [row] = await db.query(
      'SELECT status, error_code, attempts, insurer_outcomes FROM eligibility_requests WHERE id = $1',
      [id],
    );
    return row as {
      status: string;
      error_code: string | null;
      attempts: number;
      insurer_outcomes: Record<string, { kind: string }> | null;
    };
  }

  async function result(uid: string) {
    return JSON.parse(await t.ctx.get(EligibilityQueryService).getBody(accountId, uid, 'v2'));
  }

  it('Universal Search: a retry asks again only the insurer that was unavailable', async () => {
    vsp.replies = ['unavailable'];
    const { id, uid } = await accept([EYE_MED, VSP]);

    await runNow(id);
    expect(await state(id)).toMatchObject({
      status: 'processing',
      attempts: 1,
      insurer_outcomes: { [EYE_MED]: { kind: 'found' } },
    });
    expect(Object.keys((await state(id)).insurer_outcomes!)).toEqual([EYE_MED]);

    await runNow(id);
    expect(eyeMed.calls).toHaveLength(1);
    expect(vsp.calls).toHaveLength(2);
    const body = await result(uid);
    expect(body.status).toBe('complete');
    expect(body.results.map((r: { insurer_code: string }) => r.insurer_code)).toEqual([
      EYE_MED,
      VSP,
    ]);
    expect((await state(id)).insurer_outcomes).toBeNull();
  });

  it('first_active: complete at the first active plan; an insurer not answered by then is not waited for, nor asked again', async () => {
    vsp.replies = ['hang'];
    const { id, uid } = await accept([VSP, EYE_MED], { wait_for: 'first_active' });
    const started = Date.now();
    await runNow(id);
    // VSP hangs until its 200 ms timeout; the run ended at EyeMed's plan, before it.
    expect(Date.now() - started).toBeLessThan(10_000);
    const body = await result(uid);
    expect(body.status).toBe('complete');
    expect(body.results.map((r: { insurer_code: string }) => r.insurer_code)).toEqual([EYE_MED]);
    expect(body.insurers.map((e: { state: string }) => e.state)).toEqual(['not_asked', 'found']);
    expect(body.insurers[0].detail).toBe('Not waited for: an active plan was found with EyeMed.');
    expect(body.insurers[0].finished_at).toEqual(expect.any(String));
    await runNow(id);
    expect(vsp.calls).toHaveLength(1);
  });

  it('first_active: a retry after an active plan asks nobody again; without it the unavailable insurer is retried', async () => {
    vsp.replies = ['unavailable', 'unavailable'];
    eyeMed.replies = ['found', 'found'];
    const first = await accept([VSP, EYE_MED], { wait_for: 'first_active' });
    const all = await accept([VSP, EYE_MED]);
    await runNow(first.id);
    await runNow(all.id);
    expect((await result(first.uid)).status).toBe('complete');
    // The default waits for every insurer: VSP is asked again after its backoff.
    expect(await state(all.id)).toMatchObject({ status: 'processing', attempts: 1 });
    const processing = await result(all.uid);
    expect(processing.insurers.map((e: { state: string }) => e.state)).toEqual([
      'running',
      'found',
    ]);
    expect(vsp.calls).toHaveLength(2);
  });

  it('after the last attempt completes with what was found; the found insurer was asked once', async () => {
    vsp.defaultReply = 'unavailable';
    const { id, uid } = await accept([EYE_MED, VSP]);
    for (let i = 0; i < MAX_SEARCH_ATTEMPTS; i++) await runNow(id);
    const body = await result(uid);
    expect(body.status).toBe('complete');
    expect(body.results.map((r: { insurer_code: string }) => r.insurer_code)).toEqual([EYE_MED]);
    expect(eyeMed.calls).toHaveLength(1);
    expect(vsp.calls).toHaveLength(MAX_SEARCH_ATTEMPTS);
    expect((await state(id)).attempts).toBe(MAX_SEARCH_ATTEMPTS);
  });

  it('a connector that never answers times out as unavailable, is retried, then ends insurer_problem', async () => {
    vsp.defaultReply = 'hang';
    const { id, uid } = await accept([VSP]);
    for (let i = 1; i < MAX_SEARCH_ATTEMPTS; i++) {
      await runNow(id);
      expect(await state(id)).toMatchObject({ status: 'processing', attempts: i });
    }
    await runNow(id);
    expect(await result(uid)).toEqual({
      request_uid: uid,
      origin: null,
      status: 'error',
      error_code: 'insurer_problem',
      error_detail: expect.stringMatching(/^The insurer could not be asked/),
      results: null,
      insurers: [
        {
          insurer_code: VSP,
          state: 'failed',
          result_ids: [],
          detail: 'VSP Vision Care could not be reached.',
          finished_at: expect.any(String),
          verification: null,
        },
      ],
    });
    expect(vsp.calls).toHaveLength(MAX_SEARCH_ATTEMPTS);
    // Every call is given an abort signal that fires at the timeout.
    expect(vsp.calls.every((c) => c.context.signal instanceof AbortSignal)).toBe(true);
    expect(vsp.calls[0].context.signal.aborted).toBe(true);
  });

  it('a broken connector beside an unavailable one ends unexpected_error without asking it again', async () => {
    vsp.defaultReply = 'unavailable';
    eyeMed.defaultReply = 'broken';
    const { id, uid } = await accept([EYE_MED, VSP]);
    for (let i = 0; i < MAX_SEARCH_ATTEMPTS; i++) await runNow(id);
    expect((await result(uid)).error_code).toBe('unexpected_error');
    expect(eyeMed.calls).toHaveLength(1);
  });

  it('a deferral is not an attempt, and keeps what another insurer found', async () => {
    vsp.replies = [{ deferMs: 60_000 }];
    const { id, uid } = await accept([EYE_MED, VSP]);
    await runNow(id);
    expect(await state(id)).toMatchObject({ status: 'processing', attempts: 0 });
    const [due] = await db.query(
      `SELECT job_due_at > now() + interval '50 seconds' AS later FROM eligibility_requests WHERE id = $1`,
      [id],
    );
    expect(due.later).toBe(true);
    await runNow(id);
    expect((await result(uid)).status).toBe('complete');
    expect(eyeMed.calls).toHaveLength(1);
    expect(vsp.calls).toHaveLength(2);
  });

  it('finishes a request once when two finishers race; the loser stores nothing', async () => {
    vsp.defaultReply = 'unavailable';
    const { id, uid } = await accept([VSP]);
    const plan = (await t.ctx
      .get(InsurerRegistry)
      .get('insurer:demo:vision')!
      .search(
        {
          firstName: 'Ann',
          lastName: 'Lee',
          dob: '1980-01-01',
          zipcode: '78701',
          ssnLastFour: null,
          memberId: null,
        },
        {} as never,
      )) as { kind: 'found'; plans: InsurerPlanResult[] };
    const found = [{ code: VSP, plan: plan.plans[0] }];
    const results = t.ctx.get(SearchFinisher);
    const progress = { codes: [VSP], outcomes: {} };
    const outcomes = await Promise.all([
      results.complete(id, found, progress),
      results.complete(id, found, progress),
    ]);
    expect(outcomes.sort()).toEqual([false, true]);
    expect(await results.fail(id, 'unexpected_error', null)).toBe(false);
    const [{ count }] = await db.query(
      'SELECT count(*)::int AS count FROM eligibility_results WHERE request_id = $1',
      [id],
    );
    expect(count).toBe(1);
    const body = await result(uid);
    expect(body.status).toBe('complete');
    expect(body.results).toHaveLength(1);
    expect(body.results[0].persons.length).toBe(plan.plans[0].persons.length);
  });

  it('calls a payer holding one of its slots; the sandbox, answering in-process, takes none', async () => {
    const withSlot = jest.spyOn(t.ctx.get(InsurerSlots), 'withSlot');
    try {
      const payer = await accept([VSP]);
      await runNow(payer.id);
      expect((await result(payer.uid)).status).toBe('complete');
      expect(withSlot.mock.calls.map((c) => c[0])).toEqual([VSP]);
      withSlot.mockClear();
      const sandbox = await accept(['insurer:demo:vision']);
      await runNow(sandbox.id);
      expect((await result(sandbox.uid)).status).toBe('complete');
      expect(withSlot).not.toHaveBeenCalled();
    } finally {
      withSlot.mockRestore();
    }
  });

  it("gives each call the account's credentials and the location's identity, read with the lease", async () => {
    const settings = t.ctx.get(InsurerSettingsService);
    await settings.setCredentials(accountId, VSP, 'practice-user', 's3cret-pw');
    await db.query(
      `UPDATE locations SET npi = '1234567893', organization_name = 'Clear Sight LLC', tax_id = '123456789'
       WHERE account_id = $1`,
      [accountId],
    );
    try {
      const { id } = await accept([VSP, EYE_MED]);
      await runNow(id);
      const provider = {
        npi: '1234567893',
        organizationName: 'Clear Sight LLC',
        taxId: '123456789',
      };
      expect(vsp.calls[0].context).toMatchObject({
        credentials: { username: 'practice-user', password: 's3cret-pw' },
        provider,
      });
      // EyeMed has no settings row: on, without credentials.
      expect(eyeMed.calls[0].context).toMatchObject({ credentials: null, provider });
      expect((await state(id)).status).toBe('complete');

      // Switched off for the account: not asked; no NPI: no provider identity.
      await settings.setEnabled(accountId, EYE_MED, false);
      await db.query('UPDATE locations SET npi = NULL WHERE account_id = $1', [accountId]);
      const second = await accept([VSP, EYE_MED]);
      await runNow(second.id);
      expect(eyeMed.calls).toHaveLength(1);
      expect(vsp.calls[1].context.provider).toBeNull();
    } finally {
      await settings.setEnabled(accountId, EYE_MED, true);
      await settings.deleteCredentials(accountId, VSP);
      await db.query(
        'UPDATE locations SET tax_id = NULL, organization_name = NULL WHERE account_id = $1',
        [accountId],
      );
    }
  });

  it('a run given its row as stored leased to it makes no lease; after half its lease, extends it first', async () => {
    const queue = t.ctx.get(SearchQueue);
    const { id } = await accept([VSP]);
    const row = await queue.leaseReturning(id, 'local-a', LEASED_REQUEST_COLUMNS, SEARCH_SETUP_SQL);
    expect(row).not.toBeNull();
    const long = Date.now() - queue.spec.leaseMs;
    // Stale, and the lease is another run's: nothing happens.
    await t.ctx.get(SearchRunner).run(id, 'local-b', 'single', { row, at: long });
    expect(vsp.calls).toHaveLength(0);
    // Stale, still its own: extended, then run.
    await t.ctx.get(SearchRunner).run(id, 'local-a', 'single', { row, at: long });
    expect(vsp.calls).toHaveLength(1);
    expect(await state(id)).toMatchObject({ status: 'complete', attempts: 1 });

    // Fresh: no lease round trip (the row is not even leased here), as when intake stored it so.
    const second = await accept([VSP]);
    const stored = await queryOne<LeasedRow>(
      db,
      sql`WITH leased AS (SELECT attempts + 1 AS attempt, ${LEASED_REQUEST_COLUMNS}
         FROM eligibility_requests WHERE id = ${second.id})
       SELECT leased.*, ${SEARCH_SETUP_SQL} FROM leased`,
    );
    await t.ctx
      .get(SearchRunner)
      .run(second.id, 'local-c', 'single', { row: stored!, at: Date.now() });
    expect(vsp.calls).toHaveLength(2);
    expect(await state(second.id)).toMatchObject({ status: 'complete', attempts: 0 });
  });

  it('leases: a second job is refused while the first holds the row; the same job may take it over', async () => {
    vsp.replies = [{ deferMs: 60_000 }];
    const { id } = await accept([VSP]);
    const queue = t.ctx.get(SearchQueue);
    expect(await queue.lease(id, 'job-a')).toBe(1);
    expect(await queue.lease(id, 'job-b')).toBeNull();
    // Bull hands a stalled job (its worker died) to another worker under the same id.
    expect(await queue.lease(id, 'job-a')).toBe(2);
    // A run by another job is a no-op: no insurer is asked.
    await t.ctx.get(SearchRunner).run(id, 'job-c');
    expect(vsp.calls).toHaveLength(0);
  });
});
