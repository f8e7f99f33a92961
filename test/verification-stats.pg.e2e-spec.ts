import request from 'supertest';
import { DataSource } from 'typeorm';
import { createTestApp, TestApp } from './support/app';
import { DEMO, patient, startSearch, waitForResult } from './support/eligibility';
import { createAccount, TestAccount } from './support/factories';
import { waitUntil } from './support/queues';
import { type Agent, signIn } from './support/web-sign-in';

const VSP = 'insurer:vision:vsp';
const EYEMED = 'insurer:vision:eye_med';
const SPECTERA = 'insurer:vision:spectera';
const DIRECTORY = '/api/auth/v1/insurers/';
const TASKS = '/api/auth/v1/verification-tasks/';

/**
 * docs/api.md, The insurer directory (`tasks_open`, `median_minutes_to_answer` of assisted
 * insurers) and Verification tasks (the Verifications page's answered and reused tasks).
 */
describe("verification tasks' clocks in the directory and on the Verifications page", () => {
  let t: TestApp;
  let db: DataSource;
  const http = () => request(t.app.getHttpServer());
  let searches = 0;

  beforeAll(async () => {
    t = await createTestApp();
    db = t.app.get(DataSource);
  });
  afterAll(() => t.close());

  /**
   * A search of `insurer` for a patient of its own (no two searches name the same person, so
   * none is answered by an earlier task), waiting for its task: the request uid and the task id.
   */
  async function assistedSearch(who: TestAccount, insurer = VSP) {
    searches += 1;
    const uid = await startSearch(t.app, who.auth, {
      insurer_code: insurer,
      patient: patient({ last_name: `Stats${searches}`, member_id: `STAT${1000 + searches}` }),
    });
    const taskId = await waitUntil(`task of ${uid}`, async () => {
      const res = await http().get(`/api/auth/v2/eligibility/${uid}/`).set(who.auth);
      return res.body.verification?.task_id as string | undefined;
    });
    return { uid, taskId };
  }

  /** A task claimed and failed (`member_not_found`) through the API; its search ends. */
  async function answer(who: TestAccount, task: { uid: string; taskId: string }) {
    await http().post(`${TASKS}${task.taskId}/claim/`).set(who.auth).expect(200);
    await http()
      .post(`${TASKS}${task.taskId}/fail/`)
      .set(who.auth)
      .send({ reason: 'member_not_found' })
      .expect(200);
    expect((await waitForResult(t.app, who.auth, task.uid)).status).toBe('complete');
  }

  /**
   * Moves a task's clocks: answered `answeredAgo` ago, created `toAnswer` before that, claimed
   * `claimToAnswer` before its answer (null: never claimed). Intervals as PostgreSQL reads them.
   */
  async function setClocks(
    taskId: string,
    clocks: { answeredAgo: string; toAnswer: string; claimToAnswer?: string | null },
  ) {
    await db.query(
      `UPDATE verification_tasks
         SET answered_at = now() - $2::interval,
             created_at = now() - $2::interval - $3::interval,
             claimed_at = CASE WHEN $4::interval IS NULL THEN NULL
                               ELSE now() - $2::interval - $4::interval END
       WHERE id = $1`,
      [taskId, clocks.answeredAgo, clocks.toAnswer, clocks.claimToAnswer ?? null],
    );
  }

  const directory = async (who: TestAccount) => {
    const res = await http().get(DIRECTORY).set(who.auth).expect(200);
    return new Map<string, Record<string, unknown>>(
      res.body.result.map((e: any) => [e.insurer_code, e]),
    );
  };

  it('gives assisted insurers no open task and no median before any task, and other insurers neither field', async () => {
    const a = await createAccount(t.app);
    const byCode = await directory(a);
    expect(byCode.get(VSP)).toMatchObject({
      eligibility: 'assisted',
      tasks_open: 0,
      median_minutes_to_answer: null,
    });
    expect(byCode.get(EYEMED)).toMatchObject({ tasks_open: 0, median_minutes_to_answer: null });
    for (const code of [DEMO, SPECTERA]) {
      expect(byCode.get(code)!.eligibility).not.toBe('assisted');
      expect(byCode.get(code)).not.toHaveProperty('tasks_open');
      expect(byCode.get(code)).not.toHaveProperty('median_minutes_to_answer');
    }
  });

  it("counts the account's queued, in-progress and needs-info tasks of each insurer as open, never another account's", async () => {
    const a = await createAccount(t.app);
    const b = await createAccount(t.app);
    await assistedSearch(a);
    const claimed = await assistedSearch(a);
    const asked = await assistedSearch(a);
    const answered = await assistedSearch(a);
    await assistedSearch(a, EYEMED);
    await assistedSearch(b);
    await http().post(`${TASKS}${claimed.taskId}/claim/`).set(a.auth).expect(200);
    await http().post(`${TASKS}${asked.taskId}/claim/`).set(a.auth).expect(200);
    await http()
      .post(`${TASKS}${asked.taskId}/needs-info/`)
      .set(a.auth)
      .send({ detail: 'Which member id?' })
      .expect(200);
    await answer(a, answered);

    const states = await db.query(
      `SELECT state, count(*)::int AS n FROM verification_tasks
       WHERE account_id = $1 AND insurer_code = $2 GROUP BY state ORDER BY state`,
      [a.accountId, VSP],
    );
    expect(states).toEqual([
      { state: 'failed', n: 1 },
      { state: 'in_progress', n: 1 },
      { state: 'needs_info', n: 1 },
      { state: 'queued', n: 1 },
    ]);
    const mine = await directory(a);
    expect(mine.get(VSP)).toMatchObject({ tasks_open: 3 });
    expect(mine.get(EYEMED)).toMatchObject({ tasks_open: 1 });
    expect(mine.get('insurer:vision:cigna_vision')).toMatchObject({ tasks_open: 0 });
    expect((await directory(b)).get(VSP)).toMatchObject({ tasks_open: 1 });
  });

  it('answers the median minutes from creation to answer over the last 30 days, the mean of the middle two for an even count, per account', async () => {
    const a = await createAccount(t.app);
    const b = await createAccount(t.app);
    const vsp = [];
    for (let i = 0; i < 4; i++) vsp.push(await assistedSearch(a));
    const eyemed = [];
    for (let i = 0; i < 4; i++) eyemed.push(await assistedSearch(a, EYEMED));
    const theirs = await assistedSearch(b);
    for (const task of [...vsp, ...eyemed]) await answer(a, task);
    await answer(b, theirs);

    // VSP: 10, 20 and 40 minutes lately (median 20); a task answered 31 days ago is left out
    // (with it, 10, 20, 40, 1000 would give 30).
    await setClocks(vsp[0].taskId, { answeredAgo: '2 hours', toAnswer: '40 minutes' });
    await setClocks(vsp[1].taskId, { answeredAgo: '1 day', toAnswer: '10 minutes' });
    await setClocks(vsp[2].taskId, { answeredAgo: '29 days', toAnswer: '20 minutes' });
    await setClocks(vsp[3].taskId, { answeredAgo: '31 days', toAnswer: '1000 minutes' });
    // EyeMed: 5, 15.5, 20.25 and 90 minutes: (15.5 + 20.25) / 2 = 17.875, shown 17.9.
    await setClocks(eyemed[0].taskId, { answeredAgo: '3 hours', toAnswer: '90 minutes' });
    await setClocks(eyemed[1].taskId, {
      answeredAgo: '3 hours',
      toAnswer: '15 minutes 30 seconds',
    });
    await setClocks(eyemed[2].taskId, { answeredAgo: '3 hours', toAnswer: '5 minutes' });
    await setClocks(eyemed[3].taskId, {
      answeredAgo: '3 hours',
      toAnswer: '20 minutes 15 seconds',
    });
    // Another account's task of VSP, answered slowly, counts for that account only.
    await setClocks(theirs.taskId, { answeredAgo: '1 hour', toAnswer: '500 minutes' });

    const mine = await directory(a);
    expect(mine.get(VSP)).toMatchObject({ tasks_open: 0, median_minutes_to_answer: 20 });
    expect(mine.get(EYEMED)).toMatchObject({ tasks_open: 0, median_minutes_to_answer: 17.9 });
    expect(mine.get('insurer:vision:cigna_vision')).toMatchObject({
      median_minutes_to_answer: null,
    });
    expect((await directory(b)).get(VSP)).toMatchObject({ median_minutes_to_answer: 500 });

    // Once every VSP answer is older than 30 days, there is none to take a median of.
    await db.query(
      `UPDATE verification_tasks SET answered_at = now() - interval '40 days'
       WHERE account_id = $1 AND insurer_code = $2`,
      [a.accountId, VSP],
    );
    expect((await directory(a)).get(VSP)).toMatchObject({ median_minutes_to_answer: null });
  });

  describe('the Verifications page', () => {
    let a: TestAccount;
    let b: TestAccount;
    let web: Agent;
    let other: Agent;
    let quick: { uid: string; taskId: string };
    let slow: { uid: string; taskId: string };
    let unclaimed: { uid: string; taskId: string };
    let open: { uid: string; taskId: string };

    /** The page's rows by task id: each row's text without tags, spaces collapsed. */
    const rowsOf = (html: string) =>
      new Map(
        [...html.matchAll(/<tr data-task="([^"]+)"[^>]*>([\s\S]*?)<\/tr>/g)].map((m) => [
          m[1],
          m[2]
            .replace(/<[^>]+>/g, ' ')
            .replace(/\s+/g, ' ')
            .trim(),
        ]),
      );

    beforeAll(async () => {
      a = await createAccount(t.app);
      b = await createAccount(t.app);
      web = (await signIn(t.app, a.email, a.password)).agent;
      other = (await signIn(t.app, b.email, b.password)).agent;
      quick = await assistedSearch(a);
      slow = await assistedSearch(a);
      unclaimed = await assistedSearch(a);
      open = await assistedSearch(a);
      for (const task of [quick, slow, unclaimed]) await answer(a, task);
      await setClocks(quick.taskId, {
        answeredAgo: '1 hour',
        toAnswer: '50 minutes',
        claimToAnswer: '42 minutes 10 seconds',
      });
      await setClocks(slow.taskId, {
        answeredAgo: '2 hours',
        toAnswer: '3 days',
        claimToAnswer: '2 days 5 hours 10 minutes',
      });
      await setClocks(unclaimed.taskId, {
        answeredAgo: '3 hours',
        toAnswer: '1 hour',
        claimToAnswer: null,
      });
      await db.query(
        `UPDATE verification_tasks SET reused_count = 3, last_reused_at = '2026-11-21T13:51:16Z'
         WHERE id = $1`,
        [quick.taskId],
      );
    });

    it('lists the open tasks by default, and links the answered and reused lists', async () => {
      const page = await web.get('/app/verifications/').expect(200);
      const rows = rowsOf(page.text);
      expect([...rows.keys()]).toEqual([open.taskId]);
      expect(page.text).toContain('href="/app/verifications/?show=answered"');
      expect(page.text).toContain('href="/app/verifications/?show=reused"');
      expect(rows.get(open.taskId)).not.toContain('after it was claimed');
    });

    it('shows each answered task with how long it took from claim to answer, in minutes or days, and its reuse in words', async () => {
      const page = await web.get('/app/verifications/?show=answered').expect(200);
      expect(page.text).toMatch(/<strong aria-current="page">Answered \(last 30 days\)<\/strong>/);
      const rows = rowsOf(page.text);
      // Latest answer first; the open task is not in this list.
      expect([...rows.keys()]).toEqual([quick.taskId, slow.taskId, unclaimed.taskId]);
      expect(rows.get(quick.taskId)).toContain('answered 42 min after it was claimed');
      expect(rows.get(quick.taskId)).toContain(
        'reused for 3 later searches, last on 2026-11-21 13:51 UTC',
      );
      expect(rows.get(quick.taskId)).toContain(quick.uid);
      expect(rows.get(slow.taskId)).toContain('answered 2 days 5 hours after it was claimed');
      expect(rows.get(slow.taskId)).not.toContain('reused');
      // No claim on record (as tasks answered before claims were recorded): no such words.
      expect(rows.get(unclaimed.taskId)).not.toContain('after it was claimed');
      expect(rows.get(unclaimed.taskId)).toContain('failed');
    });

    it('lists the reused answers alone under "Reused answers"', async () => {
      const page = await web.get('/app/verifications/?show=reused').expect(200);
      expect(page.text).toMatch(/<strong aria-current="page">Reused answers<\/strong>/);
      const rows = rowsOf(page.text);
      expect([...rows.keys()]).toEqual([quick.taskId]);
      expect(rows.get(quick.taskId)).toContain('reused for 3 later searches');
    });

    it("never shows another account's answered or reused tasks", async () => {
      for (const show of ['answered', 'reused']) {
        const page = await other.get(`/app/verifications/?show=${show}`).expect(200);
        expect(rowsOf(page.text).size).toBe(0);
        for (const task of [quick, slow, unclaimed]) expect(page.text).not.toContain(task.taskId);
      }
    });
  });
});
