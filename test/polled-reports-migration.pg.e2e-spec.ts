import { DataSource } from 'typeorm';
import { PolledReportsPerAccount1795552000000 } from '@/platform/db/migrations/1795552000000-PolledReportsPerAccount';
import { createTestApp, TestApp } from './support/app';
import { createAccount, TestAccount } from './support/factories';

const entry = (code: string | null, clp01: string) => ({
  claim_code: code,
  patient_control_number: clp01,
  status_code: '1',
  paid_amount: '80.0000',
  patient_name: `PATIENT ${clp01}`,
});
const plb = {
  reason: 'WO',
  reference: 'OVERPAY',
  amount: '10.0000',
  fiscal_period_end: '2026-12-31',
};

/**
 * Issue 40's migration: remittances stored from a polled 835 before it lose the CLPs naming no
 * claim, and the PLB of a payment two accounts shared, to the operator's table (each kept once);
 * an uploaded report's remittance keeps everything.
 */
describe('migration: polled reports per account', () => {
  let t: TestApp;
  let a: TestAccount;
  let b: TestAccount;
  let db: DataSource;

  beforeAll(async () => {
    t = await createTestApp();
    a = await createAccount(t.app);
    b = await createAccount(t.app);
    db = t.app.get(DataSource);
  });
  afterAll(() => t.close());

  const report = async (accountId: string | null, n: string): Promise<string> =>
    (
      await db.query(
        `INSERT INTO claim_reports (account_id, source, external_id, content_sha256, type, x12)
         VALUES ($1, $2, $3, $4, '835', 'ISA~') RETURNING id`,
        [accountId, accountId ? 'upload' : 'poller', accountId ? null : `r-${n}`, n.repeat(64)],
      )
    )[0].id;
  const remittance = async (
    accountId: string,
    reportId: string,
    claims: object[],
    trace = 'EFT1',
  ) =>
    (
      await db.query(
        `INSERT INTO remittances (account_id, report_id, payer_id, payer_name, trace_number,
           payment_amount, payment_method, claims, provider_adjustments, claims_matched,
           claims_unmatched)
         VALUES ($1, $2, 'VBP', 'VISION BENEFITS PLAN', $5, 150, 'ACH', $3, $4, 1, 1)
         RETURNING id`,
        [accountId, reportId, JSON.stringify(claims), JSON.stringify([plb]), trace],
      )
    )[0].id;

  it("moves a polled remittance's unknown CLPs and shared PLB to the operator, once; an upload keeps its own", async () => {
    const migration = new PolledReportsPerAccount1795552000000();
    const runner = db.createQueryRunner();
    try {
      await migration.down(runner);
      const polled = await report(null, 'a');
      const ofA = await remittance(a.accountId, polled, [
        entry('CLMA', 'CLMA'),
        entry(null, 'UNKNOWN-1'),
      ]);
      const ofB = await remittance(b.accountId, polled, [
        entry(null, 'UNKNOWN-1'),
        entry('CLMB', 'CLMB'),
      ]);
      const uploaded = await report(a.accountId, 'b');
      const upload = await remittance(a.accountId, uploaded, [entry(null, 'UNKNOWN-2')], 'EFT2');
      await migration.up(runner);

      const rows = await db.query(
        `SELECT id, claims, provider_adjustments, claims_unmatched FROM remittances
         WHERE id = ANY($1)`,
        [[ofA, ofB, upload]],
      );
      const byId = new Map(rows.map((r: { id: string }) => [r.id, r]));
      expect(byId.get(ofA)).toMatchObject({
        claims: [entry('CLMA', 'CLMA')],
        provider_adjustments: [],
        claims_unmatched: 0,
      });
      expect(byId.get(ofB)).toMatchObject({
        claims: [entry('CLMB', 'CLMB')],
        provider_adjustments: [],
        claims_unmatched: 0,
      });
      expect(byId.get(upload)).toMatchObject({
        claims: [entry(null, 'UNKNOWN-2')],
        provider_adjustments: [plb],
        claims_unmatched: 1,
      });
      const held = await db.query(
        `SELECT kind, reference, amount::text AS amount FROM unmatched_remittance_items
         WHERE report_id = $1 ORDER BY kind`,
        [polled],
      );
      expect(held).toEqual([
        { kind: 'claim', reference: 'UNKNOWN-1', amount: '80.0000' },
        { kind: 'provider_adjustment', reference: 'OVERPAY', amount: '10.0000' },
      ]);
    } finally {
      await runner.release();
    }
  });
});
