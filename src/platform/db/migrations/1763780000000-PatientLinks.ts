import { migration } from './migration';

export const PatientLinks1763780000000 = migration('PatientLinks1763780000000', {
  async up(q) {
    await q.query(`
      CREATE TABLE patient_eligibility_links (
        patient_id uuid NOT NULL REFERENCES patients(id) ON DELETE CASCADE,
        request_id bigint NOT NULL REFERENCES eligibility_requests(id) ON DELETE CASCADE,
        account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (patient_id, request_id)
      )`);
    await q.query(
      `CREATE INDEX patient_eligibility_links_patient_idx ON patient_eligibility_links (patient_id, created_at DESC)`,
    );
    await q.query(
      `CREATE INDEX patient_eligibility_links_request_idx ON patient_eligibility_links (request_id)`,
    );
  },

  async down(q) {
    await q.query(`DROP TABLE patient_eligibility_links`);
  },
});
