import { migration } from './migration';

/**
 * docs/api.md, Claim lifecycle and Batches: webhooks subscribe to event topics (`eligibility` by default, `claim`,
 * `batch`), and deliveries may be about a claim or a batch, not only an eligibility request:
 * such a delivery has no request_id and is made unique by its resource_key instead.
 */
export const WebhookEvents1795325039455 = migration('WebhookEvents1795325039455', {
  async up(q) {
    await q.query(
      `ALTER TABLE webhooks ADD COLUMN events text[] NOT NULL DEFAULT '{eligibility}'
         CONSTRAINT webhooks_events_check CHECK (
           cardinality(events) BETWEEN 1 AND 3 AND events <@ ARRAY['eligibility', 'claim', 'batch']::text[])`,
    );
    await q.query(`ALTER TABLE webhook_deliveries ALTER COLUMN request_id DROP NOT NULL`);
    await q.query(`ALTER TABLE webhook_deliveries ADD COLUMN resource_key varchar(200)`);
    await q.query(
      `ALTER TABLE webhook_deliveries ADD CONSTRAINT webhook_deliveries_about_check
         CHECK (request_id IS NOT NULL OR resource_key IS NOT NULL)`,
    );
    await q.query(
      `CREATE UNIQUE INDEX webhook_deliveries_resource_once_idx
         ON webhook_deliveries (webhook_id, event, resource_key) WHERE resource_key IS NOT NULL`,
    );
  },

  async down(q) {
    await q.query(`DROP INDEX webhook_deliveries_resource_once_idx`);
    await q.query(`DELETE FROM webhook_deliveries WHERE request_id IS NULL`);
    await q.query(
      `ALTER TABLE webhook_deliveries DROP CONSTRAINT webhook_deliveries_about_check, DROP COLUMN resource_key`,
    );
    await q.query(`ALTER TABLE webhook_deliveries ALTER COLUMN request_id SET NOT NULL`);
    await q.query(`ALTER TABLE webhooks DROP COLUMN events`);
  },
});
