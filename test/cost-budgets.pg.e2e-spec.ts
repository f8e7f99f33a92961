import request from 'supertest';
import { MAX_BATCH_ITEMS } from '@/modules/eligibility/api/dto/create-batch.dto';
import { loadConfig } from '@/platform/config/env';
import { createTestApp, TestApp } from './support/app';
import { DEMO, patient } from './support/eligibility';
import { createAccount } from './support/factories';
import { csrfOf, signIn } from './support/web-sign-in';

const BATCHES = '/api/auth/v1/eligibility/batches/';
const NEXT_ELIGIBLE = '/api/auth/v1/benefits/next-eligible/';

const items = (tag: string, n: number) =>
  Array.from({ length: n }, (_, i) => ({
    insurer_code: DEMO,
    request_uid: `${tag}-${i}`,
    patient: patient({ first_name: `Maria${i}`, member_id: `M${i}` }),
  }));

/** A question costing `history + 1`: one rule and `history` services on record. */
const question = (history: number) => ({
  as_of: '2026-06-01',
  rules: [
    { benefit_code: 'exam.routine', frequency: { count: 1, period: { kind: 'calendar_year' } } },
  ],
  history: Array.from({ length: history }, (_, i) => ({
    benefit_code: 'exam.routine',
    date: `2025-01-${String(1 + (i % 28)).padStart(2, '0')}`,
  })),
});

function expectThrottled(res: request.Response, atMostSeconds: number): void {
  expect(res.status).toBe(429);
  expect(res.body).toEqual({
    detail: expect.stringMatching(/^Request was throttled\. Expected available in \d+ seconds\.$/),
  });
  const seconds = Number(/in (\d+) seconds/.exec(res.body.detail)![1]);
  expect(seconds).toBeGreaterThanOrEqual(1);
  expect(seconds).toBeLessThanOrEqual(atMostSeconds);
  expect(res.headers['retry-after']).toBe(String(seconds));
}

/** docs/api.md, Conventions: heavy requests count by their cost, per key. */
describe('cost budgets of heavy requests', () => {
  let t: TestApp;
  const http = () => request(t.app.getHttpServer());

  beforeAll(async () => {
    // Small budgets stand in for the defaults (two full batches an hour), to keep the test fast.
    t = await createTestApp({
      env: { BATCH_ITEMS_PER_HOUR: '15', NEXT_ELIGIBLE_COST_PER_MINUTE: '30' },
    });
  });
  afterAll(() => t.close());

  it('by default admits the largest batch the API takes, twice an hour per key', () => {
    expect(loadConfig({}).costLimits.batchItemsPerHour).toBe(2 * MAX_BATCH_ITEMS);
  });

  it("refuses a key's second batch past its hourly items with 429 and Retry-After, storing nothing", async () => {
    const a = await createAccount(t.app);
    const b = await createAccount(t.app);
    const first = await http()
      .post(BATCHES)
      .set(a.auth)
      .send({ items: items('one', 10), batch_uid: 'one' });
    expect(first.status).toBe(201);
    expect(first.body.count).toBe(10);

    const second = await http()
      .post(BATCHES)
      .set(a.auth)
      .send({ items: items('two', 10), batch_uid: 'two' });
    expectThrottled(second, 3_600);
    expect((await http().get(`${BATCHES}two/`).set(a.auth)).status).toBe(404);
    expect((await http().get('/api/auth/v1/eligibility/two-0/').set(a.auth)).status).toBe(404);

    // The refused batch spent nothing: the 5 items left still fit; one more does not.
    const rest = await http()
      .post(BATCHES)
      .set(a.auth)
      .send({ items: items('rest', 5) });
    expect(rest.status).toBe(201);
    expectThrottled(
      await http()
        .post(BATCHES)
        .set(a.auth)
        .send({ items: items('more', 1) }),
      3_600,
    );
    // Other requests of the key are not refused (the request limit is another budget).
    expect((await http().get(`${BATCHES}one/`).set(a.auth)).status).toBe(200);
    // Another key has its own budget.
    expect(
      (
        await http()
          .post(BATCHES)
          .set(b.auth)
          .send({ items: items('b', 10) })
      ).status,
    ).toBe(201);
  });

  it('spends nothing on a batch refused as invalid', async () => {
    const a = await createAccount(t.app);
    const invalid = items('bad', 10);
    delete (invalid[3].patient as Record<string, unknown>).dob;
    expect((await http().post(BATCHES).set(a.auth).send({ items: invalid })).status).toBe(400);
    expect(
      (
        await http()
          .post(BATCHES)
          .set(a.auth)
          .send({ items: items('good', 15) })
      ).status,
    ).toBe(201);
  });

  it("counts next-eligible's rules and history entries against the key's minute", async () => {
    const a = await createAccount(t.app);
    const b = await createAccount(t.app);
    // Cost 20 of 30: passes; another 20 does not; 10 still does.
    expect((await http().post(NEXT_ELIGIBLE).set(a.auth).send(question(19))).status).toBe(200);
    expectThrottled(await http().post(NEXT_ELIGIBLE).set(a.auth).send(question(19)), 60);
    expect((await http().post(NEXT_ELIGIBLE).set(a.auth).send(question(9))).status).toBe(200);
    expectThrottled(await http().post(NEXT_ELIGIBLE).set(a.auth).send(question(0)), 60);
    expect((await http().post(NEXT_ELIGIBLE).set(b.auth).send(question(29))).status).toBe(200);
  });

  it("counts a web user's CSV batches against the user's own hourly budget, and says so on the page", async () => {
    const a = await createAccount(t.app);
    const { agent } = await signIn(t.app, a.email, a.password);
    const csv = (n: number) =>
      [
        'first_name,last_name,dob,zipcode,member_id,insurer_code',
        ...Array.from({ length: n }, (_, i) => `Ana${i},Lee,1984-06-15,78701,W${i},${DEMO}`),
      ].join('\n');
    const upload = async (n: number) => {
      const page = await agent.get('/app/batches/').expect(200);
      return agent
        .post('/app/batches/')
        .field('_csrf', csrfOf(page.text))
        .attach('file', Buffer.from(csv(n)), { filename: 'p.csv', contentType: 'text/csv' });
    };
    expect((await upload(10)).status).toBe(303);
    const refused = await upload(10);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(/id="upload-throttled"[\s\S]*?<\/div>/.exec(refused.text)![0]).toContain(
      'This hour&#39;s batch checks are used up; nothing was checked.',
    );
    // The account's key has a budget of its own.
    expect(
      (
        await http()
          .post(BATCHES)
          .set(a.auth)
          .send({ items: items('key', 10) })
      ).status,
    ).toBe(201);
  });
});
