import { migration } from './migration';

/**
 * docs/api.md, Claim reports and remittances, claim responses: the `reversed` state (an 835 CLP02 22 takes back a payment), the
 * remittance a claim was last paid or denied by, claim reports (999, TA1, 277CA, 835) stored once
 * each before they change anything, remittances once per (account, payer, TRN02), the report
 * poller's position, the count of claim status checks, and the `remittance` webhook topic.
 */
export const ClaimResponses1795500290000 = migration('ClaimResponses1795500290000', {
  async up(q) {
    await q.query(`
      ALTER TABLE claims
        DROP CONSTRAINT claims_status_check,
        ADD CONSTRAINT claims_status_check CHECK (status IN ('ready', 'ready_to_mail',
          'submitted', 'submission_failed', 'accepted', 'rejected', 'paid', 'denied', 'reversed')),
        ADD COLUMN remittance jsonb,
        ADD COLUMN status_checks integer NOT NULL DEFAULT 0 CONSTRAINT claims_status_checks_check CHECK (status_checks >= 0)`);
    await q.query(`
      CREATE TABLE claim_reports (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        account_id uuid REFERENCES accounts(id) ON DELETE CASCADE,
        source varchar(12) NOT NULL CONSTRAINT claim_reports_source_check
          CHECK (source IN ('upload', 'poller', 'submission')),
        external_id varchar(200),
        content_sha256 char(64) NOT NULL,
        type varchar(4) NOT NULL CONSTRAINT claim_reports_type_check
          CHECK (type IN ('999', 'TA1', '277', '835')),
        x12 text NOT NULL,
        claims_matched integer NOT NULL DEFAULT 0,
        claims_unmatched integer NOT NULL DEFAULT 0,
        warnings jsonb NOT NULL DEFAULT '[]',
        created_at timestamptz(3) NOT NULL DEFAULT now()
      )`);
    // A report seen twice is processed once: by its upstream id, else by its bytes per account.
    await q.query(
      `CREATE UNIQUE INDEX claim_reports_external_idx ON claim_reports (external_id) WHERE external_id IS NOT NULL`,
    );
    await q.query(
      `CREATE UNIQUE INDEX claim_reports_content_idx ON claim_reports (coalesce(account_id::text, ''), content_sha256) WHERE external_id IS NULL`,
    );
    await q.query(`
      CREATE TABLE remittances (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        report_id uuid NOT NULL REFERENCES claim_reports(id) ON DELETE CASCADE,
        payer_id varchar(80) NOT NULL,
        payer_name varchar(80) NOT NULL,
        trace_number varchar(80) NOT NULL,
        payment_amount numeric(14,4) NOT NULL,
        payment_method varchar(3) NOT NULL,
        paid_at date,
        claims jsonb NOT NULL,
        provider_adjustments jsonb NOT NULL DEFAULT '[]',
        claims_matched integer NOT NULL,
        claims_unmatched integer NOT NULL,
        created_at timestamptz(3) NOT NULL DEFAULT now(),
        CONSTRAINT remittances_once UNIQUE (account_id, payer_id, trace_number)
      )`);
    await q.query(
      `CREATE INDEX remittances_account_created_idx ON remittances (account_id, created_at, id)`,
    );
    await q.query(`
      CREATE TABLE claim_report_polls (
        url text PRIMARY KEY,
        page_token text,
        polled_at timestamptz(3)
      )`);
    await q.query(`
      ALTER TABLE webhooks DROP CONSTRAINT webhooks_events_check,
        ADD CONSTRAINT webhooks_events_check CHECK (cardinality(events) BETWEEN 1 AND 4
          AND events <@ ARRAY['eligibility', 'claim', 'batch', 'remittance']::text[])`);
  },

  async down(q) {
    await q.query(
      `UPDATE webhooks SET events = array_remove(events, 'remittance') WHERE 'remittance' = ANY(events)`,
    );
    await q.query(`UPDATE webhooks SET events = '{eligibility}' WHERE cardinality(events) = 0`);
    await q.query(`
      ALTER TABLE webhooks DROP CONSTRAINT webhooks_events_check,
        ADD CONSTRAINT webhooks_events_check CHECK (cardinality(events) BETWEEN 1 AND 3
          AND events <@ ARRAY['eligibility', 'claim', 'batch']::text[])`);
    await q.query(`DROP TABLE claim_report_polls`);
    await q.query(`DROP TABLE remittances`);
    await q.query(`DROP TABLE claim_reports`);
    // A reversed claim goes back to the state before the reversal as far as the old states go.
    await q.query(`UPDATE claims SET status = 'accepted' WHERE status = 'reversed'`);
    await q.query(`
      ALTER TABLE claims DROP COLUMN remittance, DROP COLUMN status_checks,
        DROP CONSTRAINT claims_status_check,
        ADD CONSTRAINT claims_status_check CHECK (status IN ('ready', 'ready_to_mail',
          'submitted', 'submission_failed', 'accepted', 'rejected', 'paid', 'denied'))`);
  },
});
