import type { InsurerEntry } from '@/modules/eligibility/domain/insurer-entries';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { PhiRetention } from '@/modules/audit/domain/retention/phi-retention';
import { purgedBody } from '@/modules/eligibility/retention/domain/purged-answer';
import { ERROR_DETAILS } from '@/modules/eligibility/domain/error-details';
import { createTestApp, TestApp } from './support/app';
import { patient, startSearch, waitForResult } from './support/eligibility';
import { createAccount, TestAccount } from './support/factories';
import { TestReceiver } from './support/receiver';

describe('retention of patient data (SECURITY.md, PHI_RETENTION_DAYS)', () => {
  let t: TestApp;
  let a: TestAccount;
  let db: DataSource;
  let receiver: TestReceiver;

  beforeAll(async () => {
    receiver = await new TestReceiver().start();
    // The job's own timer first fires a minute after start; the test runs each pass itself
    // (tick() joins a pass already running).
    t = await createTestApp({ env: { PHI_RETENTION_DAYS: '30' } });
    a = await createAccount(t.app);
    db = t.app.get(DataSource);
  });
  afterAll(async () => {
    await t.close();
    await receiver.stop();
  });

  const http = () => request(t.app.getHttpServer());
  const backdate = (uid: string, days: number) =>
    db.query(
      `UPDATE eligibility_requests SET created_at = now() - make_interval(days => $2)
        WHERE uid = $1 AND account_id = $3`,
      [uid, days, a.accountId],
    );
  const requestRow = async (uid: string) =>
    (
      await db.query<Record<string, unknown>[]>(
        `SELECT id, uid, status, error_code, query, body_v1, body_v2, created_at, completed_at, purged_at
           FROM eligibility_requests WHERE uid = $1`,
        [uid],
      )
    )[0];
  const personsOf = async (id: unknown) =>
    Number(
      (
        await db.query<{ n: string }[]>(
          `SELECT count(*) AS n FROM eligibility_persons p
             JOIN eligibility_results r ON r.id = p.result_id WHERE r.request_id = $1`,
          [id],
        )
      )[0].n,
    );

  const exchangesOf = async (id: unknown) =>
    Number(
      (
        await db.query<{ n: string }[]>(
          `SELECT count(*) AS n FROM insurer_exchanges WHERE request_id = $1`,
          [id],
        )
      )[0].n,
    );

  it('erases the patient data of requests older than the limit, keeps uid, status and dates, and leaves newer ones alone', async () => {
    await http()
      .post('/api/auth/v1/webhooks/')
      .set(a.auth)
      .send({ url: receiver.url('/hook') })
      .expect(201);
    const old = await startSearch(t.app, a.auth, { patient: patient({ first_name: 'Olda' }) });
    const failed = await startSearch(t.app, a.auth, {
      patient: patient({ first_name: 'in_err_ins' }),
    });
    const recent = await startSearch(t.app, a.auth, { patient: patient({ first_name: 'Newt' }) });
    for (const uid of [old, failed, recent]) await waitForResult(t.app, a.auth, uid);
    const recentV1 = (await http().get(`/api/auth/v1/eligibility/${recent}/`).set(a.auth)).text;
    const recentV2 = (await http().get(`/api/auth/v2/eligibility/${recent}/`).set(a.auth)).text;
    const before = await requestRow(old);
    const stored = JSON.parse(before.body_v2 as string).insurers as InsurerEntry[];
    expect(stored).toEqual([expect.objectContaining({ state: 'found' })]);
    const sandboxFound = stored.map((e) => ({ ...e, result_ids: [] }));
    expect(await personsOf(before.id)).toBeGreaterThan(0);
    expect(await exchangesOf(before.id)).toBeGreaterThan(0);
    const recentId = (await requestRow(recent)).id;
    const recentExchanges = await exchangesOf(recentId);
    expect(recentExchanges).toBeGreaterThan(0);

    await backdate(old, 31);
    await backdate(failed, 45);
    await backdate(recent, 29);
    await t.app.get(PhiRetention).tick();

    const after = await requestRow(old);
    expect(after).toEqual({
      ...before,
      created_at: expect.any(Date),
      query: {},
      body_v1: purgedBody(old, 'complete', null, sandboxFound),
      body_v2: purgedBody(old, 'complete', null, sandboxFound),
      purged_at: expect.any(Date),
    });
    expect(await personsOf(after.id)).toBe(0);
    expect(await exchangesOf(after.id)).toBe(0);
    expect(await exchangesOf(recentId)).toBe(recentExchanges);
    expect(JSON.stringify(after)).not.toMatch(/Olda|Garcia|1984-06-15|78701/i);

    for (const version of ['v1', 'v2']) {
      const res = await http().get(`/api/auth/${version}/eligibility/${old}/`).set(a.auth);
      expect(res.status).toBe(200);
      // The insurers stay (no patient data in them), without the ids of the results gone.
      expect(res.text).toBe(
        `{"request_uid":"${old}","origin":null,"status":"complete","error_code":null,"error_detail":null,"results":[],"purged":true,"insurers":${JSON.stringify(sandboxFound)}}`,
      );
      expect(JSON.parse(res.text).insurers[0]).toMatchObject({ state: 'found', result_ids: [] });
      const err = await http().get(`/api/auth/${version}/eligibility/${failed}/`).set(a.auth);
      expect(err.body).toEqual({
        request_uid: failed,
        origin: null,
        status: 'error',
        error_code: 'insurer_problem',
        error_detail: ERROR_DETAILS.insurer_problem,
        results: [],
        purged: true,
        insurers: [expect.objectContaining({ state: 'failed', result_ids: [] })],
      });
    }

    // Webhook deliveries of the purged request no longer carry the patient either.
    const deliveries = await db.query<{ request_uid: string; body: string }[]>(
      `SELECT request_uid, body FROM webhook_deliveries WHERE account_id = $1`,
      [a.accountId],
    );
    const oldDeliveries = deliveries.filter((d) => d.request_uid === old);
    expect(oldDeliveries.length).toBeGreaterThan(0);
    for (const d of oldDeliveries)
      expect(d.body).toBe(purgedBody(old, 'complete', null, sandboxFound));

    // Newer than the limit: untouched, byte for byte, without `purged`.
    expect((await http().get(`/api/auth/v1/eligibility/${recent}/`).set(a.auth)).text).toBe(
      recentV1,
    );
    expect((await http().get(`/api/auth/v2/eligibility/${recent}/`).set(a.auth)).text).toBe(
      recentV2,
    );
    expect(recentV2).not.toContain('purged');
    expect((await requestRow(recent)).purged_at).toBeNull();
    expect(deliveries.find((d) => d.request_uid === recent)?.body.includes('Newt')).toBe(true);
  });

  it('is idempotent and resumable: a second pass changes nothing, and more than a batch is all done', async () => {
    const firstPurge = await db.query<{ uid: string; purged_at: Date }[]>(
      `SELECT uid, purged_at FROM eligibility_requests WHERE purged_at IS NOT NULL ORDER BY uid`,
    );
    await t.app.get(PhiRetention).tick();
    expect(
      await db.query(
        `SELECT uid, purged_at FROM eligibility_requests WHERE purged_at IS NOT NULL ORDER BY uid`,
      ),
    ).toEqual(firstPurge);

    // 450 old requests (more than two batches), copied from a finished one.
    const uid = await startSearch(t.app, a.auth, { patient: patient({ first_name: 'Bulk' }) });
    await waitForResult(t.app, a.auth, uid);
    await db.query(
      `INSERT INTO eligibility_requests
         (account_id, uid, kind, location_id, insurer_codes, query, status, job_due_at, body_v1, body_v2, created_at, completed_at)
       SELECT account_id, uid || '-' || g, kind, location_id, insurer_codes, query, status, job_due_at,
              body_v1, body_v2, now() - interval '40 days', completed_at
         FROM eligibility_requests, generate_series(1, 450) AS g
        WHERE uid = $1`,
      [uid],
    );
    await t.app.get(PhiRetention).tick();
    const [{ left }] = await db.query<{ left: string }[]>(
      `SELECT count(*) AS left FROM eligibility_requests
        WHERE created_at < now() - interval '30 days' AND purged_at IS NULL`,
    );
    expect(Number(left)).toBe(0);
    const [{ bulk }] = await db.query<{ bulk: string }[]>(
      `SELECT count(*) AS bulk FROM eligibility_requests WHERE uid LIKE $1 AND body_v2 LIKE '%Bulk%'`,
      [`${uid}-%`],
    );
    expect(Number(bulk)).toBe(0);
    // The original, not backdated, keeps its data.
    expect((await requestRow(uid)).purged_at).toBeNull();
  });

  it("erases a verification task's plans, evidence and notes with its request (docs/api.md, Insurers and assisted verification)", async () => {
    const hook = await http()
      .post('/api/auth/v1/webhooks/')
      .set(a.auth)
      .send({ url: receiver.url('/tasks'), events: ['verification'] })
      .expect(201);
    const uid = await startSearch(t.app, a.auth, {
      insurer_code: 'insurer:vision:vsp',
      patient: patient({ first_name: 'Tasked' }),
    });
    let taskId: string | undefined;
    for (let i = 0; i < 200 && !taskId; i++) {
      taskId = (await http().get(`/api/auth/v1/eligibility/${uid}/`).set(a.auth)).body.verification
        ?.task_id;
      if (!taskId) await new Promise((r) => setTimeout(r, 50));
    }
    await http()
      .post(`/api/auth/v1/verification-tasks/${taskId}/fail/`)
      .set(a.auth)
      .send({ reason: 'portal_down', detail: 'Tasked Garcia: portal down' })
      .expect(200);
    await waitForResult(t.app, a.auth, uid);
    await backdate(uid, 31);
    await t.app.get(PhiRetention).tick();
    const [task] = await db.query(
      'SELECT plans, evidence, detail, history::text AS history FROM verification_tasks WHERE id = $1',
      [taskId],
    );
    expect(task).toMatchObject({ plans: null, evidence: null, detail: null });
    expect(task.history).not.toMatch(/Tasked|portal down/);
    const bodies = await db.query(
      `SELECT body FROM webhook_deliveries WHERE request_uid = $1 AND event LIKE 'verification_task.%'`,
      [taskId],
    );
    expect(bodies.length).toBeGreaterThan(0);
    for (const { body } of bodies) expect(body).not.toMatch(/Tasked/);
    await http().delete(`/api/auth/v1/webhooks/${hook.body.id}/`).set(a.auth).expect(204);
  });

  it('empties e-mails older than the limit once sent, keeping what they were about (SECURITY.md)', async () => {
    const insert = (status: string, days: number) =>
      db.query(
        `INSERT INTO mail_messages (account_id, kind, ref, to_address, subject, text_body, html_body,
           attachments, status, sent_at, created_at)
         VALUES ($1, 'claim_notification', 'CLM12345678', 'pat@example.test', 'Your claim for Ann Lee',
           'Ann Lee, 1 Main St', '<p>Ann Lee</p>', '[{"filename":"claim.pdf","contentType":"application/pdf","content":"JVBE"}]',
           $2::varchar, CASE WHEN $2::varchar = 'sent' THEN now() END, now() - make_interval(days => $3))
         RETURNING id`,
        [a.accountId, status, days],
      );
    const [old] = await insert('sent', 31);
    const [queued] = await insert('queued', 31);
    const [recent] = await insert('sent', 29);
    await t.app.get(PhiRetention).tick();
    const rows = await db.query(
      `SELECT id, kind, ref, status, to_address, subject, text_body, html_body, attachments
         FROM mail_messages WHERE id = ANY($1::uuid[])`,
      [[old.id, queued.id, recent.id]],
    );
    const byId = (id: string) => rows.find((r: { id: string }) => r.id === id);
    expect(byId(old.id)).toMatchObject({
      kind: 'claim_notification',
      ref: 'CLM12345678',
      status: 'sent',
      to_address: '',
      subject: '',
      text_body: '',
      html_body: '',
      attachments: null,
    });
    expect(byId(queued.id).text_body).toBe('Ann Lee, 1 Main St');
    expect(byId(recent.id).text_body).toBe('Ann Lee, 1 Main St');
  });

  it('deletes quotes older than the limit, leaving newer ones (docs/api.md, The counter)', async () => {
    const quote = async () => {
      const res = await http()
        .post('/api/auth/v1/quotes/')
        .set(a.auth)
        .send({
          plan: {
            insurer_state: 'inn',
            items: [],
            materials: { network: 'inn', frame: { allowance: '150.00' } },
          },
          order: { frame: { retail: '189.00' } },
        })
        .expect(201);
      return res.body.id as string;
    };
    const old = await quote();
    const recent = await quote();
    await db.query(`UPDATE quotes SET created_at = now() - interval '31 days' WHERE id = $1`, [
      old,
    ]);
    await t.app.get(PhiRetention).tick();
    await http().get(`/api/auth/v1/quotes/${old}/`).set(a.auth).expect(404);
    await http().get(`/api/auth/v1/quotes/${recent}/`).set(a.auth).expect(200);
  });
});

describe('retention unset (PHI_RETENTION_DAYS empty keeps everything)', () => {
  let t: TestApp;
  let a: TestAccount;

  beforeAll(async () => {
    t = await createTestApp();
    a = await createAccount(t.app);
  });
  afterAll(() => t.close());

  it('a pass erases nothing, however old', async () => {
    const db = t.app.get(DataSource);
    const uid = await startSearch(t.app, a.auth, { patient: patient() });
    await waitForResult(t.app, a.auth, uid);
    await db.query(
      `UPDATE eligibility_requests SET created_at = now() - interval '5000 days' WHERE uid = $1`,
      [uid],
    );
    expect(t.config.phiRetentionDays).toBeNull();
    await t.app.get(PhiRetention).tick();
    const [row] = await db.query<{ purged_at: Date | null; body_v2: string }[]>(
      'SELECT purged_at, body_v2 FROM eligibility_requests WHERE uid = $1',
      [uid],
    );
    expect(row.purged_at).toBeNull();
    expect(row.body_v2).toContain('"persons"');
  });
});
