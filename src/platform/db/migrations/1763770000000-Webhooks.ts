import { migration } from './migration';

export const Webhooks1763770000000 = migration('Webhooks1763770000000', {
  async up(q) {
    await q.query(`
      CREATE TABLE webhooks (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        url text NOT NULL CHECK (url ~ '^https?://' AND length(url) <= 2048),
        secret_sealed text,
        is_active boolean NOT NULL DEFAULT true,
        description varchar(500) NOT NULL DEFAULT '',
        version varchar(2) NOT NULL DEFAULT 'v2' CHECK (version IN ('v1', 'v2')),
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX webhooks_account_idx ON webhooks (account_id, created_at)`);
    await q.query(`
      CREATE TABLE webhook_deliveries (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        webhook_id uuid NOT NULL REFERENCES webhooks(id) ON DELETE CASCADE,
        account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        event varchar(64) NOT NULL,
        request_id bigint NOT NULL REFERENCES eligibility_requests(id) ON DELETE CASCADE,
        request_uid varchar(256) NOT NULL,
        body text NOT NULL,
        status varchar(16) NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'succeeded', 'failed')),
        attempt_count integer NOT NULL DEFAULT 0,
        next_attempt_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        completed_at timestamptz,
        -- One delivery per webhook per result, however many workers see the event.
        CONSTRAINT webhook_deliveries_once_key UNIQUE (webhook_id, request_id, event)
      )`);
    await q.query(
      `CREATE INDEX webhook_deliveries_webhook_created_idx ON webhook_deliveries (webhook_id, created_at DESC, id DESC)`,
    );
    await q.query(
      `CREATE INDEX webhook_deliveries_pending_idx ON webhook_deliveries (next_attempt_at) WHERE status = 'pending'`,
    );
    await q.query(`CREATE INDEX webhook_deliveries_request_idx ON webhook_deliveries (request_id)`);
    await q.query(`
      CREATE TABLE webhook_attempts (
        id bigserial PRIMARY KEY,
        delivery_id uuid NOT NULL REFERENCES webhook_deliveries(id) ON DELETE CASCADE,
        started_at timestamptz NOT NULL,
        status_code integer,
        duration_ms integer NOT NULL,
        error text,
        response_body text,
        manual boolean NOT NULL DEFAULT false
      )`);
    await q.query(
      `CREATE INDEX webhook_attempts_delivery_idx ON webhook_attempts (delivery_id, started_at)`,
    );
  },

  async down(q) {
    await q.query(`DROP TABLE webhook_attempts`);
    await q.query(`DROP TABLE webhook_deliveries`);
    await q.query(`DROP TABLE webhooks`);
  },
});
