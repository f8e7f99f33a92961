import { migration } from './migration';

/**
 * docs/api.md, The counter: the quotes an account made, each the answer it gave (`body`) and
 * what its printed page needs (the patient's name, the plan, the location of the check). Patient
 * data: the retention job deletes a quote older than PHI_RETENTION_DAYS.
 */
export const Quotes1795569700000 = migration('Quotes1795569700000', {
  async up(q) {
    await q.query(`
      CREATE TABLE quotes (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        request_uid varchar(256),
        person_id integer,
        location_id uuid REFERENCES locations(id) ON DELETE SET NULL,
        patient_name varchar(200),
        plan_name varchar(200),
        insurer_code varchar(64),
        date_of_service date NOT NULL,
        patient_age integer CONSTRAINT quotes_patient_age_check CHECK (patient_age >= 0),
        body jsonb NOT NULL CONSTRAINT quotes_body_check CHECK (jsonb_typeof(body) = 'object'),
        created_at timestamptz(3) NOT NULL DEFAULT now(),
        CONSTRAINT quotes_person_check CHECK ((request_uid IS NULL) = (person_id IS NULL))
      )`);
    // The retention job's oldest-first batches.
    await q.query(`CREATE INDEX quotes_created_idx ON quotes (created_at, id)`);
    await q.query(
      `CREATE INDEX quotes_account_created_idx ON quotes (account_id, created_at DESC)`,
    );
  },

  async down(q) {
    await q.query(`DROP TABLE quotes`);
  },
});
