import { migration } from './migration';

/**
 * SECURITY.md: an embedded session is bound to the API key that minted its link (it ends when
 * the key is revoked), and its audit events say `embedded`.
 */
export const EmbeddedSessionsBound1795492727000 = migration('EmbeddedSessionsBound1795492727000', {
  async up(q) {
    // Tokens live five minutes: the ones minted before this have no key and are simply refused.
    await q.query(
      `ALTER TABLE iframe_tokens ADD COLUMN api_key_id uuid REFERENCES api_keys(id) ON DELETE CASCADE`,
    );
    await q.query(`ALTER TABLE audit_events DROP CONSTRAINT audit_events_actor_type_check`);
    await q.query(`
      ALTER TABLE audit_events ADD CONSTRAINT audit_events_actor_type_check
        CHECK (actor_type IN ('api_key', 'user', 'embedded'))`);
  },

  async down(q) {
    // The trail is append-only: embedded events already written stay (NOT VALID skips them).
    await q.query(`ALTER TABLE audit_events DROP CONSTRAINT audit_events_actor_type_check`);
    await q.query(`
      ALTER TABLE audit_events ADD CONSTRAINT audit_events_actor_type_check
        CHECK (actor_type IN ('api_key', 'user')) NOT VALID`);
    await q.query(`ALTER TABLE iframe_tokens DROP COLUMN api_key_id`);
  },
});
