import request from 'supertest';
import { createTestApp, TestApp } from './support/app';
import { DEMO, patient, startSearch } from './support/eligibility';
import { createAccount, TestAccount } from './support/factories';
import { waitUntil } from './support/queues';
import { TestReceiver } from './support/receiver';

const BATCHES = '/api/auth/v1/eligibility/batches/';

function item(i: number, extra: Record<string, unknown> = {}) {
  return {
    insurer_code: DEMO,
    request_uid: `item-${i}`,
    patient: patient({ first_name: `Maria${i}`, member_id: `M${i}` }),
    ...extra,
  };
}

/** docs/api.md, Batches: batch eligibility. */
describe('eligibility batches', () => {
  let t: TestApp;
  let a: TestAccount;
  const receiver = new TestReceiver();
  const http = () => request(t.app.getHttpServer());

  beforeAll(async () => {
    await receiver.start();
    t = await createTestApp({ env: { BATCH_CONCURRENCY: '20', INSURER_CONCURRENCY: '16' } });
    a = await createAccount(t.app);
  });
  afterAll(async () => {
    await t.close();
    await receiver.stop();
  });

  async function waitForBatch(auth: TestAccount['auth'], uid: string, timeoutMs = 30_000) {
    return waitUntil(
      `batch ${uid} to complete`,
      async () => {
        const res = await http().get(`${BATCHES}${uid}/`).set(auth);
        expect(res.status).toBe(200);
        return res.body.status === 'complete' ? res.body : undefined;
      },
      timeoutMs,
    );
  }

  async function allItems(auth: TestAccount['auth'], uid: string, limit: number) {
    const seen: { request_uid: string; status: string; error_code: string | null }[] = [];
    let cursor: string | null = null;
    do {
      const res: request.Response = await http()
        .get(`${BATCHES}${uid}/items/`)
        .query(cursor ? { limit, cursor } : { limit })
        .set(auth);
      expect(res.status).toBe(200);
      expect(res.body.result.length).toBeLessThanOrEqual(limit);
      seen.push(...res.body.result);
      cursor = res.body.next_cursor;
    } while (cursor);
    return seen;
  }

  it('accepts a 10,000-item batch, completes every item, and pages through each item once', async () => {
    // Mostly `not_found` (complete, no plan: the cheapest result to store, for CI's sake), every
    // tenth with a plan, and ten that end in error: the counts must say so.
    const name = (i: number) =>
      i % 1000 === 7 ? `in_err_int${i}` : i % 10 === 0 ? `Maria${i}` : `not_found${i}`;
    const items = Array.from({ length: 10_000 }, (_, i) =>
      item(i, { patient: patient({ first_name: name(i) }) }),
    );
    const t0 = Date.now();
    const res = await http().post(BATCHES).set(a.auth).send({ items, batch_uid: 'big-batch' });
    const acceptMs = Date.now() - t0;
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ batch_uid: 'big-batch', status: 'processing', count: 10_000 });

    const done = await waitForBatch(a.auth, 'big-batch', 600_000);
    // For the CI log (not a test condition: timings belong to the bench).
    process.stderr.write(
      `batch of 10,000: accepted in ${acceptMs} ms, finished in ${Date.now() - t0} ms\n`,
    );
    expect(done).toEqual({
      batch_uid: 'big-batch',
      status: 'complete',
      count: 10_000,
      counts: { processing: 0, complete: 9_990, error: 10 },
      created_at: expect.any(String),
      completed_at: expect.any(String),
    });
    const seen = await allItems(a.auth, 'big-batch', 1000);
    expect(seen).toHaveLength(10_000);
    // Once each, in upload order.
    expect(seen.map((s) => s.request_uid)).toEqual(items.map((i) => i.request_uid));
    expect(seen.filter((s) => s.status === 'error')).toEqual(
      Array.from({ length: 10 }, (_, k) => ({
        request_uid: `item-${k * 1000 + 7}`,
        status: 'error',
        error_code: 'unexpected_error',
      })),
    );
    // Every item is an ordinary eligibility request.
    const one = await http().get('/api/auth/v2/eligibility/item-40/').set(a.auth);
    expect(one.body).toMatchObject({ request_uid: 'item-40', status: 'complete' });
    expect(one.body.results).toHaveLength(1);
  }, 600_000);

  it('refuses a batch with one invalid item among 500, keyed by its index', async () => {
    const items = Array.from({ length: 500 }, (_, i) => item(100_000 + i));
    items[17] = item(17, { patient: { ...patient(), dob: '15/06/1984' } });
    const res = await http().post(BATCHES).set(a.auth).send({ items, batch_uid: 'refused' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      errors: {
        items: { '17': { patient: { dob: { $: ['Date has wrong format. Use YYYY-MM-DD.'] } } } },
      },
    });
    // Nothing of it was stored.
    expect((await http().get(`${BATCHES}refused/`).set(a.auth)).status).toBe(404);
    expect((await http().get('/api/auth/v1/eligibility/item-100000/').set(a.auth)).status).toBe(
      404,
    );
  });

  it("reports every item's intake errors together: insurers, locations, duplicate uids", async () => {
    const b = await createAccount(t.app);
    await startSearch(t.app, b.auth, { request_uid: 'taken', patient: patient() });
    const res = await http()
      .post(BATCHES)
      .set(b.auth)
      .send({
        items: [
          item(0),
          item(1, { insurer_code: 'insurer:vision:nope' }),
          item(2, { request_uid: 'item-0' }),
          item(3, { request_uid: 'taken' }),
          item(4, { location_code: 'LOCNOPE0000' }),
          item(5, { insurer_code: null }),
        ],
      });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      errors: {
        items: {
          '1': { $: ['Unknown insurer code: insurer:vision:nope.'] },
          '2': { request_uid: { $: ['Duplicate of items.0.request_uid in this batch.'] } },
          '3': {
            request_uid: { $: ['Eligibility request with this request uid already exists.'] },
          },
          '4': { location_code: { $: ['Location LOCNOPE0000 does not exist.'] } },
          '5': { insurer_code: { $: ['This field is required.'] } },
        },
      },
    });
  });

  it.each([
    [{}, { items: { $: ['This field is required.'] } }],
    [{ items: [] }, { items: { $: ['Ensure this field has at least 1 elements.'] } }],
    [{ items: 'x' }, { items: { $: ['Expected a list of items.'] } }],
  ])('refuses %j with a field error', async (body, errors) => {
    const res = await http().post(BATCHES).set(a.auth).send(body);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ errors });
  });

  it('refuses more than 10,000 items, and a batch_uid used before', async () => {
    const over = await http()
      .post(BATCHES)
      .set(a.auth)
      .send({ items: Array.from({ length: 10_001 }, () => ({})) });
    expect(over.status).toBe(400);
    expect(over.body).toEqual({
      errors: { items: { $: ['Ensure this field has no more than 10000 elements.'] } },
    });
    const first = await http()
      .post(BATCHES)
      .set(a.auth)
      .send({ items: [item(200_000)], batch_uid: 'twice' });
    expect(first.status).toBe(201);
    const again = await http()
      .post(BATCHES)
      .set(a.auth)
      .send({ items: [item(200_001)], batch_uid: 'twice' });
    expect(again.status).toBe(400);
    expect(again.body).toEqual({
      errors: { batch_uid: { $: ['Eligibility batch with this batch uid already exists.'] } },
    });
  });

  it('takes bodies up to 16 MiB on this route only', async () => {
    const padding = 'x'.repeat(2 * 1024 * 1024);
    // Unknown fields are ignored, so a 2 MiB item body is still a valid batch.
    const big = await http()
      .post(BATCHES)
      .set(a.auth)
      .send({ items: [{ ...item(300_000), note: padding }] });
    expect(big.status).toBe(201);
    const single = await http()
      .post('/api/auth/v1/eligibility/')
      .set(a.auth)
      .send({ ...item(300_001), note: padding });
    expect(single.status).toBe(413);
    const tooBig = await http()
      .post(BATCHES)
      .set(a.auth)
      .set('Content-Type', 'application/json')
      .send(JSON.stringify({ items: [item(300_002)], note: 'y'.repeat(17 * 1024 * 1024) }));
    expect(tooBig.status).toBe(413);
    expect(tooBig.body).toEqual({ detail: 'Request body too large.' });
  });

  it("answers another account's or an unknown batch as not found", async () => {
    const own = await http()
      .post(BATCHES)
      .set(a.auth)
      .send({ items: [item(500_000)], batch_uid: 'paged' });
    expect(own.status).toBe(201);
    const other = await createAccount(t.app);
    for (const path of [`${BATCHES}paged/`, `${BATCHES}paged/items/`, `${BATCHES}nope/`]) {
      const res = await http().get(path).set(other.auth);
      expect(res.status).toBe(404);
    }
    const res = await http().get(`${BATCHES}paged/`).set(other.auth);
    expect(res.body).toEqual({ detail: 'Batch paged not found.' });
    const bad = await http().get(`${BATCHES}paged/items/`).query({ cursor: '!!' }).set(a.auth);
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ errors: { cursor: { $: ['Invalid cursor.'] } } });
  });

  it('delivers the batch to webhooks subscribed to batch, once, when it completes', async () => {
    const c = await createAccount(t.app);
    for (const [path, events] of [
      ['/batch', ['batch']],
      ['/eligibility', ['eligibility']],
    ] as const) {
      const hook = await http()
        .post('/api/auth/v1/webhooks/')
        .set(c.auth)
        .send({ url: receiver.url(path), events });
      expect(hook.status).toBe(201);
    }
    const items = Array.from({ length: 30 }, (_, i) => item(400_000 + i));
    const res = await http().post(BATCHES).set(c.auth).send({ items, batch_uid: 'hooked' });
    expect(res.status).toBe(201);
    const done = await waitForBatch(c.auth, 'hooked');
    const [delivered] = await receiver.waitFor('/batch', 1);
    expect(delivered.headers['x-event-type']).toBe('eligibility.batch_finished');
    expect(JSON.parse(delivered.raw.toString())).toEqual(done);
    // Each item is delivered to eligibility webhooks as a single request would be.
    await receiver.waitFor('/eligibility', 30);
    const batchLog = await waitUntil('the batch delivery to succeed', async () => {
      const hooks = await http().get('/api/auth/v1/webhooks/').set(c.auth);
      const id = hooks.body.result.find((h: { events: string[] }) => h.events.includes('batch')).id;
      const log = await http().get(`/api/auth/v1/webhooks/${id}/deliveries/`).set(c.auth);
      return log.body.result[0]?.status === 'succeeded' ? log.body.result : undefined;
    });
    expect(batchLog).toHaveLength(1);
    expect(receiver.forPath('/batch')).toHaveLength(1);
  });
});
