import { migration } from './migration';

/**
 * docs/api.md, Next eligible dates (the practice's history): staff entries of services a patient
 * had (which insurer's benefit, on which day, with a note), one per patient, insurer, benefit and
 * day; and the claims of a date of birth, read when a search's persons are matched to the
 * practice's claims.
 */
export const PatientBenefitHistory1795565000000 = migration('PatientBenefitHistory1795565000000', {
  async up(q) {
    await q.query(`
      CREATE TABLE patient_benefit_history (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        patient_id uuid NOT NULL REFERENCES patients(id) ON DELETE CASCADE,
        insurer_code varchar(64) NOT NULL
          CONSTRAINT patient_benefit_history_insurer_check CHECK (insurer_code <> ''),
        benefit_code varchar(128) NOT NULL
          CONSTRAINT patient_benefit_history_benefit_check CHECK (benefit_code <> ''),
        service_date date NOT NULL,
        note varchar(1000),
        created_at timestamptz(3) NOT NULL DEFAULT now(),
        CONSTRAINT patient_benefit_history_entry
          UNIQUE (patient_id, insurer_code, benefit_code, service_date)
      )`);
    await q.query(`
      CREATE INDEX patient_benefit_history_patient_idx
        ON patient_benefit_history (patient_id, service_date)`);
    await q.query(`
      CREATE INDEX claims_patient_dob_idx ON claims (account_id, ((patient->>'dob')))`);
  },

  async down(q) {
    await q.query(`DROP INDEX claims_patient_dob_idx`);
    await q.query(`DROP TABLE patient_benefit_history`);
  },
});
