import { migration } from './migration';

/** The API key scopes this migration introduced (a later migration adds to them). */
export const SCOPES_OF_1795325219572 = [
  'eligibility:read',
  'eligibility:write',
  'patients:read',
  'patients:write',
  'claims:read',
  'claims:write',
  'webhooks:read',
  'webhooks:write',
  'audit:read',
  'audit:write',
];
/** A text[] literal of scopes. */
export const scopesArray = (scopes: string[]) =>
  `ARRAY[${scopes.map((s) => `'${s}'`).join(', ')}]::text[]`;
const SCOPES_ARRAY = scopesArray(SCOPES_OF_1795325219572);

export const PatientDataProtection1795325219572 = migration('PatientDataProtection1795325219572', {
  async up(q) {
    // SECURITY.md audit trail. No foreign key to accounts: the trail outlives what it names, and
    // a cascade would be a DELETE the trigger below refuses.
    await q.query(`
      CREATE TABLE audit_events (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        account_id uuid NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        actor_type varchar(16) NOT NULL CHECK (actor_type IN ('api_key', 'user')),
        actor varchar(320) NOT NULL,
        api_key_id uuid,
        user_id uuid,
        action varchar(32) NOT NULL,
        resource_type varchar(32) NOT NULL,
        resource_id varchar(256),
        request_id varchar(128),
        ip varchar(64)
      )`);
    await q.query(
      `CREATE INDEX audit_events_account_idx ON audit_events (account_id, created_at DESC, id DESC)`,
    );
    await q.query(`
      CREATE INDEX audit_events_resource_idx
        ON audit_events (account_id, resource_type, resource_id, created_at DESC, id DESC)`);
    // Append-only, enforced by the database: any UPDATE or DELETE statement fails, even one that
    // matches no row. TRUNCATE (test resets, an operator's deliberate act) is a separate event.
    await q.query(`
      CREATE FUNCTION audit_events_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        RAISE EXCEPTION 'audit_events is append-only: % refused', TG_OP
          USING ERRCODE = 'insufficient_privilege';
      END
      $$`);
    await q.query(`
      CREATE TRIGGER audit_events_append_only
        BEFORE UPDATE OR DELETE ON audit_events
        FOR EACH STATEMENT EXECUTE FUNCTION audit_events_append_only()`);

    // API key scopes: existing keys keep doing everything they did.
    await q.query(`ALTER TABLE api_keys ADD COLUMN scopes text[] NOT NULL DEFAULT ${SCOPES_ARRAY}`);
    await q.query(`
      ALTER TABLE api_keys ADD CONSTRAINT api_keys_scopes_check
        CHECK (cardinality(scopes) > 0 AND scopes <@ ${SCOPES_ARRAY})`);

    // Retention: when a request's patient data was erased (PHI_RETENTION_DAYS).
    await q.query(`ALTER TABLE eligibility_requests ADD COLUMN purged_at timestamptz`);
    await q.query(`
      CREATE INDEX eligibility_requests_retention_idx ON eligibility_requests (created_at, id)
        WHERE purged_at IS NULL`);
  },

  async down(q) {
    await q.query(`DROP INDEX eligibility_requests_retention_idx`);
    await q.query(`ALTER TABLE eligibility_requests DROP COLUMN purged_at`);
    await q.query(`ALTER TABLE api_keys DROP CONSTRAINT api_keys_scopes_check`);
    await q.query(`ALTER TABLE api_keys DROP COLUMN scopes`);
    await q.query(`DROP TABLE audit_events`);
    await q.query(`DROP FUNCTION audit_events_append_only()`);
  },
});
