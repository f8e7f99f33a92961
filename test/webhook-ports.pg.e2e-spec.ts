import request from 'supertest';
import { DataSource } from 'typeorm';
import { createTestApp, TestApp } from './support/app';
import { patient, startSearch, waitForResult } from './support/eligibility';
import { createAccount, TestAccount } from './support/factories';

// docs/api.md, Webhooks: a public address is reached on 443 or 80 only, unless the webhook says
// `allow_nonstandard_port`; checked when saved and again at every attempt. The test suite runs
// with WEBHOOK_ALLOW_PRIVATE=true (its receivers are on 127.0.0.1, any port: the operator's
// network); these targets are public address literals, so nothing is resolved and, the port
// being refused, nothing is ever sent to them.

const PORT_ERROR = {
  errors: { url: { $: ['Ports other than 443 and 80 need allow_nonstandard_port: true.'] } },
};

describe('webhooks: ports other than 443 and 80 (docs/api.md, Webhooks)', () => {
  let t: TestApp;
  let a: TestAccount;
  const http = () => request(t.app.getHttpServer());

  beforeAll(async () => {
    t = await createTestApp();
    a = await createAccount(t.app);
  });
  afterAll(() => t.close());

  it('refuses a URL on another port without allow_nonstandard_port, with a field error on url', async () => {
    for (const url of ['https://93.184.216.34:8443/hooks', 'http://93.184.216.34:25/']) {
      const res = await http().post('/api/auth/v1/webhooks/').set(a.auth).send({ url });
      expect(res.status).toBe(400);
      expect(res.body).toEqual(PORT_ERROR);
      const off = await http()
        .post('/api/auth/v1/webhooks/')
        .set(a.auth)
        .send({ url, allow_nonstandard_port: false });
      expect(off.body).toEqual(PORT_ERROR);
    }
    const standard = await http()
      .post('/api/auth/v1/webhooks/')
      .set(a.auth)
      .send({ url: 'https://93.184.216.34:443/hooks', is_active: false });
    expect(standard.status).toBe(201);
    expect(standard.body.allow_nonstandard_port).toBe(false);
  });

  it('accepts it with allow_nonstandard_port: true, and will not turn the setting off under it', async () => {
    const created = await http()
      .post('/api/auth/v1/webhooks/')
      .set(a.auth)
      .send({
        url: 'https://93.184.216.34:8443/hooks',
        allow_nonstandard_port: true,
        is_active: false,
      });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      url: 'https://93.184.216.34:8443/hooks',
      allow_nonstandard_port: true,
    });
    const path = `/api/auth/v1/webhooks/${created.body.id}/`;
    const off = await http().patch(path).set(a.auth).send({ allow_nonstandard_port: false });
    expect(off.status).toBe(400);
    expect(off.body).toEqual(PORT_ERROR);
    expect((await http().get(path).set(a.auth)).body.allow_nonstandard_port).toBe(true);

    const moved = await http()
      .patch(path)
      .set(a.auth)
      .send({ url: 'https://93.184.216.34/hooks', allow_nonstandard_port: false });
    expect(moved.status).toBe(200);
    expect(moved.body.allow_nonstandard_port).toBe(false);
    const back = await http()
      .patch(path)
      .set(a.auth)
      .send({ url: 'https://93.184.216.34:9443/hooks' });
    expect(back.body).toEqual(PORT_ERROR);
    expect(
      (
        await http()
          .post('/api/auth/v1/webhooks/')
          .set(a.auth)
          .send({ url: 'https://93.184.216.34/', allow_nonstandard_port: 'yes' })
      ).body,
    ).toEqual({ errors: { allow_nonstandard_port: { $: ['Must be a valid boolean.'] } } });
  });

  it('refuses the attempt too when the stored webhook lacks the setting (a webhook from before it)', async () => {
    const c = await createAccount(t.app);
    const created = await http()
      .post('/api/auth/v1/webhooks/')
      .set(c.auth)
      .send({ url: 'https://93.184.216.34:8443/hooks', allow_nonstandard_port: true });
    expect(created.status).toBe(201);
    // As the migration leaves a webhook saved before the setting existed.
    await t.app
      .get(DataSource)
      .query('UPDATE webhooks SET allow_nonstandard_port = false WHERE id = $1', [created.body.id]);

    const uid = await startSearch(t.app, c.auth, { patient: patient() });
    await waitForResult(t.app, c.auth, uid);
    const deadline = Date.now() + 15_000;
    let attempts: { error: string | null; status_code: number | null }[] = [];
    while (attempts.length === 0 && Date.now() < deadline) {
      const res = await http()
        .get(`/api/auth/v1/webhooks/${created.body.id}/deliveries/`)
        .set(c.auth);
      attempts = res.body.result?.[0]?.attempts ?? [];
      if (attempts.length === 0) await new Promise((r) => setTimeout(r, 100));
    }
    expect(attempts[0]).toMatchObject({
      status_code: null,
      error: 'refused: Ports other than 443 and 80 need allow_nonstandard_port: true.',
    });
  });
});
