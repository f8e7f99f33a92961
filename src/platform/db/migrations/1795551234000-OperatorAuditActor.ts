import { migration } from './migration';

/** The command line's changes (API keys created or revoked, locations) are the operator's events. */
export const OperatorAuditActor1795551234000 = migration('OperatorAuditActor1795551234000', {
  async up(q) {
    await q.query(`ALTER TABLE audit_events DROP CONSTRAINT audit_events_actor_type_check`);
    await q.query(`
      ALTER TABLE audit_events ADD CONSTRAINT audit_events_actor_type_check
        CHECK (actor_type IN ('api_key', 'user', 'embedded', 'operator'))`);
  },

  async down(q) {
    // The trail is append-only: operator events already written stay (NOT VALID skips them).
    await q.query(`ALTER TABLE audit_events DROP CONSTRAINT audit_events_actor_type_check`);
    await q.query(`
      ALTER TABLE audit_events ADD CONSTRAINT audit_events_actor_type_check
        CHECK (actor_type IN ('api_key', 'user', 'embedded')) NOT VALID`);
  },
});
