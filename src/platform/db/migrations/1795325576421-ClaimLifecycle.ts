import { migration } from './migration';

/**
 * docs/api.md, Claim lifecycle: claims are submitted by a worker (837P through the clearinghouse, or paper) and
 * followed up until a final state. The claim row is its own queue row (job_due_at, attempts,
 * lease_job): due while it waits to be submitted or checked. E-mails may carry attachments
 * (the claim form PDF).
 */
export const ClaimLifecycle1795325576421 = migration('ClaimLifecycle1795325576421', {
  async up(q) {
    await q.query(`ALTER TABLE claims DROP CONSTRAINT claims_status_check`);
    await q.query(`
      ALTER TABLE claims
        ALTER COLUMN status TYPE varchar(24),
        ADD CONSTRAINT claims_status_check CHECK (status IN
          ('ready', 'submitted', 'submission_failed', 'accepted', 'rejected', 'paid', 'denied')),
        ADD COLUMN status_history jsonb NOT NULL DEFAULT '[]'
          CONSTRAINT claims_status_history_check CHECK (jsonb_typeof(status_history) = 'array'),
        ADD COLUMN submission_channel varchar(8)
          CONSTRAINT claims_submission_channel_check CHECK (submission_channel IN ('x12', 'paper')),
        ADD COLUMN clearinghouse_id varchar(100),
        ADD COLUMN submitted_at timestamptz(3),
        ADD COLUMN x12_837 text,
        ADD COLUMN job_due_at timestamptz,
        ADD COLUMN attempts integer NOT NULL DEFAULT 0,
        ADD COLUMN lease_job varchar(300)`);
    // Claims created before this release were never submitted: they start the lifecycle now.
    await q.query(`
      UPDATE claims SET job_due_at = now(), status_history = jsonb_build_array(jsonb_build_object(
        'status', 'ready',
        'at', to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"+00:00"'),
        'detail', NULL))`);
    await q.query(
      `CREATE INDEX claims_due_idx ON claims (job_due_at) WHERE job_due_at IS NOT NULL`,
    );
    await q.query(`ALTER TABLE mail_messages ADD COLUMN attachments jsonb`);
  },

  async down(q) {
    await q.query(`ALTER TABLE mail_messages DROP COLUMN attachments`);
    await q.query(`DROP INDEX claims_due_idx`);
    await q.query(`UPDATE claims SET status = 'ready'`);
    await q.query(`
      ALTER TABLE claims
        DROP CONSTRAINT claims_status_check,
        DROP COLUMN status_history, DROP COLUMN submission_channel, DROP COLUMN clearinghouse_id,
        DROP COLUMN submitted_at, DROP COLUMN x12_837, DROP COLUMN job_due_at,
        DROP COLUMN attempts, DROP COLUMN lease_job,
        ALTER COLUMN status TYPE varchar(16),
        ADD CONSTRAINT claims_status_check CHECK (status IN ('ready'))`);
  },
});
