import { migration } from './migration';

/**
 * docs/api.md, The sandbox insurer (`flip_inactive`): the sandbox counts the searches
 * of each patient per account, so that a patient's second and later searches can answer
 * differently. The patient is a hash (never their words).
 */
export const SandboxRepeats1795561500000 = migration('SandboxRepeats1795561500000', {
  async up(q) {
    await q.query(
      `CREATE TABLE sandbox_searches (
        account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        patient_key char(43) NOT NULL,
        searches integer NOT NULL,
        last_at timestamptz(3) NOT NULL DEFAULT now(),
        PRIMARY KEY (account_id, patient_key)
      )`,
    );
  },

  async down(q) {
    await q.query(`DROP TABLE sandbox_searches`);
  },
});
