import { migration } from './migration';
import { SCOPES_OF_1795325219572, scopesArray } from './1795325219572-PatientDataProtection';

/** The scopes AssistedVerification1795510000000 allowed (its NEW_SCOPES). */
const OLD_SCOPES = [
  ...SCOPES_OF_1795325219572,
  'verification:read',
  'verification:write',
  'verification:credentials',
];
const NEW_SCOPES = [...OLD_SCOPES, 'appointments:read', 'appointments:write'];
const OLD_WRITES = OLD_SCOPES.filter((s) => s.endsWith(':write'));
const array = scopesArray;
const DEFAULT = (scopes: string[]) => array(scopes.filter((s) => s !== 'verification:credentials'));

const STATUSES = `'booked', 'arrived', 'fulfilled', 'cancelled', 'noshow'`;

/**
 * docs/api.md, Appointments: the practice system's appointments, one per account and external
 * id, with the columns the coverage checks fill later (state, answer, when the next check is
 * due); each account's appointment policy; the `appointments` scopes. Keys that held every area's
 * write scope gain `appointments:write`, as keys did for `verification`.
 */
export const Appointments1795562000000 = migration('Appointments1795562000000', {
  async up(q) {
    await q.query(`
      CREATE TABLE appointments (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        external_id varchar(64) NOT NULL CONSTRAINT appointments_external_id_check
          CHECK (external_id ~ '^[ -~]{1,64}$'),
        starts_at timestamptz NOT NULL,
        ends_at timestamptz,
        status varchar(16) NOT NULL CONSTRAINT appointments_status_check
          CHECK (status IN (${STATUSES})),
        location_id uuid NOT NULL REFERENCES locations(id),
        services text[] NOT NULL DEFAULT '{}' CONSTRAINT appointments_services_check
          CHECK (cardinality(services) <= 20),
        patient_code varchar(16) REFERENCES patients(code),
        patient jsonb CONSTRAINT appointments_patient_object_check
          CHECK (patient IS NULL OR jsonb_typeof(patient) = 'object'),
        insurer_codes text[] NOT NULL CONSTRAINT appointments_insurer_codes_check
          CHECK (cardinality(insurer_codes) BETWEEN 1 AND 10),
        source_updated_at timestamptz,
        coverage_state varchar(24) NOT NULL DEFAULT 'not_checked'
          CONSTRAINT appointments_coverage_state_check CHECK (coverage_state IN ('not_checked',
            'checking', 'active', 'inactive', 'no_plan', 'failed', 'waiting_for_person', 'stale')),
        coverage jsonb CONSTRAINT appointments_coverage_check
          CHECK (coverage IS NULL OR jsonb_typeof(coverage) = 'object'),
        next_check_at timestamptz,
        created_at timestamptz(3) NOT NULL DEFAULT now(),
        updated_at timestamptz(3) NOT NULL DEFAULT now(),
        CONSTRAINT appointments_account_external_id_key UNIQUE (account_id, external_id),
        CONSTRAINT appointments_ends_after_starts_check CHECK (ends_at IS NULL OR ends_at > starts_at),
        CONSTRAINT appointments_patient_check CHECK ((patient_code IS NULL) <> (patient IS NULL))
      )`);
    // The worklist (keyset on starts_at, id), of the account or of one location; a sync's window.
    await q.query(`
      CREATE INDEX appointments_account_starts_idx ON appointments (account_id, starts_at, id)`);
    await q.query(`
      CREATE INDEX appointments_account_location_starts_idx
        ON appointments (account_id, location_id, starts_at, id)`);
    await q.query(`
      CREATE TABLE appointment_policies (
        account_id uuid PRIMARY KEY REFERENCES accounts(id) ON DELETE CASCADE,
        on_booking boolean NOT NULL,
        days_before integer[] NOT NULL CONSTRAINT appointment_policies_days_before_check
          CHECK (cardinality(days_before) <= 5 AND 0 <= ALL (days_before) AND 30 >= ALL (days_before)),
        hours_before integer[] NOT NULL CONSTRAINT appointment_policies_hours_before_check
          CHECK (cardinality(hours_before) <= 5 AND 1 <= ALL (hours_before) AND 72 >= ALL (hours_before)),
        freshness_hours integer NOT NULL CONSTRAINT appointment_policies_freshness_hours_check
          CHECK (freshness_hours BETWEEN 1 AND 720),
        statuses text[] NOT NULL CONSTRAINT appointment_policies_statuses_check
          CHECK (statuses <@ ARRAY[${STATUSES}]::text[]),
        updated_at timestamptz(3) NOT NULL DEFAULT now()
      )`);
    await q.query(`ALTER TABLE api_keys DROP CONSTRAINT api_keys_scopes_check`);
    await q.query(`
      ALTER TABLE api_keys ADD CONSTRAINT api_keys_scopes_check
        CHECK (cardinality(scopes) > 0 AND scopes <@ ${array(NEW_SCOPES)})`);
    await q.query(
      `UPDATE api_keys SET scopes = scopes || ARRAY['appointments:write']::text[] WHERE scopes @> ${array(OLD_WRITES)}`,
    );
    await q.query(`ALTER TABLE api_keys ALTER COLUMN scopes SET DEFAULT ${DEFAULT(NEW_SCOPES)}`);
  },

  async down(q) {
    await q.query(`ALTER TABLE api_keys DROP CONSTRAINT api_keys_scopes_check`);
    await q.query(
      `UPDATE api_keys SET scopes = ARRAY(SELECT s FROM unnest(scopes) s WHERE s NOT LIKE 'appointments:%')`,
    );
    // A key that held only appointments scopes keeps nothing it may use: it is revoked.
    await q.query(
      `UPDATE api_keys SET scopes = '{verification:read}', revoked_at = COALESCE(revoked_at, now())
       WHERE cardinality(scopes) = 0`,
    );
    await q.query(`ALTER TABLE api_keys ALTER COLUMN scopes SET DEFAULT ${DEFAULT(OLD_SCOPES)}`);
    await q.query(`
      ALTER TABLE api_keys ADD CONSTRAINT api_keys_scopes_check
        CHECK (cardinality(scopes) > 0 AND scopes <@ ${array(OLD_SCOPES)})`);
    await q.query(`DROP TABLE appointment_policies`);
    await q.query(`DROP TABLE appointments`);
  },
});
