import request from 'supertest';
import { DataSource } from 'typeorm';
import { ClaimResponses1795500290000 } from '@/platform/db/migrations/1795500290000-ClaimResponses';
import { ClaimReportUploadsIndex1795545000000 } from '@/platform/db/migrations/1795545000000-ClaimReportUploadsIndex';
import { PolledReportsPerAccount1795552000000 } from '@/platform/db/migrations/1795552000000-PolledReportsPerAccount';
import { CLAIM_BODY } from './support/api-routes';
import { createTestApp, TestApp } from './support/app';
import { createAccount, TestAccount } from './support/factories';

/**
 * the Claim reports and remittances section's (docs/api.md) migration: the `reversed` state, the claim's remittance and status check count,
 * claim reports, remittances (once per account, payer and TRN02), the poller's page token and
 * the `remittance` webhook topic; down takes them out (a reversed claim goes back to
 * `accepted`, a webhook loses the topic), up puts them back.
 */
describe('migration: claim responses', () => {
  let t: TestApp;
  let a: TestAccount;
  let db: DataSource;

  beforeAll(async () => {
    t = await createTestApp();
    a = await createAccount(t.app);
    db = t.app.get(DataSource);
  });
  afterAll(() => t.close());

  const tables = async (): Promise<string[]> =>
    (
      await db.query<{ table_name: string }[]>(
        `SELECT table_name FROM information_schema.tables WHERE table_name IN ('claim_reports', 'remittances', 'claim_report_polls') ORDER BY 1`,
      )
    ).map((r) => r.table_name);

  it('goes down (reversed → accepted, the remittance topic dropped) and up again, with its constraints', async () => {
    const http = request(t.app.getHttpServer());
    const claim = await http.post('/api/auth/v1/claims/').set(a.auth).send(CLAIM_BODY).expect(201);
    const hook = await http
      .post('/api/auth/v1/webhooks/')
      .set(a.auth)
      .send({ url: 'http://127.0.0.1:9/hook', events: ['claim', 'remittance'] })
      .expect(201);
    await db.query(`UPDATE claims SET status = 'reversed', job_due_at = NULL WHERE code = $1`, [
      claim.body.code,
    ]);
    const migration = new ClaimResponses1795500290000();
    // Later migrations built on its tables come down first and go up again after it.
    const later = [
      new PolledReportsPerAccount1795552000000(),
      new ClaimReportUploadsIndex1795545000000(),
    ];
    // Its up restores the webhook topics of its time; a later migration added one since: the
    // constraint as it stands is put back at the end, so later specs meet today's schema.
    const [{ def: eventsCheck }] = await db.query(
      `SELECT pg_get_constraintdef(oid) AS def FROM pg_constraint WHERE conname = 'webhooks_events_check'`,
    );
    const runner = db.createQueryRunner();
    try {
      for (const m of later) await m.down(runner);
      await migration.down(runner);
      expect(await tables()).toEqual([]);
      const [row] = await db.query(`SELECT status FROM claims WHERE code = $1`, [claim.body.code]);
      expect(row.status).toBe('accepted');
      const [webhook] = await db.query(`SELECT events FROM webhooks WHERE id = $1`, [hook.body.id]);
      expect(webhook.events).toEqual(['claim']);
      await expect(
        db.query(`UPDATE claims SET status = 'reversed' WHERE code = $1`, [claim.body.code]),
      ).rejects.toThrow(/claims_status_check/);
      await migration.up(runner);
      for (const m of [...later].reverse()) await m.up(runner);
      await runner.query(
        `ALTER TABLE webhooks DROP CONSTRAINT webhooks_events_check, ADD CONSTRAINT webhooks_events_check ${eventsCheck}`,
      );
    } finally {
      await runner.release();
    }
    expect(await tables()).toEqual(['claim_report_polls', 'claim_reports', 'remittances']);
    await db.query(`UPDATE claims SET status = 'reversed' WHERE code = $1`, [claim.body.code]);
    await expect(
      db.query(`UPDATE claims SET status_checks = -1 WHERE code = $1`, [claim.body.code]),
    ).rejects.toThrow(/claims_status_checks_check/);
    const [report] = await db.query(
      `INSERT INTO claim_reports (account_id, source, content_sha256, type, x12)
       VALUES ($1, 'upload', repeat('a', 64), '835', 'ISA') RETURNING id`,
      [a.accountId],
    );
    await expect(
      db.query(
        `INSERT INTO claim_reports (account_id, source, content_sha256, type, x12)
         VALUES ($1, 'upload', repeat('a', 64), '835', 'ISA')`,
        [a.accountId],
      ),
    ).rejects.toThrow(/claim_reports_content_idx/);
    await expect(
      db.query(
        `INSERT INTO claim_reports (account_id, source, content_sha256, type, x12)
         VALUES ($1, 'upload', repeat('b', 64), '837', 'ISA')`,
        [a.accountId],
      ),
    ).rejects.toThrow(/claim_reports_type_check/);
    const remittance = `INSERT INTO remittances (account_id, report_id, payer_id, payer_name, trace_number,
        payment_amount, payment_method, claims, claims_matched, claims_unmatched)
      VALUES ($1, $2, '1512345678', 'PAYER', 'EFT1', 10, 'ACH', '[]', 0, 0)`;
    await db.query(remittance, [a.accountId, report.id]);
    await expect(db.query(remittance, [a.accountId, report.id])).rejects.toThrow(
      /remittances_once/,
    );
    await http
      .patch(`/api/auth/v1/webhooks/${hook.body.id}/`)
      .set(a.auth)
      .send({ events: ['eligibility', 'claim', 'batch', 'remittance'] })
      .expect(200);
  });
});
