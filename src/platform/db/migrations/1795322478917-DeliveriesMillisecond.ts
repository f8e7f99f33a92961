import { migration } from './migration';

/**
 * Keyset cursors carry a JS Date (milliseconds). With microseconds stored, rows created in the
 * same millisecond as a page's last row sorted after the cursor's truncated time and were
 * skipped. Stored at millisecond precision, a cursor names its row exactly (as patients and claims).
 */
export const DeliveriesMillisecond1795322478917 = migration('DeliveriesMillisecond1795322478917', {
  async up(q) {
    await q.query(
      `ALTER TABLE webhook_deliveries ALTER COLUMN created_at TYPE timestamptz(3) USING date_trunc('milliseconds', created_at)`,
    );
  },

  async down(q) {
    await q.query(`ALTER TABLE webhook_deliveries ALTER COLUMN created_at TYPE timestamptz`);
  },
});
