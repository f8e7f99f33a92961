import { migration } from './migration';

/**
 * One queue idiom (src/platform/jobs/db-queue.ts) for searches, webhook deliveries and e-mails:
 * each row records when its work is due and which Bull job holds its lease. E-mails gain their
 * due time, so the sweeper re-enqueues a message whose job was lost with Redis.
 */
export const QueueLeases1795322089173 = migration('QueueLeases1795322089173', {
  async up(q) {
    await q.query(`ALTER TABLE eligibility_requests ADD COLUMN lease_job varchar(300)`);
    await q.query(`ALTER TABLE webhook_deliveries ADD COLUMN lease_job varchar(300)`);
    await q.query(
      `ALTER TABLE mail_messages ADD COLUMN next_attempt_at timestamptz DEFAULT now(), ADD COLUMN lease_job varchar(300)`,
    );
    await q.query(
      `CREATE INDEX mail_messages_queued_idx ON mail_messages (next_attempt_at) WHERE status = 'queued'`,
    );
  },

  async down(q) {
    await q.query(`DROP INDEX mail_messages_queued_idx`);
    await q.query(`ALTER TABLE mail_messages DROP COLUMN lease_job, DROP COLUMN next_attempt_at`);
    await q.query(`ALTER TABLE webhook_deliveries DROP COLUMN lease_job`);
    await q.query(`ALTER TABLE eligibility_requests DROP COLUMN lease_job`);
  },
});
