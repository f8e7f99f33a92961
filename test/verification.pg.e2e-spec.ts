import request from 'supertest';
import { DataSource } from 'typeorm';
import { ApiKeysService } from '@/modules/auth/domain/api-keys.service';
import { InsurerSettingsService } from '@/modules/insurers/domain/insurer-settings.service';
import { EligibilityScheduler } from '@/modules/eligibility/jobs/eligibility.scheduler';
import { VerificationMaintenance } from '@/modules/verification/jobs/verification.maintenance';
import { createTestApp, TestApp } from './support/app';
import { DEMO, patient, startSearch, waitForResult } from './support/eligibility';
import { createAccount, TestAccount } from './support/factories';
import { waitUntil } from './support/queues';
import { TestReceiver } from './support/receiver';

const VSP = 'insurer:vision:vsp';
const EYEMED = 'insurer:vision:eye_med';
const TASKS = '/api/auth/v1/verification-tasks/';

/** docs/api.md, Insurers and assisted verification: searches of payers without 270/271 become tasks a person answers. */
describe('assisted verification (docs/api.md, Insurers and assisted verification)', () => {
  let t: TestApp;
  let a: TestAccount;
  let b: TestAccount;
  /** V2 plan results as the sandbox answers them: what a verifier sends back in `complete`. */
  let demoPlans: any[];
  const receiver = new TestReceiver();
  const http = () => request(t.app.getHttpServer());

  beforeAll(async () => {
    await receiver.start();
    t = await createTestApp();
    a = await createAccount(t.app);
    b = await createAccount(t.app);
    const demo = await waitForResult(
      t.app,
      a.auth,
      await startSearch(t.app, a.auth, { patient: patient() }),
    );
    demoPlans = demo.results;
    const hook = await http()
      .post('/api/auth/v1/webhooks/')
      .set(a.auth)
      .send({ url: receiver.url(), events: ['eligibility', 'verification'] });
    expect(hook.status).toBe(201);
  });
  afterAll(async () => {
    await t.close();
    await receiver.stop();
  });

  /**
   * A VSP search of account `who`, waiting for its task: the request uid and the task id. The
   * same patient each time: `max_age_hours: 0` asks a person anew (reuse has tests of its own).
   */
  async function vspSearch(who: TestAccount = a, body: Record<string, unknown> = {}) {
    const uid = await startSearch(t.app, who.auth, {
      insurer_code: VSP,
      patient: patient(),
      max_age_hours: 0,
      ...body,
    });
    const answer = await waitUntil(`task of ${uid}`, async () => {
      const res = await http().get(`/api/auth/v2/eligibility/${uid}/`).set(who.auth);
      return res.body.verification ? res.body : undefined;
    });
    return { uid, taskId: answer.verification.task_id as string, answer };
  }

  const evidence = {
    source: 'phone',
    reference_number: 'CALL-42',
    checked_at: '2026-11-24T15:04:00Z',
  };

  it('lists VSP as assisted in the directory, with its network and portal', async () => {
    const res = await http().get('/api/auth/v1/insurers/').set(a.auth);
    expect(res.status).toBe(200);
    const byCode = new Map(res.body.result.map((e: any) => [e.insurer_code, e]));
    expect(byCode.get(VSP)).toMatchObject({
      eligibility: 'assisted',
      claims: 'paper',
      credentials: 'none',
    });
    expect(byCode.get('insurer:vision:cigna_vision')).toMatchObject({
      eligibility: 'assisted',
      network_parent: EYEMED,
    });
    expect(byCode.get(DEMO)).toMatchObject({ eligibility: 'sandbox' });
    expect(byCode.get('insurer:vision:spectera')).toMatchObject({ eligibility: 'none' });
  });

  it('a VSP search becomes a task; claimed and completed through the API, the search carries exactly that plan', async () => {
    const { uid, taskId, answer } = await vspSearch();
    expect(answer).toMatchObject({
      status: 'processing',
      results: null,
      verification: { state: 'queued' },
    });
    expect(new Date(answer.verification.due_by).getTime()).toBeGreaterThan(
      Date.now() + 230 * 60_000,
    );
    const created = await receiver.waitFor('/hook', 1);
    expect(created.some((r) => r.headers['x-event-type'] === 'verification_task.created')).toBe(
      true,
    );

    const task = await http().get(`${TASKS}${taskId}/`).set(a.auth);
    expect(task.status).toBe(200);
    expect(task.body).toMatchObject({
      id: taskId,
      state: 'queued',
      insurer_code: VSP,
      request_uid: uid,
      patient: { first_name: 'Maria', last_name: 'Garcia' },
      portal_url: 'https://www.eyefinity.com/',
    });
    const listed = await http()
      .get(TASKS)
      .query({ state: 'queued', insurer_code: VSP })
      .set(a.auth);
    expect(listed.body.result.map((x: any) => x.id)).toContain(taskId);

    const claimed = await http().post(`${TASKS}${taskId}/claim/`).set(a.auth);
    expect(claimed.status).toBe(200);
    expect(claimed.body.state).toBe('in_progress');
    expect(
      (await http().get(`/api/auth/v1/eligibility/${uid}/`).set(a.auth)).body.verification.state,
    ).toBe('in_progress');

    const plans = demoPlans.map((p) => ({ ...p, insurer_code: VSP }));
    const done = await http()
      .post(`${TASKS}${taskId}/complete/`)
      .set(a.auth)
      .send({ plans, evidence });
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({
      state: 'completed',
      evidence: { source: 'phone', reference_number: 'CALL-42' },
    });

    const v2 = await waitForResult(t.app, a.auth, uid);
    expect(v2.status).toBe('complete');
    expect(v2.verification).toBeUndefined();
    const strip = (r: any) => ({
      ...r,
      id: 0,
      insurer_code: VSP,
      persons: r.persons.map((p: any) => ({
        ...p,
        id: 0,
        plan_token: 0,
        plan_token_expired_at: 0,
      })),
    });
    // The verifier copied the sandbox's price list: it is now the verifier's (docs/api.md, The counter).
    const verified = (r: any) => ({
      ...r,
      persons: r.persons.map((p: any) => ({
        ...p,
        plan: { ...p.plan, materials_source: 'verifier' },
      })),
    });
    expect(demoPlans[0].persons[0].plan.materials).not.toBeNull();
    expect(v2.results.map(strip)).toEqual(demoPlans.map(verified).map(strip));
    const v1 = await waitForResult(t.app, a.auth, uid, 'v1');
    expect(v1.results[0].persons[0].plan).toBeUndefined();
    expect(v1.results[0].plan_name).toBe(demoPlans[0].plan_name);

    // The search's webhook carries exactly the V2 answer, as for any search.
    const finished = await waitUntil('eligibility webhook', async () =>
      receiver.received.find(
        (r) =>
          r.headers['x-event-type'] !== 'verification_task.created' &&
          r.raw.toString('utf8').includes(uid),
      ),
    );
    expect(JSON.parse(finished.raw.toString('utf8'))).toEqual(v2);

    const again = await http()
      .post(`${TASKS}${taskId}/complete/`)
      .set(a.auth)
      .send({ plans, evidence });
    expect(again.status).toBe(409);
    expect(again.body).toEqual({ detail: 'This task is already completed.' });
  });

  it("stores each plan once: a sandbox person's plan only in the bodies, a verifier's in the row too, which a details request answers again", async () => {
    const db = t.app.get(DataSource);
    const storedPlans = async (uid: string): Promise<(object | null)[]> =>
      (
        await db.query(
          `SELECT p.plan FROM eligibility_persons p
           JOIN eligibility_results r ON r.id = p.result_id
           JOIN eligibility_requests q ON q.id = r.request_id
           WHERE q.uid = $1 ORDER BY r.position, p.position`,
          [uid],
        )
      ).map((r: { plan: object | null }) => r.plan);

    const sandbox = await waitForResult(
      t.app,
      a.auth,
      await startSearch(t.app, a.auth, { patient: patient() }),
    );
    expect(sandbox.results[0].persons[0].plan.items.length).toBeGreaterThan(0);
    expect(await storedPlans(sandbox.request_uid)).toEqual([null]);

    const { uid, taskId } = await vspSearch();
    await http().post(`${TASKS}${taskId}/claim/`).set(a.auth).expect(200);
    const plans = demoPlans.map((p) => ({ ...p, insurer_code: VSP }));
    await http()
      .post(`${TASKS}${taskId}/complete/`)
      .set(a.auth)
      .send({ plans, evidence })
      .expect(200);
    const parent = await waitForResult(t.app, a.auth, uid);
    const stored = await storedPlans(uid);
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({
      insurer_state: parent.results[0].persons[0].plan.insurer_state,
    });

    const res = await http()
      .post(`/api/auth/v1/eligibility/${uid}/details/`)
      .set(a.auth)
      .send({
        request_uid: uid,
        result_id: parent.results[0].id,
        person_id: parent.results[0].persons[0].id,
        details_request_uid: `${uid}-d`,
      });
    expect(res.status).toBe(201);
    const details = await waitForResult(t.app, a.auth, `${uid}-d`);
    expect(details.status).toBe('complete');
    expect(details.results[0].persons[0].plan).toEqual(parent.results[0].persons[0].plan);
    expect((await storedPlans(`${uid}-d`))[0]).not.toBeNull();
  });

  it('refuses a malformed plan with field errors keyed into the plan, changing nothing', async () => {
    const { taskId } = await vspSearch();
    const bad = structuredClone(demoPlans);
    bad[0].persons[0].plan.items[0].refresh_date = '31/12/2026';
    bad[0].persons[0].plan.insurer_state = 'both';
    const res = await http()
      .post(`${TASKS}${taskId}/complete/`)
      .set(a.auth)
      .send({ plans: bad, evidence });
    expect(res.status).toBe(400);
    const plan = res.body.errors.plans['0'].persons['0'].plan;
    expect(plan.insurer_state.$).toEqual([
      '"both" is not a valid choice.',
      'Allowed values: inn, oon.',
    ]);
    expect(plan.items['0'].refresh_date.$[0]).toMatch(/Date has wrong format/);
    const task = await http().get(`${TASKS}${taskId}/`).set(a.auth);
    expect(task.body.state).toBe('queued');
    expect(task.body.history).toHaveLength(1);
  });

  /** A sandbox plan's benefits as a verifier sends them: the person's `plan` and nothing else. */
  const onlyPlan = () => structuredClone(demoPlans[0].persons[0].plan);
  const planOf = (persons: object[]) => {
    const { persons: _persons, ...plan } = structuredClone(demoPlans[0]);
    return { ...plan, insurer_code: VSP, persons };
  };

  it('persons with only `plan` take the names, birth date and member id asked; sex, address and phone are null', async () => {
    const { uid, taskId } = await vspSearch(a, {
      patient: patient({ first_name: 'Lucia', dob: '2015-03-02' }),
      subscriber: {
        first_name: 'Maria',
        last_name: 'Garcia',
        dob: '1984-06-15',
        member_id: 'VSP77001',
      },
    });
    const done = await http()
      .post(`${TASKS}${taskId}/complete/`)
      .set(a.auth)
      .send({
        plans: [
          planOf([
            { type: 'self', plan: onlyPlan() },
            { type: 'child', plan: onlyPlan() },
          ]),
        ],
        evidence,
      });
    expect(done.status).toBe(200);
    const v2 = await waitForResult(t.app, a.auth, uid);
    const blank = { sex: null, address: null, phone: null, email: null, ssn_last_four: null };
    expect(v2.results[0].persons).toEqual([
      expect.objectContaining({
        first_name: 'Maria',
        last_name: 'Garcia',
        dob: '1984-06-15',
        member_id: 'VSP77001',
        type: 'self',
        ...blank,
      }),
      expect.objectContaining({
        first_name: 'Lucia',
        last_name: 'Garcia',
        dob: '2015-03-02',
        member_id: null,
        type: 'child',
        ...blank,
      }),
    ]);
    const v1 = await http().get(`/api/auth/v1/eligibility/${uid}/`).set(a.auth);
    expect(v1.body.results[0].persons[1]).toMatchObject({ full_name: 'Lucia Garcia', ...blank });

    // No subscriber named: a person without a type is the patient, `self`.
    const single = await vspSearch(a, { patient: patient({ member_id: 'VSP55501' }) });
    await http()
      .post(`${TASKS}${single.taskId}/complete/`)
      .set(a.auth)
      .send({ plans: [planOf([{ plan: onlyPlan() }])], evidence })
      .expect(200);
    const alone = await waitForResult(t.app, a.auth, single.uid);
    expect(alone.results[0].persons[0]).toMatchObject({
      first_name: 'Maria',
      last_name: 'Garcia',
      dob: '1984-06-15',
      member_id: 'VSP55501',
      type: 'self',
      ...blank,
    });
  });

  it('a partial person still gets field errors for what it does give, changing nothing', async () => {
    const { taskId } = await vspSearch();
    const res = await http()
      .post(`${TASKS}${taskId}/complete/`)
      .set(a.auth)
      .send({
        plans: [
          planOf([
            { dob: '15/06/1984', address: { line1: '412 Oak Street' }, sex: 7, plan: onlyPlan() },
            { first_name: '', plan: undefined },
          ]),
        ],
        evidence,
      });
    expect(res.status).toBe(400);
    const persons = res.body.errors.plans['0'].persons;
    expect(persons['0'].dob.$[0]).toMatch(/Date has wrong format/);
    expect(Object.keys(persons['0'].address).sort()).toEqual(['city', 'state', 'zipcode']);
    expect(persons['0'].sex.$).toHaveLength(1);
    expect(persons['1'].plan.$).toEqual(['This field is required.']);
    expect((await http().get(`${TASKS}${taskId}/`).set(a.auth)).body.state).toBe('queued');
  });

  it('member_not_found completes with no results; portal_down ends insurer_problem with the detail', async () => {
    const first = await vspSearch();
    const nf = await http()
      .post(`${TASKS}${first.taskId}/fail/`)
      .set(a.auth)
      .send({ reason: 'member_not_found' });
    expect(nf.status).toBe(200);
    expect(await waitForResult(t.app, a.auth, first.uid)).toMatchObject({
      status: 'complete',
      results: [],
    });

    const second = await vspSearch();
    const down = await http()
      .post(`${TASKS}${second.taskId}/fail/`)
      .set(a.auth)
      .send({ reason: 'portal_down', detail: 'Maintenance until 6 pm ET.' });
    expect(down.body).toMatchObject({ state: 'failed', failure_reason: 'portal_down' });
    expect(await waitForResult(t.app, a.auth, second.uid)).toEqual({
      request_uid: second.uid,
      origin: null,
      status: 'error',
      error_code: 'insurer_problem',
      error_detail:
        "VSP Vision Care could not be checked: the insurer's portal was down: Maintenance until 6 pm ET.",
      results: null,
      insurers: [
        {
          insurer_code: VSP,
          state: 'failed',
          result_ids: [],
          detail:
            "VSP Vision Care could not be checked: the insurer's portal was down: Maintenance until 6 pm ET.",
          finished_at: expect.any(String),
          verification: { task_id: second.taskId, state: 'failed', due_by: expect.any(String) },
        },
      ],
    });
  });

  it('a Universal Search over the sandbox and VSP completes when the person answers', async () => {
    const { uid, taskId } = await vspSearch(a, {
      insurer_code: undefined,
      insurer_code_list: [DEMO, VSP],
      // A person is asked at once, though the sandbox finds a plan (docs/api.md, Universal Search insurer by insurer).
      assisted: 'always',
    });
    await http().post(`${TASKS}${taskId}/fail/`).set(a.auth).send({ reason: 'member_not_found' });
    const v2 = await waitForResult(t.app, a.auth, uid);
    expect(v2.status).toBe('complete');
    expect(v2.results.map((r: any) => r.insurer_code)).toEqual([DEMO]);
  });

  it('filters by due_before, and answers a date that does not exist with a field error', async () => {
    const { taskId } = await vspSearch();
    const later = await http()
      .get(TASKS)
      .query({ due_before: new Date(Date.now() + 241 * 60_000).toISOString() })
      .set(a.auth);
    expect(later.body.result.map((x: any) => x.id)).toContain(taskId);
    const sooner = await http().get(TASKS).query({ due_before: '2026-01-01' }).set(a.auth);
    expect(sooner.body.result).toEqual([]);
    for (const bad of ['2026-13-45', '2026-02-30T99:00', 'tomorrow']) {
      const res = await http().get(TASKS).query({ due_before: bad }).set(a.auth);
      expect([bad, res.status]).toEqual([bad, 400]);
      expect(res.body.errors.due_before.$).toHaveLength(1);
    }
  });

  it('two verifiers racing for one task: one gets 409', async () => {
    const { taskId } = await vspSearch();
    const { key: other } = await t.app.get(ApiKeysService).create(a.accountId, 'bot');
    const answers = await Promise.all([
      http().post(`${TASKS}${taskId}/claim/`).set(a.auth),
      http()
        .post(`${TASKS}${taskId}/claim/`)
        .set({ Authorization: `Api ${other}` }),
    ]);
    expect(answers.map((r) => r.status).sort()).toEqual([200, 409]);
    const loser = answers.find((r) => r.status === 409)!;
    expect(loser.body).toEqual({
      detail: 'Another verifier holds this task; try again when its lease ends.',
    });
  });

  it('a lapsed lease returns the task to queued; an overdue task fires its webhook once', async () => {
    const { uid, taskId } = await vspSearch();
    await http().post(`${TASKS}${taskId}/claim/`).set(a.auth).expect(200);
    const db = t.app.get(DataSource);
    await db.query(
      `UPDATE verification_tasks SET lease_until = now() - interval '1 second', due_by = now() - interval '1 minute' WHERE id = $1`,
      [taskId],
    );
    expect((await http().get(`${TASKS}${taskId}/`).set(a.auth)).body).toMatchObject({
      state: 'queued',
      lease: null,
      overdue: true,
    });
    const maintenance = t.app.get(VerificationMaintenance);
    await maintenance.releaseLapsedLeases();
    const [row] = await db.query('SELECT state FROM verification_tasks WHERE id = $1', [taskId]);
    expect(row.state).toBe('queued');
    expect(
      (await http().get(`/api/auth/v1/eligibility/${uid}/`).set(a.auth)).body.verification.state,
    ).toBe('queued');
    await maintenance.notifyOverdue();
    await maintenance.notifyOverdue();
    const deliveries = await db.query(
      `SELECT count(*)::int AS n FROM webhook_deliveries WHERE event = 'verification_task.overdue' AND request_uid = $1`,
      [taskId],
    );
    expect(deliveries[0].n).toBe(1);
    const hooks = await waitUntil('overdue webhook', async () =>
      receiver.received.find(
        (r) =>
          r.headers['x-event-type'] === 'verification_task.overdue' &&
          r.raw.toString('utf8').includes(taskId),
      ),
    );
    expect(JSON.parse(hooks.raw.toString('utf8'))).toMatchObject({ id: taskId, overdue: true });
  });

  it('needs_info shows on the request until the practice answers', async () => {
    const { uid, taskId } = await vspSearch();
    const asked = await http()
      .post(`${TASKS}${taskId}/needs-info/`)
      .set(a.auth)
      .send({ detail: 'Subscriber date of birth?' });
    expect(asked.body).toMatchObject({ state: 'needs_info', detail: 'Subscriber date of birth?' });
    expect(
      (await http().get(`/api/auth/v1/eligibility/${uid}/`).set(a.auth)).body.verification.state,
    ).toBe('needs_info');
    expect((await http().post(`${TASKS}${taskId}/claim/`).set(a.auth)).status).toBe(409);
    const answered = await http()
      .post(`${TASKS}${taskId}/info/`)
      .set(a.auth)
      .send({ detail: '1982-03-02' });
    expect(answered.body).toMatchObject({ state: 'queued', detail: '1982-03-02' });
    expect(
      (await http().post(`${TASKS}${taskId}/info/`).set(a.auth).send({ detail: 'again' })).status,
    ).toBe(409);
  });

  it('credentials: only with verification:credentials, each read audited; credentials_invalid marks them', async () => {
    const { taskId } = await vspSearch();
    expect((await http().get(`${TASKS}${taskId}/credentials/`).set(a.auth)).status).toBe(403);
    const { key: bot } = await t.app
      .get(ApiKeysService)
      .create(a.accountId, 'portal bot', ['verification:write', 'verification:credentials']);
    const botAuth = { Authorization: `Api ${bot}` };
    await http().post(`${TASKS}${taskId}/claim/`).set(botAuth).expect(200);
    expect((await http().get(`${TASKS}${taskId}/credentials/`).set(botAuth)).status).toBe(404);
    await t.app
      .get(InsurerSettingsService)
      .setCredentials(a.accountId, VSP, 'mainstreet', 's3cret!');
    const creds = await http().get(`${TASKS}${taskId}/credentials/`).set(botAuth);
    expect(creds.status).toBe(200);
    expect(creds.body).toEqual({ username: 'mainstreet', password: 's3cret!' });
    const audit = await t.app
      .get(DataSource)
      .query(
        `SELECT count(*)::int AS n FROM audit_events WHERE resource_type = 'insurer_credentials' AND resource_id = $1`,
        [taskId],
      );
    expect(audit[0].n).toBe(1);
    await http()
      .post(`${TASKS}${taskId}/fail/`)
      .set(botAuth)
      .send({ reason: 'credentials_invalid' })
      .expect(200);
    const dir = await http().get('/api/auth/v1/insurers/').set(a.auth);
    expect(dir.body.result.find((e: any) => e.insurer_code === VSP).credentials).toBe(
      'needs_attention',
    );
  });

  it("another account's task is 404 on every route; scopes are enforced", async () => {
    const { taskId } = await vspSearch();
    for (const [method, path] of [
      ['get', ''],
      ['post', 'claim/'],
      ['post', 'complete/'],
      ['post', 'fail/'],
      ['post', 'needs-info/'],
      ['post', 'info/'],
    ] as const) {
      const body =
        path === 'complete/'
          ? { plans: demoPlans, evidence }
          : path === 'fail/'
            ? { reason: 'other' }
            : { detail: 'x' };
      const res = await http()[method](`${TASKS}${taskId}/${path}`).set(b.auth).send(body);
      expect([path, res.status]).toEqual([path, 404]);
    }
    expect((await http().get(TASKS).set(b.auth)).body.result).toEqual([]);
    const { key: reader } = await t.app
      .get(ApiKeysService)
      .create(a.accountId, 'reader', ['verification:read']);
    const readerAuth = { Authorization: `Api ${reader}` };
    expect((await http().get(`${TASKS}${taskId}/`).set(readerAuth)).status).toBe(200);
    expect((await http().post(`${TASKS}${taskId}/claim/`).set(readerAuth)).status).toBe(403);
    const { key: none } = await t.app
      .get(ApiKeysService)
      .create(a.accountId, 'eligibility only', ['eligibility:write']);
    expect(
      (
        await http()
          .get(TASKS)
          .set({ Authorization: `Api ${none}` })
      ).status,
    ).toBe(403);
  });

  it('batch items of VSP become tasks; the batch completes when they are answered', async () => {
    const res = await http()
      .post('/api/auth/v1/eligibility/batches/')
      .set(a.auth)
      .send({
        batch_uid: 'vsp-batch',
        items: [
          // A person is asked anew for a patient answered before (no reuse).
          { insurer_code: VSP, request_uid: 'vsp-item-1', patient: patient(), max_age_hours: 0 },
          { insurer_code: DEMO, request_uid: 'vsp-item-2', patient: patient() },
        ],
      });
    expect(res.status).toBe(201);
    const task = await waitUntil('batch task', async () => {
      const list = await http().get(TASKS).query({ state: 'queued' }).set(a.auth);
      return list.body.result.find((x: any) => x.request_uid === 'vsp-item-1');
    });
    expect(
      (await http().get('/api/auth/v1/eligibility/batches/vsp-batch/').set(a.auth)).body.status,
    ).toBe('processing');
    await http()
      .post(`${TASKS}${task.id}/fail/`)
      .set(a.auth)
      .send({ reason: 'member_not_found' })
      .expect(200);
    await waitUntil('batch complete', async () => {
      const batch = await http().get('/api/auth/v1/eligibility/batches/vsp-batch/').set(a.auth);
      return batch.body.status === 'complete' ? batch.body : undefined;
    });
  });

  it('the watchdog leaves a request that waits for a person alone', async () => {
    const { uid } = await vspSearch();
    expect(await t.app.get(EligibilityScheduler).expireStuck(0)).toBe(0);
    const answer = await http().get(`/api/auth/v2/eligibility/${uid}/`).set(a.auth);
    expect(answer.body.status).toBe('processing');
  });

  it('a restart in the middle loses nothing: the new process completes the task and the search', async () => {
    const { uid, taskId } = await vspSearch();
    await http().post(`${TASKS}${taskId}/claim/`).set(a.auth).expect(200);
    await t.close();
    t = await createTestApp({ keepState: true });
    const task = await http().get(`${TASKS}${taskId}/`).set(a.auth);
    expect(task.body).toMatchObject({ state: 'in_progress', request_uid: uid });
    const plans = demoPlans.map((p) => ({ ...p, insurer_code: VSP }));
    await http()
      .post(`${TASKS}${taskId}/complete/`)
      .set(a.auth)
      .send({ plans, evidence })
      .expect(200);
    const v2 = await waitForResult(t.app, a.auth, uid);
    expect(v2.status).toBe('complete');
    expect(v2.results).toHaveLength(demoPlans.length);
  });
});
