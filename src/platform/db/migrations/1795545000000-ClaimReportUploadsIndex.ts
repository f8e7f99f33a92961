import { migration } from './migration';

/**
 * An account's uploads of the last 24 hours are counted before each upload (its daily
 * quota of stored claim reports); this index keeps the count to the account's own rows.
 */
export const ClaimReportUploadsIndex1795545000000 = migration(
  'ClaimReportUploadsIndex1795545000000',
  {
    async up(q) {
      await q.query(
        `CREATE INDEX claim_reports_uploads_idx ON claim_reports (account_id, created_at) WHERE source = 'upload'`,
      );
    },

    async down(q) {
      await q.query(`DROP INDEX claim_reports_uploads_idx`);
    },
  },
);
