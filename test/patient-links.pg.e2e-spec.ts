import request from 'supertest';
import { createTestApp, TestApp } from './support/app';
import { patient, startSearch, waitForResult } from './support/eligibility';
import { createAccount, TestAccount } from './support/factories';

describe('patient–eligibility links (docs/api.md, Patients)', () => {
  let t: TestApp;
  let a: TestAccount;
  let b: TestAccount;
  const http = () => request(t.app.getHttpServer());

  beforeAll(async () => {
    t = await createTestApp();
    a = await createAccount(t.app);
    b = await createAccount(t.app);
  });
  afterAll(() => t.close());

  async function newPatient(account: TestAccount, first = 'Maria') {
    const res = await http()
      .post('/api/auth/v1/patients/')
      .set(account.auth)
      .send({ first_name: first, last_name: 'Garcia', dob: '1984-06-15' });
    expect(res.status).toBe(200);
    return res.body.code as string;
  }

  it('links a complete eligibility request and lists the links, newest first', async () => {
    const code = await newPatient(a);
    const uid = await startSearch(t.app, a.auth, { patient: patient() });
    const result = await waitForResult(t.app, a.auth, uid);
    const linked = await http()
      .post(`/api/auth/v1/patients/${code}/eligibility/`)
      .set(a.auth)
      .send({ request_uid: uid });
    expect(linked.status).toBe(200);
    expect(linked.body).toEqual({
      request_uid: uid,
      provider_app_url: `http://localhost:3999/app/patients/${code}/`,
      results: result.results,
    });
    // Linking again changes nothing.
    expect(
      (
        await http()
          .post(`/api/auth/v1/patients/${code}/eligibility/`)
          .set(a.auth)
          .send({ request_uid: uid })
      ).body,
    ).toEqual(linked.body);

    const second = await startSearch(t.app, a.auth, {
      patient: patient({ first_name: 'delay_10' }),
    });
    const pending = await http()
      .post(`/api/auth/v1/patients/${code}/eligibility/`)
      .set(a.auth)
      .send({ request_uid: second });
    expect(pending.body).toMatchObject({ request_uid: second, results: null });

    const list = await http().get(`/api/auth/v1/patients/${code}/eligibility/`).set(a.auth);
    expect(list.status).toBe(200);
    expect(list.body.result.map((l: { request_uid: string }) => l.request_uid)).toEqual([
      second,
      uid,
    ]);
    expect(list.body.result[1]).toEqual(linked.body);
  });

  it('refuses an unknown request uid with a field error, and an unknown patient with 404', async () => {
    const code = await newPatient(a, 'Ann');
    const unknown = await http()
      .post(`/api/auth/v1/patients/${code}/eligibility/`)
      .set(a.auth)
      .send({ request_uid: 'nope' });
    expect(unknown.status).toBe(400);
    expect(unknown.body).toEqual({
      errors: { request_uid: { $: ['Eligibility request nope not found.'] } },
    });
    const blank = await http()
      .post(`/api/auth/v1/patients/${code}/eligibility/`)
      .set(a.auth)
      .send({});
    expect(blank.body).toEqual({ errors: { request_uid: { $: ['This field is required.'] } } });
    const missing = await http().get('/api/auth/v1/patients/PAT00000000/eligibility/').set(a.auth);
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ detail: 'Patient PAT00000000 not found.' });
  });

  it("keeps accounts apart: another account's patient is 404 and its request uid unknown", async () => {
    const mine = await newPatient(a, 'Own');
    const theirs = await newPatient(b, 'Theirs');
    const myUid = await startSearch(t.app, a.auth, { patient: patient() });
    const foreignPatient = await http()
      .post(`/api/auth/v1/patients/${mine}/eligibility/`)
      .set(b.auth)
      .send({ request_uid: myUid });
    expect(foreignPatient.status).toBe(404);
    expect(foreignPatient.body).toEqual({ detail: `Patient ${mine} not found.` });
    expect(
      (await http().get(`/api/auth/v1/patients/${mine}/eligibility/`).set(b.auth)).status,
    ).toBe(404);
    const foreignRequest = await http()
      .post(`/api/auth/v1/patients/${theirs}/eligibility/`)
      .set(b.auth)
      .send({ request_uid: myUid });
    expect(foreignRequest.status).toBe(400);
    expect(foreignRequest.body.errors.request_uid.$[0]).toBe(
      `Eligibility request ${myUid} not found.`,
    );
  });
});
