import { migration } from './migration';

/**
 * docs/api.md, Appointments (who stored it): the API key or web user whose write an appointment
 * stands as, and whether checks run for it by themselves (`auto_checks`: the storer could start
 * eligibility requests; SECURITY.md, API key scopes). Appointments stored before keep their
 * checks (true), with no storer recorded.
 */
export const AppointmentsStoredBy1795567300000 = migration('AppointmentsStoredBy1795567300000', {
  async up(q) {
    await q.query(`
      ALTER TABLE appointments
        ADD COLUMN stored_by_api_key_id uuid REFERENCES api_keys(id) ON DELETE SET NULL,
        ADD COLUMN stored_by_user_id uuid REFERENCES users(id) ON DELETE SET NULL,
        ADD COLUMN auto_checks boolean NOT NULL DEFAULT true,
        ADD CONSTRAINT appointments_stored_by_check
          CHECK (num_nonnulls(stored_by_api_key_id, stored_by_user_id) <= 1)`);
  },

  async down(q) {
    await q.query(`
      ALTER TABLE appointments
        DROP CONSTRAINT appointments_stored_by_check,
        DROP COLUMN auto_checks,
        DROP COLUMN stored_by_user_id,
        DROP COLUMN stored_by_api_key_id`);
  },
});
