import { createHmac } from 'node:crypto';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { createTestApp, TestApp } from './support/app';
import { DEMO, patient, startSearch, waitForResult } from './support/eligibility';
import { createAccount, TestAccount } from './support/factories';
import { waitUntil } from './support/queues';
import { TestReceiver } from './support/receiver';
import { signIn } from './support/web-sign-in';

const VSP = 'insurer:vision:vsp';
const EYEMED = 'insurer:vision:eye_med';
const ALL = [DEMO, VSP, EYEMED];
const TASKS = '/api/auth/v1/verification-tasks/';
const SECRET = 'universal-search-secret-1';
const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

type Json = any;

/**
 * docs/api.md, Universal Search insurer by insurer: an answer says where each insurer stands,
 * people are asked last (only when no machine found an active plan) and once (an answered task
 * answers the same person again), and an answer grows when a person answers later.
 */
describe('Universal Search insurer by insurer (docs/api.md)', () => {
  let t: TestApp;
  let a: TestAccount;
  let b: TestAccount;
  let db: DataSource;
  /** V2 plan results as the sandbox answers them: what a verifier sends back in `complete`. */
  let demoPlans: Json[];
  const receiver = new TestReceiver();
  const http = () => request(t.app.getHttpServer());
  let people = 0;
  /** A patient no other test of this file names (reuse is per person). */
  const someone = (over: Record<string, unknown> = {}) =>
    patient({ last_name: `Insurer${++people}`, member_id: `UNI${1000 + people}`, ...over });

  const evidence = { source: 'portal', checked_at: '2026-11-24T15:04:00Z' };

  beforeAll(async () => {
    await receiver.start();
    t = await createTestApp();
    db = t.app.get(DataSource);
    a = await createAccount(t.app);
    b = await createAccount(t.app);
    demoPlans = (
      await waitForResult(t.app, a.auth, await startSearch(t.app, a.auth, { patient: patient() }))
    ).results;
    const hook = await http()
      .post('/api/auth/v1/webhooks/')
      .set(a.auth)
      .send({ url: receiver.url(), events: ['eligibility'], secret: SECRET });
    expect(hook.status).toBe(201);
  });
  afterAll(async () => {
    await t.close();
    await receiver.stop();
  });

  const v2 = async (uid: string, who = a) =>
    (await http().get(`/api/auth/v2/eligibility/${uid}/`).set(who.auth).expect(200)).body;

  /** The account's tasks of request `uid`, by insurer. */
  async function tasksOf(uid: string, who = a): Promise<Map<string, Json>> {
    const res = await http().get(TASKS).query({ limit: 200 }).set(who.auth).expect(200);
    const mine = res.body.result.filter((x: Json) => x.request_uid === uid);
    return new Map(mine.map((x: Json) => [x.insurer_code, x]));
  }

  /** A processing answer that waits for a person (its `verification` shows the task). */
  const waitingAnswer = (uid: string, who = a) =>
    waitUntil(`task of ${uid}`, async () => {
      const body = await v2(uid, who);
      return body.verification ? body : undefined;
    });

  const complete = (taskId: string, plans: Json[], who = a) =>
    http().post(`${TASKS}${taskId}/complete/`).set(who.auth).send({ plans, evidence }).expect(200);
  const notFound = (taskId: string, who = a) =>
    http()
      .post(`${TASKS}${taskId}/fail/`)
      .set(who.auth)
      .send({ reason: 'member_not_found' })
      .expect(200);

  it('defaults: complete as soon as the sandbox answered with its plan; VSP and EyeMed not asked, saying why, and no task opened', async () => {
    const uid = await startSearch(t.app, a.auth, { insurer_code_list: ALL, patient: someone() });
    const body = await waitForResult(t.app, a.auth, uid);
    expect(body.status).toBe('complete');
    expect(body.results.map((r: Json) => r.insurer_code)).toEqual([DEMO]);
    const notAsked = (code: string) => ({
      insurer_code: code,
      state: 'not_asked',
      result_ids: [],
      detail: 'An active plan was found with Demo Vision (sandbox).',
      finished_at: expect.stringMatching(ISO),
      verification: null,
    });
    expect(body.insurers).toEqual([
      {
        insurer_code: DEMO,
        state: 'found',
        result_ids: body.results.map((r: Json) => r.id),
        detail: null,
        finished_at: expect.stringMatching(ISO),
        verification: null,
      },
      notAsked(VSP),
      notAsked(EYEMED),
    ]);
    expect((await waitForResult(t.app, a.auth, uid, 'v1')).insurers).toEqual(body.insurers);
    expect((await tasksOf(uid)).size).toBe(0);
  });

  it('not found by the sandbox: tasks open only after it answered; with wait_for "electronic" the answer is complete at once, then grows as people answer (eligibility.updated, signed)', async () => {
    const uid = await startSearch(t.app, a.auth, {
      insurer_code_list: ALL,
      patient: someone({ first_name: 'not_found' }),
      wait_for: 'electronic',
    });
    const first = await waitForResult(t.app, a.auth, uid);
    expect(first).toMatchObject({ status: 'complete', error_code: null, results: [] });
    expect(first.insurers.map((e: Json) => e.state)).toEqual([
      'no_plan',
      'waiting_for_person',
      'waiting_for_person',
    ]);
    const tasks = await tasksOf(uid);
    expect([...tasks.keys()].sort()).toEqual([EYEMED, VSP].sort());
    for (const [i, code] of [VSP, EYEMED].entries()) {
      const entry = first.insurers[i + 1];
      expect(entry).toEqual({
        insurer_code: code,
        state: 'waiting_for_person',
        result_ids: [],
        detail: expect.stringMatching(/^Waiting for a person to check /),
        finished_at: null,
        verification: {
          task_id: tasks.get(code).id,
          state: 'queued',
          due_by: expect.stringMatching(ISO),
        },
      });
      // The person was asked only once the sandbox had answered.
      expect(new Date(tasks.get(code).created_at).getTime()).toBeGreaterThanOrEqual(
        new Date(first.insurers[0].finished_at).getTime(),
      );
    }

    // A verifier claims VSP's task: the entry shows it; the answer is the same otherwise.
    await http()
      .post(`${TASKS}${tasks.get(VSP).id}/claim/`)
      .set(a.auth)
      .expect(200);
    const claimed = await v2(uid);
    expect(claimed.insurers[1].verification.state).toBe('in_progress');
    expect(claimed.results).toEqual([]);

    await complete(
      tasks.get(VSP).id,
      demoPlans.map((p) => ({ ...p, insurer_code: VSP })),
    );
    const grown = await v2(uid);
    expect(grown.status).toBe('complete');
    expect(grown.results.map((r: Json) => r.insurer_code)).toEqual([VSP]);
    expect(grown.results[0].plan_name).toBe(demoPlans[0].plan_name);
    expect(grown.insurers[1]).toEqual({
      insurer_code: VSP,
      state: 'found',
      result_ids: [grown.results[0].id],
      detail: null,
      finished_at: expect.stringMatching(ISO),
      verification: {
        task_id: tasks.get(VSP).id,
        state: 'completed',
        due_by: expect.stringMatching(ISO),
      },
    });
    expect(grown.insurers[2].state).toBe('waiting_for_person');
    const v1 = (await http().get(`/api/auth/v1/eligibility/${uid}/`).set(a.auth).expect(200)).body;
    expect(v1.results.map((r: Json) => r.id)).toEqual([grown.results[0].id]);
    expect(v1.results[0].persons[0].plan).toBeUndefined();

    // The whole new answer is delivered, signed, as `eligibility.updated`.
    const updated = await waitUntil('eligibility.updated', async () =>
      receiver.received.find(
        (r) =>
          r.headers['x-event-type'] === 'eligibility.updated' &&
          r.raw.toString('utf8').includes(uid),
      ),
    );
    const raw = updated.raw.toString('utf8');
    expect(JSON.parse(raw)).toEqual(grown);
    expect(updated.headers['x-signature']).toBe(
      createHmac('sha256', SECRET).update(updated.raw).digest('hex'),
    );

    // EyeMed's person finds no member: its entry says so, and a second update goes out.
    await notFound(tasks.get(EYEMED).id);
    const last = await v2(uid);
    expect(last.insurers.map((e: Json) => e.state)).toEqual(['no_plan', 'found', 'no_plan']);
    expect(last.results).toEqual(grown.results);
    const updates = await waitUntil('two updates', async () => {
      const got = receiver.received.filter(
        (r) =>
          r.headers['x-event-type'] === 'eligibility.updated' &&
          r.raw.toString('utf8').includes(uid),
      );
      return got.length === 2 ? got : undefined;
    });
    expect(JSON.parse(updates[1].raw.toString('utf8'))).toEqual(last);
  });

  it('wait_for "all" (default): processing while people check, each insurer in its state, complete once they answered', async () => {
    const uid = await startSearch(t.app, a.auth, {
      insurer_code_list: ALL,
      patient: someone({ first_name: 'not_found' }),
    });
    const waiting = await waitingAnswer(uid);
    expect(waiting.status).toBe('processing');
    expect(waiting.insurers.map((e: Json) => [e.insurer_code, e.state])).toEqual([
      [DEMO, 'no_plan'],
      [VSP, 'waiting_for_person'],
      [EYEMED, 'waiting_for_person'],
    ]);
    const tasks = await tasksOf(uid);
    await notFound(tasks.get(VSP).id);
    expect((await v2(uid)).status).toBe('processing');
    await notFound(tasks.get(EYEMED).id);
    const done = await waitForResult(t.app, a.auth, uid);
    expect(done).toMatchObject({ status: 'complete', results: [] });
    expect(done.insurers.map((e: Json) => e.state)).toEqual(['no_plan', 'no_plan', 'no_plan']);
  });

  it('reuse: a second search of the same VSP member within the window completes at once from the earlier task, a dependent named in it too; max_age_hours 0 asks again; never across accounts', async () => {
    const holder = someone({ first_name: 'Rosa', dob: '1980-02-02', member_id: 'VSPR100' });
    const first = await startSearch(t.app, a.auth, { insurer_code: VSP, patient: holder });
    const taskId = (await waitingAnswer(first)).verification.task_id;
    const plan = demoPlans[0].persons[0].plan;
    await complete(taskId, [
      {
        ...demoPlans[0],
        insurer_code: VSP,
        persons: [
          { plan },
          {
            first_name: 'Tomás',
            last_name: holder.last_name,
            dob: '2012-05-05',
            type: 'dependent',
            plan,
          },
        ],
      },
    ]);
    expect((await waitForResult(t.app, a.auth, first)).results).toHaveLength(1);

    const reusedEntry = {
      insurer_code: VSP,
      state: 'found',
      result_ids: [expect.any(Number)],
      detail: null,
      finished_at: expect.stringMatching(ISO),
      verification: {
        task_id: taskId,
        state: 'completed',
        due_by: expect.stringMatching(ISO),
        reused: true,
        checked_at: expect.stringMatching(ISO),
      },
    };
    const again = await waitForResult(
      t.app,
      a.auth,
      await startSearch(t.app, a.auth, { insurer_code: VSP, patient: holder }),
    );
    expect(again.status).toBe('complete');
    expect(again.results[0].persons.map((p: Json) => p.first_name)).toEqual(['Rosa', 'Tomás']);
    expect(again.insurers).toEqual([reusedEntry]);

    // The dependent, by names and date of birth (no member id), whatever the case.
    const child = await waitForResult(
      t.app,
      a.auth,
      await startSearch(t.app, a.auth, {
        insurer_code: VSP,
        patient: {
          ...holder,
          first_name: 'TOMÁS',
          last_name: holder.last_name.toLowerCase(),
          dob: '2012-05-05',
          member_id: null,
        },
      }),
    );
    expect(child.insurers).toEqual([reusedEntry]);

    // In a Universal Search the reused answer counts as found.
    const universal = await waitForResult(
      t.app,
      a.auth,
      await startSearch(t.app, a.auth, {
        insurer_code_list: [VSP, EYEMED],
        patient: holder,
      }),
    );
    expect(universal.insurers.map((e: Json) => e.state)).toEqual(['found', 'not_asked']);

    const [{ reused_count }] = await db.query(
      'SELECT reused_count FROM verification_tasks WHERE id = $1',
      [taskId],
    );
    expect(reused_count).toBe(3);

    // max_age_hours 0: always a person.
    const fresh = await startSearch(t.app, a.auth, {
      insurer_code: VSP,
      patient: holder,
      max_age_hours: 0,
    });
    expect((await waitingAnswer(fresh)).verification.task_id).not.toBe(taskId);
    // Another account never sees this account's answers.
    const other = await startSearch(t.app, b.auth, { insurer_code: VSP, patient: holder });
    expect((await waitingAnswer(other, b)).insurers[0].state).toBe('waiting_for_person');

    // Older than the window (72 hours by default): asked again; a wider max_age_hours reuses it.
    await db.query(
      `UPDATE verification_tasks SET answered_at = now() - interval '73 hours' WHERE id = $1`,
      [taskId],
    );
    const old = await startSearch(t.app, a.auth, {
      insurer_code: VSP,
      patient: { ...holder, member_id: null, first_name: 'Tomás', dob: '2012-05-05' },
    });
    expect((await waitingAnswer(old)).insurers[0].state).toBe('waiting_for_person');
    const wider = await waitForResult(
      t.app,
      a.auth,
      await startSearch(t.app, a.auth, { insurer_code: VSP, patient: holder, max_age_hours: 100 }),
    );
    expect(wider.insurers[0].verification).toMatchObject({ task_id: taskId, reused: true });
  });

  it('reuse: "no such member" answers the same person again (no_plan, reused)', async () => {
    const nobody = someone({ member_id: 'VSPNOBODY1' });
    const first = await startSearch(t.app, a.auth, { insurer_code: VSP, patient: nobody });
    const taskId = (await waitingAnswer(first)).verification.task_id;
    await notFound(taskId);
    const again = await waitForResult(
      t.app,
      a.auth,
      await startSearch(t.app, a.auth, { insurer_code: VSP, patient: nobody }),
    );
    expect(again).toMatchObject({ status: 'complete', results: [] });
    expect(again.insurers[0]).toMatchObject({
      state: 'no_plan',
      verification: { task_id: taskId, state: 'failed', reused: true },
    });
  });

  it('reuse: the same member id and date of birth under another last name is someone else (a new task); the same person however typed is reused', async () => {
    const holder = someone({
      first_name: 'Inés',
      last_name: 'García-López',
      dob: '1975-03-03',
      member_id: 'VSPSHARED1',
    });
    const first = await startSearch(t.app, a.auth, { insurer_code: VSP, patient: holder });
    const taskId = (await waitingAnswer(first)).verification.task_id;
    await complete(taskId, [{ ...demoPlans[0], insurer_code: VSP }]);
    await waitForResult(t.app, a.auth, first);

    // Someone else typed with this member id and date of birth: never given Inés's answer.
    const stranger = await startSearch(t.app, a.auth, {
      insurer_code: VSP,
      patient: { ...holder, first_name: 'Inés', last_name: 'Moreau' },
    });
    const waiting = await waitingAnswer(stranger);
    expect(waiting.insurers[0]).toMatchObject({
      state: 'waiting_for_person',
      verification: { state: 'queued' },
    });
    expect(waiting.insurers[0].verification.reused).toBeUndefined();
    expect(waiting.verification.task_id).not.toBe(taskId);

    // Inés as another system types her: case, accents, hyphen and spaces do not matter.
    const retyped = await waitForResult(
      t.app,
      a.auth,
      await startSearch(t.app, a.auth, {
        insurer_code: VSP,
        patient: { ...holder, first_name: 'INES', last_name: 'garcia lopez' },
      }),
    );
    expect(retyped.status).toBe('complete');
    expect(retyped.insurers[0].verification).toMatchObject({ task_id: taskId, reused: true });
  });

  it('assisted "always" asks people at once though the sandbox finds a plan; "never" asks none', async () => {
    const always = await startSearch(t.app, a.auth, {
      insurer_code_list: ALL,
      patient: someone(),
      assisted: 'always',
    });
    const waiting = await waitingAnswer(always);
    expect(waiting.insurers.map((e: Json) => e.state)).toEqual([
      'found',
      'waiting_for_person',
      'waiting_for_person',
    ]);
    expect((await tasksOf(always)).size).toBe(2);

    const never = await waitForResult(
      t.app,
      a.auth,
      await startSearch(t.app, a.auth, {
        insurer_code_list: ALL,
        patient: someone({ first_name: 'not_found' }),
        assisted: 'never',
      }),
    );
    expect(never).toMatchObject({ status: 'complete', results: [] });
    expect(never.insurers.map((e: Json) => [e.state, e.detail])).toEqual([
      ['no_plan', 'Demo Vision (sandbox) found no plan for this patient.'],
      [
        'not_asked',
        'VSP Vision Care is answered by a person, and this request asked for none (assisted: never).',
      ],
      [
        'not_asked',
        'EyeMed is answered by a person, and this request asked for none (assisted: never).',
      ],
    ]);
    expect((await tasksOf(never.request_uid)).size).toBe(0);

    const alone = await waitForResult(
      t.app,
      a.auth,
      await startSearch(t.app, a.auth, {
        insurer_code: VSP,
        patient: someone(),
        assisted: 'never',
      }),
    );
    expect(alone).toMatchObject({
      status: 'error',
      error_code: 'insurer_problem',
      error_detail:
        'VSP Vision Care is answered by a person, and this request asked for none (assisted: never).',
    });
  });

  it('refuses an unknown wait_for or assisted, and max_age_hours outside 0–720, as field errors, storing nothing', async () => {
    const count = async () =>
      (
        await db.query(
          'SELECT count(*)::int AS n FROM eligibility_requests WHERE account_id = $1',
          [a.accountId],
        )
      )[0].n;
    const before = await count();
    const bad: [Record<string, unknown>, string][] = [
      [{ wait_for: 'sometimes' }, 'wait_for'],
      [{ wait_for: 3 }, 'wait_for'],
      [{ assisted: 'maybe' }, 'assisted'],
      [{ max_age_hours: -1 }, 'max_age_hours'],
      [{ max_age_hours: 721 }, 'max_age_hours'],
      [{ max_age_hours: 1.5 }, 'max_age_hours'],
      [{ max_age_hours: 'ten' }, 'max_age_hours'],
    ];
    for (const [extra, field] of bad) {
      const res = await http()
        .post('/api/auth/v1/eligibility/')
        .set(a.auth)
        .send({ insurer_code_list: ALL, patient: someone(), ...extra });
      expect(res.status).toBe(400);
      expect(Object.keys(res.body.errors)).toEqual([field]);
    }
    const batch = await http()
      .post('/api/auth/v1/eligibility/batches/')
      .set(a.auth)
      .send({ items: [{ insurer_code: DEMO, patient: someone(), assisted: 'sometimes' }] });
    expect(batch.status).toBe(400);
    expect(JSON.stringify(batch.body.errors)).toContain('assisted');
    expect(await count()).toBe(before);
    // The edges are accepted.
    for (const hours of [0, 720])
      await http()
        .post('/api/auth/v1/eligibility/')
        .set(a.auth)
        .send({ insurer_code: DEMO, patient: someone(), max_age_hours: hours })
        .expect(201);
  });

  it('the check page lists every insurer with its state in words', async () => {
    const uid = await startSearch(t.app, a.auth, { insurer_code_list: ALL, patient: someone() });
    await waitForResult(t.app, a.auth, uid);
    const { agent } = await signIn(t.app, a.email, a.password);
    const page = await agent.get(`/app/eligibility/${uid}`).expect(200);
    const card = page.text.slice(page.text.indexOf('id="insurers"'));
    expect(card).toMatch(/data-state="found"[\s\S]*Plan found/);
    expect(card).toMatch(
      /data-state="not_asked"[\s\S]*Not asked[\s\S]*An active plan was found with Demo Vision \(sandbox\)\./,
    );
    expect(card).toContain('VSP Vision Care');
    expect(card).toContain('EyeMed');
  });
});
