import { migration } from './migration';

/** Patients, out-of-network claims with their service lines, and the outgoing mail outbox. */
export const PatientsClaims1763760000000 = migration('PatientsClaims1763760000000', {
  async up(q) {
    await q.query(`
      CREATE TABLE patients (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        location_id uuid NOT NULL REFERENCES locations(id),
        code varchar(16) NOT NULL CONSTRAINT patients_code_key UNIQUE,
        first_name varchar(100) NOT NULL CHECK (first_name = lower(first_name) AND first_name <> ''),
        middle_name varchar(100) CHECK (middle_name = lower(middle_name)),
        last_name varchar(100) NOT NULL CHECK (last_name = lower(last_name) AND last_name <> ''),
        dob date NOT NULL,
        sex varchar(16) CHECK (sex IN ('female', 'male', 'other', 'unknown')),
        ssn_last_four char(4) CHECK (ssn_last_four ~ '^[0-9]{4}$'),
        email varchar(254),
        phone varchar(32),
        address jsonb CHECK (address IS NULL OR jsonb_typeof(address) = 'object'),
        account_number varchar(64),
        -- Millisecond precision: the keyset cursor carries a JS Date, which must name a row exactly.
        created_at timestamptz(3) NOT NULL DEFAULT now()
      )`);
    // Keyset pagination (newest first) walks one of these per filter, so page N costs what
    // page 1 costs: every index ends with (created_at DESC, id DESC).
    await q.query(
      `CREATE INDEX patients_account_created_idx ON patients (account_id, created_at DESC, id DESC)`,
    );
    await q.query(
      `CREATE INDEX patients_account_dob_idx ON patients (account_id, dob, created_at DESC, id DESC)`,
    );
    await q.query(
      `CREATE INDEX patients_account_location_idx ON patients (account_id, location_id, created_at DESC, id DESC)`,
    );
    await q.query(
      `CREATE INDEX patients_account_number_idx ON patients (account_id, account_number, created_at DESC, id DESC) WHERE account_number IS NOT NULL`,
    );
    // The "similar patient" lookup (same names and dob in the account).
    await q.query(
      `CREATE INDEX patients_similar_idx ON patients (account_id, last_name, first_name, dob)`,
    );
    await q.query(`CREATE INDEX patients_location_idx ON patients (location_id)`);

    await q.query(`
      CREATE TABLE claims (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        location_id uuid NOT NULL REFERENCES locations(id),
        code varchar(16) NOT NULL CONSTRAINT claims_code_key UNIQUE,
        status varchar(16) NOT NULL DEFAULT 'ready' CHECK (status IN ('ready')),
        insurer_code varchar(64) NOT NULL CHECK (insurer_code ~ '^insurer:[a-z0-9_]+:[a-z0-9_]+$'),
        patient jsonb NOT NULL CHECK (jsonb_typeof(patient) = 'object'),
        primary_member jsonb NOT NULL CHECK (jsonb_typeof(primary_member) = 'object'),
        paid_amount numeric(14, 4) NOT NULL CHECK (paid_amount >= 0),
        accept_assignment boolean NOT NULL DEFAULT false,
        -- json, not jsonb: metadata is returned exactly as given (key order, duplicate keys).
        metadata json CHECK (metadata IS NULL OR json_typeof(metadata) = 'object'),
        created_at timestamptz(3) NOT NULL DEFAULT now()
      )`);
    await q.query(
      `CREATE INDEX claims_account_created_idx ON claims (account_id, created_at DESC, id DESC)`,
    );
    await q.query(`CREATE INDEX claims_location_idx ON claims (location_id)`);

    await q.query(`
      CREATE TABLE claim_services (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        claim_id uuid NOT NULL REFERENCES claims(id) ON DELETE CASCADE,
        position smallint NOT NULL CHECK (position BETWEEN 0 AND 5),
        codes text[] NOT NULL CHECK (cardinality(codes) >= 1),
        service_date date NOT NULL,
        quantity integer NOT NULL CHECK (quantity >= 1),
        cost numeric(14, 4) NOT NULL CHECK (cost >= 0),
        diagnosis_codes text[] NOT NULL DEFAULT '{}',
        CONSTRAINT claim_services_claim_position_key UNIQUE (claim_id, position)
      )`);

    await q.query(`
      CREATE TABLE mail_messages (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        account_id uuid REFERENCES accounts(id) ON DELETE CASCADE,
        kind varchar(32) NOT NULL,
        ref varchar(64),
        to_address varchar(254) NOT NULL,
        subject varchar(300) NOT NULL,
        text_body text NOT NULL,
        html_body text NOT NULL,
        status varchar(16) NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'sent', 'failed')),
        attempts integer NOT NULL DEFAULT 0 CHECK (attempts >= 0),
        last_error text,
        delivered_to text,
        created_at timestamptz NOT NULL DEFAULT now(),
        sent_at timestamptz,
        CHECK ((status = 'sent') = (sent_at IS NOT NULL))
      )`);
    await q.query(
      `CREATE INDEX mail_messages_account_idx ON mail_messages (account_id, created_at)`,
    );
    await q.query(`CREATE INDEX mail_messages_ref_idx ON mail_messages (kind, ref)`);
  },

  async down(q) {
    await q.query(`DROP TABLE mail_messages`);
    await q.query(`DROP TABLE claim_services`);
    await q.query(`DROP TABLE claims`);
    await q.query(`DROP TABLE patients`);
  },
});
