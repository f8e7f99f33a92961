import request from 'supertest';
import { DataSource } from 'typeorm';
import { createTestApp, TestApp } from './support/app';
import { patient, waitForResult } from './support/eligibility';
import { createAccount, TestAccount } from './support/factories';
import { FakeClearinghouse } from './support/fake-clearinghouse';

const DAVIS = 'insurer:vision:davis_vision';
const HEALTH = '/api/auth/v1/insurers/health/';
const API_KEY = 'ch-key-health';
const IDENTITY = {
  npi: '1234567893',
  organization_name: 'Bright Eyes Optometry',
  tax_id: '741234567',
};
/** How long the slowed clearinghouse waits before it answers. */
const SLOW_MS = 1500;

/**
 * docs/api.md, Insurer health: an X12 insurer behind a fake clearinghouse on loopback answers
 * fast, then slowly, then fails; the account's health shows the slowdown in p95, the failures
 * in the share answered and the latest error's kind and time; another account sees none of it,
 * and calls older than the hour drop out.
 */
describe('insurer health (fake clearinghouse on loopback)', () => {
  let fake: FakeClearinghouse;
  let t: TestApp;
  let a: TestAccount;
  let b: TestAccount;
  let db: DataSource;
  let n = 0;
  const http = () => request(t.app.getHttpServer());

  /** One search of Davis Vision for a patient of its own; waits for its end. */
  async function search(who: TestAccount): Promise<any> {
    n += 1;
    const res = await http()
      .post('/api/auth/v1/eligibility/')
      .set(who.auth)
      .send({
        insurer_code: DAVIS,
        patient: patient({ last_name: `Health${n}`, member_id: `DV${1000 + n}` }),
      })
      .expect(201);
    return waitForResult(t.app, who.auth, res.body.request_uid as string);
  }

  async function health(who: TestAccount): Promise<{ body: any; davis: any }> {
    const res = await http().get(HEALTH).set(who.auth).expect(200);
    return { body: res.body, davis: res.body.result.find((e: any) => e.insurer_code === DAVIS) };
  }

  const ZERO = {
    insurer_code: DAVIS,
    name: 'Davis Vision',
    searches: 0,
    calls: 0,
    answered_share: null,
    p50_seconds: null,
    p95_seconds: null,
    last_error: null,
  };

  beforeAll(async () => {
    fake = await FakeClearinghouse.start({ apiKey: API_KEY });
    t = await createTestApp({
      env: {
        CLEARINGHOUSE_ELIGIBILITY_URL: fake.eligibilityUrl,
        CLEARINGHOUSE_API_KEY: API_KEY,
        X12_SUBMITTER_ID: 'VISIONELIG',
        X12_RECEIVER_ID: 'CLEARINGHOUSE',
        SEARCH_RETRY_BASE_MS: '20',
        // Well above SLOW_MS: the slowed calls are answered, not abandoned.
        INSURER_TIMEOUT_MS: '15000',
      },
    });
    db = t.app.get(DataSource);
    a = await createAccount(t.app);
    b = await createAccount(t.app);
    for (const who of [a, b])
      await http()
        .patch(`/api/auth/v1/locations/${who.locationCode}/`)
        .set(who.auth)
        .send(IDENTITY)
        .expect(200);
  });
  afterAll(async () => {
    await t.close();
    await fake.close();
  });

  it('lists every insurer of the directory, with zeros and nulls before any call', async () => {
    const { body, davis } = await health(a);
    const directory = await http().get('/api/auth/v1/insurers/').set(a.auth).expect(200);
    expect(body.window_seconds).toBe(3600);
    expect(Math.abs(Date.parse(body.as_of) - Date.now())).toBeLessThan(60_000);
    expect(body.result.map((e: any) => [e.insurer_code, e.name])).toEqual(
      directory.body.result.map((e: any) => [e.insurer_code, e.name]),
    );
    expect(davis).toEqual(ZERO);
  });

  it("shows the clearinghouse's slowdown in p95, its failures' kind and time, to the account alone", async () => {
    // Fast: answered at once.
    for (let i = 0; i < 4; i++) expect((await search(a)).status).toBe('complete');
    const fast = await health(a);
    expect(fast.davis).toMatchObject({
      searches: 4,
      calls: 4,
      answered_share: 1,
      last_error: null,
    });

    // Slowed: three calls answered after SLOW_MS each.
    fake.answer(...[1, 2, 3].map(() => ({ kind: 'slow' as const, delayMs: SLOW_MS })));
    for (let i = 0; i < 3; i++) expect((await search(a)).status).toBe('complete');
    const slow = await health(a);
    expect(slow.davis).toMatchObject({
      searches: 7,
      calls: 7,
      answered_share: 1,
      last_error: null,
    });
    // Of 7 calls, p50 is the 4th shortest (a fast one), p95 lies between the two longest, which
    // the fake held for SLOW_MS each.
    const durations: number[] = (
      await db.query(
        `SELECT duration_ms FROM insurer_exchanges WHERE account_id = $1 ORDER BY duration_ms`,
        [a.accountId],
      )
    ).map((r: { duration_ms: number }) => r.duration_ms);
    expect(durations).toHaveLength(7);
    expect(durations.slice(4).every((ms) => ms >= SLOW_MS)).toBe(true);
    expect(slow.davis.p50_seconds).toBe(durations[3] / 1000);
    expect(slow.davis.p95_seconds).toBeGreaterThanOrEqual(SLOW_MS / 1000);
    expect(slow.davis.p95_seconds).toBeGreaterThan(slow.davis.p50_seconds);

    // Failing: HTTP 500 (unavailable, retried: the retry answers), then an AAA 43 rejection.
    const beforeFailure = Date.now();
    fake.answer(
      { kind: 'http', status: 500, body: 'patient Health9 made us fail' },
      { kind: 'found' },
    );
    expect((await search(a)).status).toBe('complete');
    const afterUnavailable = Date.now();
    const unavailable = await health(a);
    expect(unavailable.davis).toMatchObject({
      searches: 8,
      calls: 9,
      answered_share: 0.889,
      last_error: { kind: 'unavailable' },
    });
    const at = Date.parse(unavailable.davis.last_error.at);
    expect(at).toBeGreaterThanOrEqual(beforeFailure - 1000);
    expect(at).toBeLessThanOrEqual(afterUnavailable + 1000);

    fake.answer({ kind: 'aaa', loop: '2100B', reason: '43', followUp: 'C' });
    expect(await search(a)).toMatchObject({ status: 'error', error_code: 'insurer_problem' });
    const rejected = await health(a);
    expect(rejected.davis).toMatchObject({
      searches: 9,
      calls: 10,
      answered_share: 0.8,
      last_error: { kind: 'rejected' },
    });
    expect(Date.parse(rejected.davis.last_error.at)).toBeGreaterThanOrEqual(at);
    // Every call the clearinghouse received is counted, once.
    expect(fake.calls).toHaveLength(10);
    // Kinds and times only: what the clearinghouse said is not in the answer.
    expect(Object.keys(rejected.davis.last_error).sort()).toEqual(['at', 'kind']);
    const errors: { error: string }[] = await db.query(
      `SELECT error FROM insurer_exchanges WHERE account_id = $1 AND error IS NOT NULL`,
      [a.accountId],
    );
    expect(errors.length).toBeGreaterThanOrEqual(2);
    for (const { error } of errors) expect(JSON.stringify(rejected.body)).not.toContain(error);

    // Another account: its own zeros.
    expect((await health(b)).davis).toEqual(ZERO);
  });

  it('counts no call that started more than an hour ago', async () => {
    const before = (await health(a)).davis;
    expect(before.calls).toBeGreaterThan(0);
    // The failed calls (HTTP 500, AAA 43) moved to 61 minutes ago.
    await db.query(
      `UPDATE insurer_exchanges SET started_at = now() - interval '61 minutes'
       WHERE account_id = $1 AND outcome IN ('unavailable', 'rejected')`,
      [a.accountId],
    );
    const after = (await health(a)).davis;
    expect(after).toMatchObject({
      searches: before.searches - 1,
      calls: before.calls - 2,
      answered_share: 1,
      last_error: null,
    });
    // Everything moved out of the window: the account's zeros again.
    await db.query(
      `UPDATE insurer_exchanges SET started_at = now() - interval '2 hours' WHERE account_id = $1`,
      [a.accountId],
    );
    expect((await health(a)).davis).toEqual(ZERO);
  });
});
