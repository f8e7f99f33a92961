import { migration } from './migration';

/**
 * docs/api.md, Appointments: an appointment's `coverage.state` is the last check's outcome, and
 * how old that answer will be at the visit is `coverage.stale` beside it (a row left `stale`
 * takes back the outcome it had, kept as `answered_state`); the offset `starts_at` was sent with,
 * so a page shows the visit at its own clock. docs/api.md, Audit events: the service's own work
 * (an appointment's automatic check) is the `system` actor's.
 */
export const AppointmentCoverageOutcome1795569100000 = migration(
  'AppointmentCoverageOutcome1795569100000',
  {
    async up(q) {
      await q.query(`
        ALTER TABLE appointments
          ADD COLUMN coverage_stale boolean NOT NULL DEFAULT false,
          ADD COLUMN starts_offset smallint CONSTRAINT appointments_starts_offset_check
            CHECK (starts_offset BETWEEN -1439 AND 1439)`);
      await q.query(`
        UPDATE appointments SET coverage_stale = true,
          coverage_state = COALESCE(coverage->>'answered_state', 'active')
        WHERE coverage_state = 'stale'`);
      await q.query(`
        ALTER TABLE appointments DROP CONSTRAINT appointments_coverage_state_check,
          ADD CONSTRAINT appointments_coverage_state_check CHECK (coverage_state IN ('not_checked',
            'checking', 'active', 'inactive', 'no_plan', 'failed', 'waiting_for_person'))`);
      await q.query(`ALTER TABLE audit_events DROP CONSTRAINT audit_events_actor_type_check`);
      await q.query(`
        ALTER TABLE audit_events ADD CONSTRAINT audit_events_actor_type_check
          CHECK (actor_type IN ('api_key', 'user', 'embedded', 'operator', 'system'))`);
    },

    async down(q) {
      // The trail is append-only: system events already written stay (NOT VALID skips them).
      await q.query(`ALTER TABLE audit_events DROP CONSTRAINT audit_events_actor_type_check`);
      await q.query(`
        ALTER TABLE audit_events ADD CONSTRAINT audit_events_actor_type_check
          CHECK (actor_type IN ('api_key', 'user', 'embedded', 'operator')) NOT VALID`);
      await q.query(`
        ALTER TABLE appointments DROP CONSTRAINT appointments_coverage_state_check,
          ADD CONSTRAINT appointments_coverage_state_check CHECK (coverage_state IN ('not_checked',
            'checking', 'active', 'inactive', 'no_plan', 'failed', 'waiting_for_person', 'stale'))`);
      await q.query(`
        UPDATE appointments SET coverage_state = 'stale'
        WHERE coverage_stale AND coverage_state IN ('active', 'inactive', 'no_plan')`);
      await q.query(
        `ALTER TABLE appointments DROP COLUMN coverage_stale, DROP COLUMN starts_offset`,
      );
    },
  },
);
