import { migration } from './migration';

/**
 * docs/api.md, Universal Search insurer by insurer: a request's own choices
 * (`wait_for`, `assisted`, `max_age_hours`; null: the defaults), and what a verification task
 * needs for reuse and for its clocks: when it was first claimed and answered, the keys of the
 * persons it answers for (hashes, never the names), and how often a later search reused it.
 */
export const InsurerByInsurer1795560000000 = migration('InsurerByInsurer1795560000000', {
  async up(q) {
    await q.query(`ALTER TABLE eligibility_requests ADD COLUMN options jsonb`);
    await q.query(
      `ALTER TABLE verification_tasks ADD COLUMN claimed_at timestamptz(3),
         ADD COLUMN answered_at timestamptz(3),
         ADD COLUMN reuse_keys text[],
         ADD COLUMN reused_count integer NOT NULL DEFAULT 0,
         ADD COLUMN last_reused_at timestamptz(3)`,
    );
    // Tasks answered before: their clocks from their history (reuse keys start with new answers).
    await q.query(
      `UPDATE verification_tasks SET answered_at = updated_at WHERE state IN ('completed', 'failed')`,
    );
    await q.query(
      `UPDATE verification_tasks SET claimed_at = (SELECT min((h->>'at')::timestamptz)
         FROM jsonb_array_elements(history) h WHERE h->>'state' = 'in_progress')`,
    );
    await q.query(
      `CREATE INDEX verification_tasks_reuse ON verification_tasks USING gin (reuse_keys)
       WHERE reuse_keys IS NOT NULL`,
    );
    await q.query(
      `CREATE INDEX verification_tasks_answered ON verification_tasks (account_id, insurer_code, answered_at)
       WHERE answered_at IS NOT NULL`,
    );

    // A request's answer may be delivered again as it grows (`eligibility.updated`, one per
    // answered task, told apart by their resource key): once per webhook, request and event
    // holds only for deliveries without one.
    await q.query(`ALTER TABLE webhook_deliveries DROP CONSTRAINT webhook_deliveries_once_key`);
    await q.query(
      `CREATE UNIQUE INDEX webhook_deliveries_once_key ON webhook_deliveries (webhook_id, request_id, event)
       WHERE resource_key IS NULL`,
    );
  },

  async down(q) {
    await q.query(`DELETE FROM webhook_deliveries WHERE event = 'eligibility.updated'`);
    await q.query(`DROP INDEX webhook_deliveries_once_key`);
    await q.query(
      `ALTER TABLE webhook_deliveries ADD CONSTRAINT webhook_deliveries_once_key UNIQUE (webhook_id, request_id, event)`,
    );
    await q.query(`DROP INDEX verification_tasks_answered`);
    await q.query(`DROP INDEX verification_tasks_reuse`);
    await q.query(
      `ALTER TABLE verification_tasks DROP COLUMN claimed_at, DROP COLUMN answered_at,
         DROP COLUMN reuse_keys, DROP COLUMN reused_count, DROP COLUMN last_reused_at`,
    );
    await q.query(`ALTER TABLE eligibility_requests DROP COLUMN options`);
  },
});
