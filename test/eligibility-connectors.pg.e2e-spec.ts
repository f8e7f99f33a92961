import { createTestApp, TestApp } from './support/app';
import { DEMO, patient, startSearch, waitForResult } from './support/eligibility';
import { createAccount, TestAccount } from './support/factories';
import { fakeConnector, ScriptedConnector } from './support/fake-connector';
import { ERROR_DETAILS } from '@/modules/eligibility/domain/error-details';

const VSP = 'insurer:vision:vsp';
const FakeVsp = fakeConnector(VSP);

/** The whole route of a search (HTTP, queue, runner, results) with a scripted insurer beside the sandbox. */
describe('eligibility with a scripted insurer connector', () => {
  let t: TestApp;
  let a: TestAccount;
  let vsp: ScriptedConnector;

  beforeAll(async () => {
    t = await createTestApp({
      providers: [FakeVsp],
      env: { SEARCH_RETRY_BASE_MS: '50', INSURER_TIMEOUT_MS: '300' },
    });
    a = await createAccount(t.app);
    vsp = t.app.get(FakeVsp);
  });
  afterAll(() => t.close());
  beforeEach(() => vsp.reset());

  it('Universal Search with one insurer answering and one unavailable once: the retry asks only the latter', async () => {
    vsp.replies = ['unavailable'];
    const uid = await startSearch(t.app, a.auth, {
      insurer_code: undefined,
      insurer_code_list: [DEMO, VSP],
      patient: patient({ first_name: 'Mixed' }),
    });
    const body = await waitForResult(t.app, a.auth, uid);
    expect(body.status).toBe('complete');
    expect(body.results.map((r: { insurer_code: string }) => r.insurer_code)).toEqual([DEMO, VSP]);
    expect(vsp.calls).toHaveLength(2);
    expect(body.results[1].persons[0].first_name).toBe('Mixed');
  });

  it('an insurer that never answers ends the search insurer_problem after its retries', async () => {
    vsp.defaultReply = 'hang';
    const uid = await startSearch(t.app, a.auth, {
      insurer_code: VSP,
      patient: patient({ first_name: 'Silent' }),
    });
    expect(await waitForResult(t.app, a.auth, uid)).toEqual({
      request_uid: uid,
      origin: null,
      status: 'error',
      error_code: 'insurer_problem',
      error_detail: ERROR_DETAILS.insurer_problem,
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
    expect(vsp.calls).toHaveLength(4);
  });

  it('an insurer that rejects the practice setup ends insurer_problem at once, without retries', async () => {
    vsp.defaultReply = 'rejected';
    const uid = await startSearch(t.app, a.auth, {
      insurer_code: VSP,
      patient: patient({ first_name: 'Setup' }),
    });
    expect(await waitForResult(t.app, a.auth, uid)).toEqual({
      request_uid: uid,
      origin: null,
      status: 'error',
      error_code: 'insurer_problem',
      error_detail: ERROR_DETAILS.insurer_problem,
      results: null,
      insurers: [
        {
          insurer_code: VSP,
          state: 'failed',
          result_ids: [],
          detail: "VSP Vision Care refused the practice's set-up.",
          finished_at: expect.any(String),
          verification: null,
        },
      ],
    });
    expect(vsp.calls).toHaveLength(1);
    expect(vsp.calls[0].context).toMatchObject({ insurerCode: VSP, provider: null });
    expect(vsp.calls[0].context.deadline).toBeGreaterThan(Date.now() - 60_000);
  });

  it('Universal Search: an insurer that knows no such member adds no result', async () => {
    vsp.defaultReply = 'not_found';
    const uid = await startSearch(t.app, a.auth, {
      insurer_code: undefined,
      insurer_code_list: [DEMO, VSP],
      patient: patient({ first_name: 'Nobody' }),
    });
    const body = await waitForResult(t.app, a.auth, uid);
    expect(body.status).toBe('complete');
    expect(body.results.map((r: { insurer_code: string }) => r.insurer_code)).toEqual([DEMO]);
    expect(vsp.calls).toHaveLength(1);
  });
});
