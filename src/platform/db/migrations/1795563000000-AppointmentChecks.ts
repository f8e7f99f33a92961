import { migration } from './migration';

/**
 * docs/api.md, Appointments (coverage checks): an eligibility request's `origin` (null: a client's
 * own; `appointment`: a check the service runs, worked at batch-item priority), and what an
 * appointment's checks need: the visit's date where it happens (benefits are read on that date),
 * the key of its patient and insurers (a fresh check of the same key
 * is reused), when it was last checked and with which key, the request of its check, and whether
 * a "check now" waits. `next_check_at` (already there) is the schedule: the checks loop takes the
 * appointments whose time has come, so PostgreSQL is the record of every scheduled check.
 */
export const AppointmentChecks1795563000000 = migration('AppointmentChecks1795563000000', {
  async up(q) {
    await q.query(`
      ALTER TABLE eligibility_requests ADD COLUMN origin varchar(16)
        CONSTRAINT eligibility_requests_origin_check CHECK (origin IN ('appointment'))`);
    await q.query(`
      ALTER TABLE appointments
        ADD COLUMN visit_date date,
        ADD COLUMN check_key text,
        ADD COLUMN checked_at timestamptz(3),
        ADD COLUMN checked_key text,
        ADD COLUMN check_request_uid varchar(64),
        ADD COLUMN check_forced boolean NOT NULL DEFAULT false`);
    // Rows stored before: their date in UTC (a new write stores the date as sent, its own offset).
    await q.query(`UPDATE appointments SET visit_date = (starts_at AT TIME ZONE 'UTC')::date,
      check_key = md5(coalesce(patient_code, patient::text) || array_to_string(insurer_codes, ' '))`);
    await q.query(`ALTER TABLE appointments ALTER COLUMN visit_date SET NOT NULL,
      ALTER COLUMN check_key SET NOT NULL`);
    await q.query(`UPDATE appointments SET next_check_at = now()
      WHERE status NOT IN ('cancelled', 'noshow') AND starts_at > now()`);
    // The `appointment` webhook topic.
    await q.query(`
      ALTER TABLE webhooks DROP CONSTRAINT webhooks_events_check,
        ADD CONSTRAINT webhooks_events_check CHECK (cardinality(events) BETWEEN 1 AND 6
          AND events <@ ARRAY['eligibility', 'claim', 'batch', 'remittance', 'verification',
            'appointment']::text[])`);
    await q.query(`
      CREATE INDEX appointments_next_check_idx ON appointments (next_check_at)
        WHERE next_check_at IS NOT NULL`);
    await q.query(`
      CREATE INDEX appointments_check_key_idx ON appointments (account_id, check_key, checked_at DESC)
        WHERE checked_at IS NOT NULL`);
    await q.query(`
      CREATE INDEX appointments_check_request_idx ON appointments (account_id, check_request_uid)
        WHERE check_request_uid IS NOT NULL`);
  },
  async down(q) {
    await q.query(`UPDATE webhooks SET events = array_remove(events, 'appointment')`);
    await q.query(`DELETE FROM webhooks WHERE cardinality(events) = 0`);
    await q.query(`
      ALTER TABLE webhooks DROP CONSTRAINT webhooks_events_check,
        ADD CONSTRAINT webhooks_events_check CHECK (cardinality(events) BETWEEN 1 AND 5
          AND events <@ ARRAY['eligibility', 'claim', 'batch', 'remittance', 'verification']::text[])`);
    await q.query(`DROP INDEX appointments_check_request_idx`);
    await q.query(`DROP INDEX appointments_check_key_idx`);
    await q.query(`DROP INDEX appointments_next_check_idx`);
    await q.query(`
      ALTER TABLE appointments DROP COLUMN visit_date, DROP COLUMN check_key, DROP COLUMN checked_at,
        DROP COLUMN checked_key, DROP COLUMN check_request_uid, DROP COLUMN check_forced`);
    await q.query(`ALTER TABLE eligibility_requests DROP COLUMN origin`);
  },
});
