import { migration } from './migration';
import { SCOPES_OF_1795325219572, scopesArray } from './1795325219572-PatientDataProtection';

const OLD_SCOPES = SCOPES_OF_1795325219572;
const NEW_SCOPES = [
  ...OLD_SCOPES,
  'verification:read',
  'verification:write',
  'verification:credentials',
];
const array = scopesArray;
const OLD_WRITES = OLD_SCOPES.filter((s) => s.endsWith(':write'));

/**
 * docs/api.md, Insurers and assisted verification, assisted verification: one task per (request, insurer) a person answers; the
 * account's choice of path per insurer and the health of its stored credentials; the
 * `verification` webhook topic and scopes. Keys that held every scope keep holding every one
 * (`verification:credentials` is never implied: it is only granted by choosing it).
 */
export const AssistedVerification1795510000000 = migration('AssistedVerification1795510000000', {
  async up(q) {
    await q.query(`
      CREATE TABLE verification_tasks (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        request_id bigint NOT NULL REFERENCES eligibility_requests(id) ON DELETE CASCADE,
        insurer_code varchar(64) NOT NULL,
        state varchar(12) NOT NULL DEFAULT 'queued' CONSTRAINT verification_tasks_state_check
          CHECK (state IN ('queued', 'in_progress', 'needs_info', 'completed', 'failed')),
        due_by timestamptz(3) NOT NULL,
        lease_holder varchar(100),
        lease_holder_name varchar(200),
        lease_until timestamptz(3),
        plans jsonb,
        evidence jsonb,
        failure_reason varchar(24) CONSTRAINT verification_tasks_failure_check
          CHECK (failure_reason IN ('member_not_found', 'credentials_invalid', 'portal_down', 'other')),
        detail text,
        history jsonb NOT NULL DEFAULT '[]',
        overdue_notified_at timestamptz(3),
        created_at timestamptz(3) NOT NULL DEFAULT now(),
        updated_at timestamptz(3) NOT NULL DEFAULT now(),
        CONSTRAINT verification_tasks_request_insurer_key UNIQUE (request_id, insurer_code),
        CONSTRAINT verification_tasks_lease_check CHECK ((lease_holder IS NULL) = (lease_until IS NULL))
      )`);
    // The queue (open tasks by due time) and the keyset list of an account.
    await q.query(`
      CREATE INDEX verification_tasks_account_due_idx ON verification_tasks (account_id, due_by, id)`);
    await q.query(`
      CREATE INDEX verification_tasks_open_due_idx ON verification_tasks (due_by)
        WHERE state NOT IN ('completed', 'failed')`);
    await q.query(`
      ALTER TABLE account_insurers
        ADD COLUMN eligibility_mode varchar(12) CONSTRAINT account_insurers_eligibility_mode_check
          CHECK (eligibility_mode IN ('assisted')),
        ADD COLUMN credentials_status varchar(16) NOT NULL DEFAULT 'ok'
          CONSTRAINT account_insurers_credentials_status_check
          CHECK (credentials_status IN ('ok', 'needs_attention'))`);
    await q.query(`ALTER TABLE api_keys DROP CONSTRAINT api_keys_scopes_check`);
    await q.query(`
      ALTER TABLE api_keys ADD CONSTRAINT api_keys_scopes_check
        CHECK (cardinality(scopes) > 0 AND scopes <@ ${array(NEW_SCOPES)})`);
    await q.query(
      `UPDATE api_keys SET scopes = scopes || ARRAY['verification:write']::text[] WHERE scopes @> ${array(OLD_WRITES)}`,
    );
    await q.query(
      `ALTER TABLE api_keys ALTER COLUMN scopes SET DEFAULT ${array(NEW_SCOPES.filter((s) => s !== 'verification:credentials'))}`,
    );
    await q.query(`
      ALTER TABLE webhooks DROP CONSTRAINT webhooks_events_check,
        ADD CONSTRAINT webhooks_events_check CHECK (cardinality(events) BETWEEN 1 AND 5
          AND events <@ ARRAY['eligibility', 'claim', 'batch', 'remittance', 'verification']::text[])`);
  },

  async down(q) {
    await q.query(
      `UPDATE webhooks SET events = array_remove(events, 'verification') WHERE 'verification' = ANY(events)`,
    );
    await q.query(`UPDATE webhooks SET events = '{eligibility}' WHERE cardinality(events) = 0`);
    await q.query(`
      ALTER TABLE webhooks DROP CONSTRAINT webhooks_events_check,
        ADD CONSTRAINT webhooks_events_check CHECK (cardinality(events) BETWEEN 1 AND 4
          AND events <@ ARRAY['eligibility', 'claim', 'batch', 'remittance']::text[])`);
    await q.query(`ALTER TABLE api_keys DROP CONSTRAINT api_keys_scopes_check`);
    await q.query(
      `UPDATE api_keys SET scopes = ARRAY(SELECT s FROM unnest(scopes) s WHERE s NOT LIKE 'verification:%')`,
    );
    await q.query(`ALTER TABLE api_keys ALTER COLUMN scopes SET DEFAULT ${array(OLD_SCOPES)}`);
    await q.query(`
      ALTER TABLE api_keys ADD CONSTRAINT api_keys_scopes_check
        CHECK (cardinality(scopes) > 0 AND scopes <@ ${array(OLD_SCOPES)})`);
    await q.query(`
      ALTER TABLE account_insurers DROP COLUMN eligibility_mode, DROP COLUMN credentials_status`);
    await q.query(`DROP TABLE verification_tasks`);
  },
});
