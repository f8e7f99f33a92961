import request from 'supertest';
import { DataSource } from 'typeorm';
import { ApiKeysService } from '@/modules/auth/domain/api-keys.service';
import { InsurerSettingsService } from '@/modules/insurers/domain/insurer-settings.service';
import { CREDENTIAL_READS_PER_HOUR } from '@/modules/verification/domain/credentials-throttle';
import { createTestApp, TestApp } from './support/app';
import { patient, startSearch } from './support/eligibility';
import { createAccount, TestAccount } from './support/factories';
import { waitUntil } from './support/queues';
import { type Agent, createUser, postForm, signIn } from './support/web-sign-in';

const VSP = 'insurer:vision:vsp';
const TASKS = '/api/auth/v1/verification-tasks/';
const PASSWORD = 'P0rtal!pw-credentials-spec';

describe('stored portal passwords: an open task, its lease holder, a few reads an hour', () => {
  let t: TestApp;
  let a: TestAccount;
  let b: TestAccount;
  let admin: Agent;
  let staff: Agent;

  beforeAll(async () => {
    t = await createTestApp();
    a = await createAccount(t.app);
    b = await createAccount(t.app);
    await t.app.get(InsurerSettingsService).setCredentials(a.accountId, VSP, 'drsmith', PASSWORD);
    admin = (await signIn(t.app, a.email, a.password)).agent;
    const s = await createUser(t.app, a.accountId, 'staff');
    staff = (await signIn(t.app, s.email, s.password)).agent;
  });
  afterAll(() => t.close());

  const http = () => request(t.app.getHttpServer());
  const bot = async (who: TestAccount = a) => {
    const { key } = await t.app
      .get(ApiKeysService)
      .create(who.accountId, 'portal bot', ['verification:write', 'verification:credentials']);
    return { Authorization: `Api ${key}` };
  };
  const vspTask = async () => {
    const uid = await startSearch(t.app, a.auth, {
      insurer_code: VSP,
      patient: patient(),
      max_age_hours: 0,
    });
    const answer = await waitUntil(`task of ${uid}`, async () => {
      const res = await http().get(`/api/auth/v2/eligibility/${uid}/`).set(a.auth);
      return res.body.verification ? res.body : undefined;
    });
    return answer.verification.task_id as string;
  };
  const reads = async (taskId: string) =>
    (
      await t.app
        .get(DataSource)
        .query(
          `SELECT count(*)::int AS n FROM audit_events WHERE resource_type = 'insurer_credentials' AND resource_id = $1`,
          [taskId],
        )
    )[0].n as number;
  const read = (taskId: string, auth: { Authorization: string }) =>
    http().get(`${TASKS}${taskId}/credentials/`).set(auth);

  it('answers only the key holding an open task: 403 unclaimed, held by another or lapsed, 409 closed', async () => {
    const taskId = await vspTask();
    const [mine, theirs] = [await bot(), await bot()];
    const unclaimed = await read(taskId, mine);
    expect(unclaimed.status).toBe(403);
    expect(unclaimed.body).toEqual({
      detail:
        'Claim this task first: its portal password is shown only to the verifier holding its lease.',
    });
    await http().post(`${TASKS}${taskId}/claim/`).set(theirs).expect(200);
    expect((await read(taskId, mine)).status).toBe(403);
    const held = await read(taskId, theirs);
    expect(held.status).toBe(200);
    expect(held.body).toEqual({ username: 'drsmith', password: PASSWORD });

    await t.app
      .get(DataSource)
      .query(
        `UPDATE verification_tasks SET lease_until = now() - interval '1 minute' WHERE id = $1`,
        [taskId],
      );
    expect((await read(taskId, theirs)).status).toBe(403);
    await http().post(`${TASKS}${taskId}/claim/`).set(mine).expect(200);
    await http()
      .post(`${TASKS}${taskId}/fail/`)
      .set(mine)
      .send({ reason: 'portal_down' })
      .expect(200);
    const closed = await read(taskId, mine);
    expect(closed.status).toBe(409);
    expect(closed.body).toEqual({ detail: 'This task is already failed.' });
    expect(JSON.stringify([unclaimed.body, closed.body])).not.toContain(PASSWORD);
    // Only the one answer that showed the password is a read.
    expect(await reads(taskId)).toBe(1);
    // Another account's key learns nothing, claimed or not.
    expect((await read(taskId, await bot(b))).status).toBe(404);
  });

  it(`gives one key at most ${CREDENTIAL_READS_PER_HOUR} reads an hour, even in parallel, then 429`, async () => {
    const [first, second] = [await vspTask(), await vspTask()];
    const key = await bot();
    await http().post(`${TASKS}${first}/claim/`).set(key).expect(200);
    await http().post(`${TASKS}${second}/claim/`).set(key).expect(200);
    const answers = await Promise.all(
      Array.from({ length: CREDENTIAL_READS_PER_HOUR + 5 }, (_, i) =>
        read(i % 2 ? first : second, key),
      ),
    );
    const statuses = answers.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(CREDENTIAL_READS_PER_HOUR);
    expect(statuses.filter((s) => s === 429)).toHaveLength(5);
    const refused = answers.find((r) => r.status === 429)!;
    const retryAfter = Number(refused.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(3600);
    expect(refused.body).toEqual({
      detail: `Request was throttled. Expected available in ${retryAfter} seconds.`,
    });
    expect((await reads(first)) + (await reads(second))).toBe(CREDENTIAL_READS_PER_HOUR);
    // The budget is the key's: another key holding its own task still reads.
    const other = await bot();
    const third = await vspTask();
    await http().post(`${TASKS}${third}/claim/`).set(other).expect(200);
    expect((await read(third, other)).status).toBe(200);
  });

  it('the web reveal follows the same rule for staff and admins: only the user holding the task', async () => {
    const taskId = await vspTask();
    const url = `/app/verifications/${taskId}`;
    const page = await staff.get(url).expect(200);
    expect(page.text).not.toContain('id="reveal"');
    expect(page.text).toContain('id="reveal-rule"');
    const unclaimed = await postForm(staff, url, `${url}/credentials`, {});
    expect(unclaimed.status).toBe(403);
    expect(unclaimed.text).not.toContain(PASSWORD);
    expect(unclaimed.text).toContain('Claim this task first');

    expect((await postForm(admin, url, `${url}/claim`, {})).status).toBe(302);
    const notHolder = await postForm(staff, url, `${url}/credentials`, {});
    expect(notHolder.status).toBe(403);
    expect(notHolder.text).not.toContain(PASSWORD);
    expect((await admin.get(url)).text).toContain('id="reveal"');
    const adminReveal = await postForm(admin, url, `${url}/credentials`, {});
    expect(adminReveal.status).toBe(200);
    expect(adminReveal.text).toContain(PASSWORD);

    const staffTask = await vspTask();
    const staffUrl = `/app/verifications/${staffTask}`;
    expect((await postForm(staff, staffUrl, `${staffUrl}/claim`, {})).status).toBe(302);
    const staffReveal = await postForm(staff, staffUrl, `${staffUrl}/credentials`, {});
    expect(staffReveal.status).toBe(200);
    expect(staffReveal.text).toContain(PASSWORD);
    expect(await reads(taskId)).toBe(1);
    expect(await reads(staffTask)).toBe(1);
  });
});
