import { migration } from './migration';

/** Remittances stored from a polled 835 (its report has no account) before this migration. */
const POLLED = `SELECT r.* FROM remittances r
  JOIN claim_reports cr ON cr.id = r.report_id AND cr.account_id IS NULL`;

/** The remittance `r` is one payment another account got a remittance of too. */
const sharedPayment = (r: string) => `EXISTS (SELECT 1 FROM remittances o
  WHERE o.report_id = ${r}.report_id AND o.payer_id = ${r}.payer_id
    AND o.trace_number = ${r}.trace_number AND o.account_id <> ${r}.account_id)`;

/**
 * A polled 835 names claims of any account. Each account now gets its own part of the
 * interchange (`claim_report_parts`, the only 835 `GET .../remittances/{id}/x12/` answers for a
 * polled report), and the CLPs that name no claim, with the provider adjustments (PLB) of a
 * payment shared by several accounts, wait for the operator (`unmatched_remittance_items`,
 * `npm run cli -- reports:unmatched`), never in a tenant's remittance. Remittances stored before
 * from polled reports lose their unmatched CLPs (and, where the payment was shared, their PLB) to
 * the operator's table; their `x12` answers 404, their report being the whole interchange.
 */
export const PolledReportsPerAccount1795552000000 = migration(
  'PolledReportsPerAccount1795552000000',
  {
    async up(q) {
      await q.query(`
      CREATE TABLE claim_report_parts (
        report_id uuid NOT NULL REFERENCES claim_reports(id) ON DELETE CASCADE,
        account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        x12 text NOT NULL,
        PRIMARY KEY (report_id, account_id)
      )`);
      await q.query(`
      CREATE TABLE unmatched_remittance_items (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        report_id uuid NOT NULL REFERENCES claim_reports(id) ON DELETE CASCADE,
        kind varchar(20) NOT NULL CONSTRAINT unmatched_remittance_items_kind_check
          CHECK (kind IN ('claim', 'provider_adjustment')),
        payer_id varchar(80) NOT NULL,
        payer_name varchar(80) NOT NULL,
        trace_number varchar(80) NOT NULL,
        reference varchar(80) NOT NULL,
        amount numeric(14,4) NOT NULL,
        detail jsonb NOT NULL,
        created_at timestamptz(3) NOT NULL DEFAULT now()
      )`);
      await q.query(
        `CREATE INDEX unmatched_remittance_items_created_idx ON unmatched_remittance_items (created_at, id)`,
      );
      // Every account's remittance of one polled payment held the same unmatched CLPs (each among
      // its own, so at other positions): kept once.
      await q.query(`
      INSERT INTO unmatched_remittance_items (report_id, kind, payer_id, payer_name, trace_number,
        reference, amount, detail, created_at)
      SELECT DISTINCT ON (p.report_id, p.payer_id, p.trace_number, e.value)
        p.report_id, 'claim', p.payer_id, p.payer_name, p.trace_number,
        left(e.value->>'patient_control_number', 80), (e.value->>'paid_amount')::numeric, e.value,
        p.created_at
      FROM (${POLLED}) p CROSS JOIN LATERAL jsonb_array_elements(p.claims) WITH ORDINALITY e(value, n)
      WHERE e.value->>'claim_code' IS NULL
      ORDER BY p.report_id, p.payer_id, p.trace_number, e.value`);
      // Each of them got the payment's PLBs, the same list.
      await q.query(`
      INSERT INTO unmatched_remittance_items (report_id, kind, payer_id, payer_name, trace_number,
        reference, amount, detail, created_at)
      SELECT DISTINCT ON (p.report_id, p.payer_id, p.trace_number, e.n)
        p.report_id, 'provider_adjustment', p.payer_id, p.payer_name, p.trace_number,
        left(e.value->>'reference', 80), (e.value->>'amount')::numeric, e.value, p.created_at
      FROM (${POLLED}) p
        CROSS JOIN LATERAL jsonb_array_elements(p.provider_adjustments) WITH ORDINALITY e(value, n)
      WHERE ${sharedPayment('p')}
      ORDER BY p.report_id, p.payer_id, p.trace_number, e.n`);
      await q.query(`
      UPDATE remittances r SET
        claims = (SELECT coalesce(jsonb_agg(e.value ORDER BY e.n), '[]')
          FROM jsonb_array_elements(r.claims) WITH ORDINALITY e(value, n)
          WHERE e.value->>'claim_code' IS NOT NULL),
        claims_unmatched = 0,
        provider_adjustments = CASE WHEN ${sharedPayment('r')}
          THEN '[]' ELSE r.provider_adjustments END
      FROM claim_reports cr WHERE cr.id = r.report_id AND cr.account_id IS NULL`);
    },

    async down(q) {
      // What was held for the operator goes with its table: a tenant's remittance does not get
      // another practice's claims back.
      await q.query(`DROP TABLE unmatched_remittance_items`);
      await q.query(`DROP TABLE claim_report_parts`);
    },
  },
);
