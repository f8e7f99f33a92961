import { createHmac } from 'node:crypto';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { DELIVERY_QUEUE } from '@/modules/webhooks/jobs/delivery.queue';
import { createTestApp, TestApp } from './support/app';
import { patient, startSearch, waitForResult } from './support/eligibility';
import { createAccount, TestAccount } from './support/factories';
import { waitForIdleQueue } from './support/queues';
import { TestReceiver } from './support/receiver';
import { ERROR_DETAILS } from '@/modules/eligibility/domain/error-details';

const hmacHex = (secret: string, raw: Buffer) =>
  createHmac('sha256', secret).update(raw).digest('hex');

async function waitForDelivery(
  t: TestApp,
  a: TestAccount,
  webhookId: string,
  predicate: (d: any) => boolean,
  timeoutMs = 15_000,
) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await request(t.app.getHttpServer())
      .get(`/api/auth/v1/webhooks/${webhookId}/deliveries/`)
      .set(a.auth);
    const found = res.body.result?.find(predicate);
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`no matching delivery: ${JSON.stringify(res.body)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('webhooks: management and signed delivery', () => {
  let t: TestApp;
  let a: TestAccount;
  let b: TestAccount;
  const receiver = new TestReceiver();
  const http = () => request(t.app.getHttpServer());

  beforeAll(async () => {
    await receiver.start();
    t = await createTestApp({
      env: { WEBHOOK_RETRY_SCHEDULE: '0.2,0.2', SEARCH_RETRY_BASE_MS: '50' },
    });
    a = await createAccount(t.app);
    b = await createAccount(t.app);
  });
  afterAll(async () => {
    await t.close();
    await receiver.stop();
  });

  async function addWebhook(account: TestAccount, body: Record<string, unknown>) {
    const res = await http().post('/api/auth/v1/webhooks/').set(account.auth).send(body);
    expect(res.status).toBe(201);
    return res.body;
  }

  it('creates a webhook, shows the secret once, and stores it only encrypted', async () => {
    const created = await addWebhook(a, {
      url: receiver.url('/crud'),
      secret: 'my-shared-secret-1',
      description: 'PMS',
    });
    expect(created).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      url: receiver.url('/crud'),
      is_active: true,
      description: 'PMS',
      version: 'v2',
      events: ['eligibility'],
      has_secret: true,
      allow_nonstandard_port: false,
      secret: 'my-shared-secret-1',
      created_at: expect.stringMatching(/\+00:00$/),
      updated_at: expect.stringMatching(/\+00:00$/),
    });
    const got = await http().get(`/api/auth/v1/webhooks/${created.id}/`).set(a.auth);
    expect(got.body).toMatchObject({ has_secret: true, secret: null });
    const [row] = await t.app
      .get(DataSource)
      .query('SELECT * FROM webhooks WHERE id = $1', [created.id]);
    expect(JSON.stringify(row)).not.toContain('my-shared-secret-1');
    expect(row.secret_sealed).toMatch(/^v1\./);

    const rotated = await http()
      .patch(`/api/auth/v1/webhooks/${created.id}/`)
      .set(a.auth)
      .send({ rotate_secret: true });
    expect(rotated.status).toBe(200);
    expect(rotated.body.secret).toMatch(/^whsec_/);
    const removed = await http()
      .patch(`/api/auth/v1/webhooks/${created.id}/`)
      .set(a.auth)
      .send({ secret: null, is_active: false, version: 'v1' });
    expect(removed.body).toMatchObject({
      has_secret: false,
      secret: null,
      is_active: false,
      version: 'v1',
    });
    const list = await http().get('/api/auth/v1/webhooks/').set(a.auth);
    expect(list.body.result.map((w: any) => w.id)).toContain(created.id);
    expect((await http().delete(`/api/auth/v1/webhooks/${created.id}/`).set(a.auth)).status).toBe(
      204,
    );
    expect((await http().get(`/api/auth/v1/webhooks/${created.id}/`).set(a.auth)).status).toBe(404);
  });

  it('validates the webhook body', async () => {
    const res = await http()
      .post('/api/auth/v1/webhooks/')
      .set(a.auth)
      .send({ url: 'ftp://x.test/', version: 'v3', secret: 'short', is_active: 'yes' });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual({
      version: { $: ['"v3" is not a valid choice.', 'Allowed values: v1, v2.'] },
      secret: { $: ['Use 8 to 200 printable ASCII characters, no spaces.'] },
      is_active: { $: ['Must be a valid boolean.'] },
    });
    const scheme = await http()
      .post('/api/auth/v1/webhooks/')
      .set(a.auth)
      .send({ url: 'ftp://x.test/' });
    expect(scheme.body).toEqual({
      errors: { url: { $: ['Only http and https URLs are allowed.'] } },
    });
    const missing = await http().post('/api/auth/v1/webhooks/').set(a.auth).send({});
    expect(missing.body).toEqual({ errors: { url: { $: ['This field is required.'] } } });
  });

  it('delivers the exact GET bytes, signed, to every active webhook, and nothing to an inactive one', async () => {
    const secret = 'whsec_' + Buffer.from('a-standard-webhooks-key-32-bytes').toString('base64');
    const signed = await addWebhook(a, { url: receiver.url('/signed'), secret });
    const plain = await addWebhook(a, { url: receiver.url('/plain') });
    const v1 = await addWebhook(a, {
      url: receiver.url('/v1'),
      version: 'v1',
      secret: 'raw-secret-for-v1',
    });
    const inactive = await addWebhook(a, { url: receiver.url('/inactive'), is_active: false });
    const foreign = await addWebhook(b, { url: receiver.url('/other-account') });

    const uid = await startSearch(t.app, a.auth, { patient: patient({ member_id: 'NO_OON' }) });
    const [s] = await receiver.waitFor('/signed', 1);
    const [p] = await receiver.waitFor('/plain', 1);
    const [one] = await receiver.waitFor('/v1', 1);

    const v2Body = await http().get(`/api/auth/v2/eligibility/${uid}/`).set(a.auth);
    const v1Body = await http().get(`/api/auth/v1/eligibility/${uid}/`).set(a.auth);
    expect(s.raw.toString('utf8')).toBe(v2Body.text);
    expect(p.raw.toString('utf8')).toBe(v2Body.text);
    expect(one.raw.toString('utf8')).toBe(v1Body.text);
    const payload = JSON.parse(s.raw.toString('utf8'));
    expect(payload.request_uid).toBe(uid);
    expect(payload.results[0].persons[0].plan_token).toMatch(/^[0-9a-f]{64}$/); // inn person
    expect(JSON.parse(one.raw.toString('utf8')).results[0].persons[0]).not.toHaveProperty('plan');

    expect(s.headers['content-type']).toBe('application/json');
    expect(s.headers['user-agent']).toMatch(/^VisionEligibility-Webhooks\//);
    expect(s.headers['x-signature']).toBe(hmacHex(secret, s.raw));
    expect(one.headers['x-signature']).toBe(hmacHex('raw-secret-for-v1', one.raw));
    expect(p.headers['x-signature']).toBeUndefined();
    expect(p.headers['webhook-signature']).toBeUndefined();
    expect(s.headers['x-delivery-id']).toBe(s.headers['webhook-id']);

    // Standard Webhooks, checked with the reference library.
    expect(
      new StandardWebhook(secret).verify(
        s.raw.toString('utf8'),
        s.headers as Record<string, string>,
      ),
    ).toEqual(payload);
    expect(() =>
      new StandardWebhook('raw-secret-for-v1', { format: 'raw' }).verify(
        one.raw.toString('utf8'),
        one.headers as Record<string, string>,
      ),
    ).not.toThrow();
    expect(() =>
      new StandardWebhook(secret).verify(
        s.raw.toString('utf8') + ' ',
        s.headers as Record<string, string>,
      ),
    ).toThrow();

    // Deliveries are recorded in the transaction that finished the request: none now, none ever.
    const recorded: { webhook_id: string }[] = await t.app.get(DataSource).query(
      `SELECT d.webhook_id FROM webhook_deliveries d JOIN eligibility_requests r ON r.id = d.request_id
         WHERE r.uid = $1`,
      [uid],
    );
    expect(recorded.map((d) => d.webhook_id).sort()).toEqual([signed.id, plain.id, v1.id].sort());
    expect(recorded.map((d) => d.webhook_id)).not.toContain(inactive.id);
    expect(recorded.map((d) => d.webhook_id)).not.toContain(foreign.id);
    expect(receiver.forPath('/inactive')).toHaveLength(0);
    expect(receiver.forPath('/other-account')).toHaveLength(0);

    const delivery = await waitForDelivery(
      t,
      a,
      signed.id,
      (d) => d.request_uid === uid && d.status === 'succeeded',
    );
    expect(delivery).toMatchObject({
      event: 'eligibility.finished',
      attempt_count: 1,
      webhook_id: signed.id,
      next_attempt_at: null,
    });
    expect(delivery.attempts).toEqual([
      {
        started_at: expect.any(String),
        status_code: 200,
        duration_ms: expect.any(Number),
        error: null,
        response_body: '{"received":true,"status":200}',
        manual: false,
      },
    ]);
    expect(delivery.id).toBe(s.headers['x-delivery-id']);
    await waitForDelivery(t, a, plain.id, (d) => d.request_uid === uid);
    await waitForDelivery(t, a, v1.id, (d) => d.request_uid === uid);
  });

  it('delivers error results and details results too', async () => {
    await addWebhook(a, { url: receiver.url('/all') });
    const failed = await startSearch(t.app, a.auth, {
      patient: patient({ first_name: 'in_err_int' }),
    });
    const ok = await startSearch(t.app, a.auth, { patient: patient({ first_name: 'Detail' }) });
    const okBody = await waitForResult(t.app, a.auth, ok);
    const details = await request(t.app.getHttpServer())
      .post(`/api/auth/v1/eligibility/${ok}/details/`)
      .set(a.auth)
      .send({
        request_uid: ok,
        result_id: okBody.results[0].id,
        person_id: okBody.results[0].persons[0].id,
      });
    expect(details.status).toBe(201);
    await waitForResult(t.app, a.auth, details.body.request_uid);
    const got = await receiver.waitFor('/all', 3);
    const bodies = got.map((r) => JSON.parse(r.raw.toString('utf8')));
    expect(bodies.find((x) => x.request_uid === failed)).toEqual({
      request_uid: failed,
      origin: null,
      status: 'error',
      error_code: 'unexpected_error',
      error_detail: ERROR_DETAILS.unexpected_error,
      results: null,
      insurers: [expect.objectContaining({ insurer_code: 'insurer:demo:vision', state: 'failed' })],
    });
    const detailBody = bodies.find((x) => x.request_uid === details.body.request_uid);
    expect(detailBody.status).toBe('complete');
    expect(detailBody.results[0].persons).toHaveLength(1);
  });

  it('answers 404 to another account for every webhook route, like a missing webhook', async () => {
    const mine = await addWebhook(a, { url: receiver.url('/iso') });
    const uid = await startSearch(t.app, a.auth, { patient: patient() });
    await receiver.waitFor('/iso', 1);
    const delivery = await waitForDelivery(t, a, mine.id, (d) => d.request_uid === uid);
    const missing = '00000000-0000-4000-8000-000000000000';
    for (const [method, path] of [
      ['get', `/api/auth/v1/webhooks/${mine.id}/`],
      ['patch', `/api/auth/v1/webhooks/${mine.id}/`],
      ['delete', `/api/auth/v1/webhooks/${mine.id}/`],
      ['get', `/api/auth/v1/webhooks/${mine.id}/deliveries/`],
      ['post', `/api/auth/v1/webhooks/${mine.id}/deliveries/${delivery.id}/redeliver/`],
    ] as const) {
      const foreign = await (http() as any)[method](path).set(b.auth).send({});
      const absent = await (http() as any)
        [method](path.replace(mine.id, missing))
        .set(a.auth)
        .send({});
      expect(foreign.status).toBe(404);
      expect(absent.status).toBe(404);
      expect(foreign.body.detail).toBe(absent.body.detail.replace(missing, mine.id));
    }
    const notUuid = await http().get('/api/auth/v1/webhooks/not-a-uuid/').set(a.auth);
    expect(notUuid.status).toBe(404);
    expect((await http().get(`/api/auth/v1/webhooks/${mine.id}/`).set(a.auth)).status).toBe(200);
  });
});

describe('webhooks: retries, failure, redelivery', () => {
  it('retries a 500 twice then succeeds on the third attempt, all attempts recorded', async () => {
    const receiver = await new TestReceiver().start();
    const t = await createTestApp({ env: { WEBHOOK_RETRY_SCHEDULE: '0.2,0.2,0.2' } });
    try {
      const a = await createAccount(t.app);
      const hook = (
        await request(t.app.getHttpServer())
          .post('/api/auth/v1/webhooks/')
          .set(a.auth)
          .send({ url: receiver.url('/flaky') })
      ).body;
      receiver.replies = [500, 500, 200];
      const uid = await startSearch(t.app, a.auth, { patient: patient() });
      const got = await receiver.waitFor('/flaky', 3);
      expect(new Set(got.map((r) => r.headers['x-delivery-id'])).size).toBe(1);
      expect(new Set(got.map((r) => r.raw.toString('utf8'))).size).toBe(1);
      const delivery = await waitForDelivery(
        t,
        a,
        hook.id,
        (d) => d.request_uid === uid && d.status === 'succeeded',
      );
      expect(delivery.attempt_count).toBe(3);
      expect(delivery.attempts.map((x: any) => x.status_code)).toEqual([500, 500, 200]);
      expect(delivery.attempts[0].error).toBe('HTTP 500');
      // Every job scheduled for it has run: no fourth attempt is coming.
      await waitForIdleQueue(t.app, DELIVERY_QUEUE);
      expect(receiver.forPath('/flaky')).toHaveLength(3);
    } finally {
      await t.close();
      await receiver.stop();
    }
  });

  it('ends failed after the last attempt when the receiver never answers in time, and a redelivery succeeds later', async () => {
    const receiver = await new TestReceiver().start();
    const t = await createTestApp({
      env: { WEBHOOK_RETRY_SCHEDULE: '0.1,0.1', WEBHOOK_TIMEOUT_MS: '300' },
    });
    try {
      const a = await createAccount(t.app);
      const http = () => request(t.app.getHttpServer());
      const hook = (
        await http()
          .post('/api/auth/v1/webhooks/')
          .set(a.auth)
          .send({ url: receiver.url('/slow') })
      ).body;
      receiver.defaultReply = 'hang';
      const uid = await startSearch(t.app, a.auth, { patient: patient() });
      const delivery = await waitForDelivery(
        t,
        a,
        hook.id,
        (d) => d.request_uid === uid && d.status === 'failed',
      );
      expect(delivery.attempt_count).toBe(3);
      expect(delivery.attempts).toHaveLength(3);
      for (const attempt of delivery.attempts) {
        expect(attempt.status_code).toBeNull();
        expect(attempt.error).toMatch(/timed out after 300 ms/);
      }
      expect(delivery.completed_at).not.toBeNull();

      receiver.defaultReply = 204;
      const redelivered = await http()
        .post(`/api/auth/v1/webhooks/${hook.id}/deliveries/${delivery.id}/redeliver/`)
        .set(a.auth);
      expect(redelivered.status).toBe(200);
      expect(redelivered.body.status).toBe('succeeded');
      expect(redelivered.body.attempts).toHaveLength(4);
      expect(redelivered.body.attempts[3]).toMatchObject({
        status_code: 204,
        manual: true,
        error: null,
      });
      const all = receiver.forPath('/slow');
      expect(all).toHaveLength(4);
      expect(all[3].headers['x-delivery-id']).toBe(delivery.id);
    } finally {
      await t.close();
      await receiver.stop();
    }
  });

  it('delivers after a restart what was pending when the application stopped', async () => {
    const receiver = new TestReceiver();
    await receiver.start();
    const port = receiver.port;
    await receiver.stop(); // receiver down: attempts fail with a refused connection
    const first = await createTestApp({ env: { WEBHOOK_RETRY_SCHEDULE: '1,1,1,1,1,1,1,1,1,1' } });
    const a = await createAccount(first.app);
    await request(first.app.getHttpServer())
      .post('/api/auth/v1/webhooks/')
      .set(a.auth)
      .send({ url: `http://127.0.0.1:${port}/restart` });
    const uids = await Promise.all(
      Array.from({ length: 5 }, (_, i) =>
        startSearch(first.app, a.auth, { patient: patient({ first_name: `R${i}` }) }),
      ),
    );
    for (const uid of uids) await waitForResult(first.app, a.auth, uid);
    const [{ pending }] = await first.app
      .get(DataSource)
      .query(`SELECT count(*)::int AS pending FROM webhook_deliveries WHERE status = 'pending'`);
    expect(pending).toBe(5);
    await first.close();

    await receiver.start(port);
    const second = await createTestApp({
      keepState: true,
      env: { WEBHOOK_RETRY_SCHEDULE: '1,1,1,1,1,1,1,1,1,1' },
    });
    try {
      const got = await receiver.waitFor('/restart', 5, 20_000);
      const delivered = new Set(got.map((r) => JSON.parse(r.raw.toString('utf8')).request_uid));
      expect([...delivered].sort()).toEqual([...uids].sort());
    } finally {
      await second.close();
      await receiver.stop();
    }
  });

  it.each([
    ['deactivated', 'patch'],
    ['deleted', 'delete'],
  ] as const)('stops retrying once the webhook is %s', async (_what, method) => {
    const receiver = await new TestReceiver().start();
    // The second attempt would come 2 s after the first.
    const t = await createTestApp({ env: { WEBHOOK_RETRY_SCHEDULE: '2,2,2' } });
    try {
      const a = await createAccount(t.app);
      const http = () => request(t.app.getHttpServer());
      const hook = (
        await http()
          .post('/api/auth/v1/webhooks/')
          .set(a.auth)
          .send({ url: receiver.url('/stop') })
      ).body;
      receiver.defaultReply = 500;
      const uid = await startSearch(t.app, a.auth, { patient: patient() });
      await receiver.waitFor('/stop', 1);
      const first = await waitForDelivery(
        t,
        a,
        hook.id,
        (d) => d.request_uid === uid && d.attempts.length === 1,
      );
      expect(first).toMatchObject({ status: 'pending', attempt_count: 1 });
      if (method === 'patch') {
        await http()
          .patch(`/api/auth/v1/webhooks/${hook.id}/`)
          .set(a.auth)
          .send({ is_active: false })
          .expect(200);
        const [row] = await t.app
          .get(DataSource)
          .query(
            'SELECT status, next_attempt_at, completed_at FROM webhook_deliveries WHERE id = $1',
            [first.id],
          );
        expect(row).toMatchObject({ status: 'failed', next_attempt_at: null });
        expect(row.completed_at).not.toBeNull();
      } else {
        await http().delete(`/api/auth/v1/webhooks/${hook.id}/`).set(a.auth).expect(204);
      }
      // The retry already scheduled runs, finds nothing to send, and schedules nothing more.
      await waitForIdleQueue(t.app, DELIVERY_QUEUE);
      expect(receiver.forPath('/stop')).toHaveLength(1);
    } finally {
      await t.close();
      await receiver.stop();
    }
  });

  it('pages through deliveries created in the same millisecond without skipping any', async () => {
    const t = await createTestApp();
    try {
      const a = await createAccount(t.app);
      const http = () => request(t.app.getHttpServer());
      const uids = await Promise.all(
        Array.from({ length: 5 }, (_, i) =>
          startSearch(t.app, a.auth, { patient: patient({ first_name: `Page${i}` }) }),
        ),
      );
      for (const uid of uids) await waitForResult(t.app, a.auth, uid);
      const hook = (
        await http()
          .post('/api/auth/v1/webhooks/')
          .set(a.auth)
          .send({ url: 'http://127.0.0.1:9/never', is_active: false })
      ).body;
      // One statement: every row gets the same now(), microseconds included.
      await t.app.get(DataSource).query(
        `INSERT INTO webhook_deliveries (webhook_id, account_id, event, request_id, request_uid, body, status)
         SELECT $1, account_id, 'eligibility.finished', id, uid, body_v2, 'succeeded'
         FROM eligibility_requests WHERE account_id = $2`,
        [hook.id, a.accountId],
      );
      const seen: string[] = [];
      let cursor: string | null = null;
      do {
        const res: request.Response = await http()
          .get(`/api/auth/v1/webhooks/${hook.id}/deliveries/`)
          .query({ limit: 2, ...(cursor ? { cursor } : {}) })
          .set(a.auth)
          .expect(200);
        seen.push(...res.body.result.map((d: any) => d.request_uid as string));
        cursor = res.body.next_cursor;
      } while (cursor);
      expect(seen).toHaveLength(5);
      expect([...seen].sort()).toEqual([...uids].sort());
    } finally {
      await t.close();
    }
  });

  it('refuses private targets when WEBHOOK_ALLOW_PRIVATE is off', async () => {
    const t = await createTestApp({ env: { WEBHOOK_ALLOW_PRIVATE: 'false' } });
    try {
      const a = await createAccount(t.app);
      for (const url of [
        'http://127.0.0.1/',
        'http://localhost:8080/hook',
        'http://10.0.0.5/',
        'http://169.254.169.254/latest/meta-data/',
        'http://[::1]/',
      ]) {
        const res = await request(t.app.getHttpServer())
          .post('/api/auth/v1/webhooks/')
          .set(a.auth)
          .send({ url });
        expect(res.status).toBe(400);
        expect(res.body).toEqual({
          errors: { url: { $: ['Private, loopback and link-local addresses are not allowed.'] } },
        });
      }
    } finally {
      await t.close();
    }
  });
});
