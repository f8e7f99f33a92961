import { migration } from './migration';

/**
 * SECURITY.md: many users per account, each `admin` or `staff`. The one user every account had
 * becomes its admin. An invited user has no password until the invitation is accepted; a
 * disabled user cannot sign in. `session_epoch` ends every session of a user at once: a session
 * remembers the epoch it was opened under, and raising it (password change, disabling) ends it.
 * Invitation and password-reset links are single-use tokens stored as SHA-256 only.
 */
export const WebUsers1795495000000 = migration('WebUsers1795495000000', {
  async up(q) {
    // Existing users (one per account) become admins; a row added without a role later gets
    // the least privilege.
    await q.query(`ALTER TABLE users ADD COLUMN role varchar(16) NOT NULL DEFAULT 'admin'`);
    await q.query(`ALTER TABLE users ALTER COLUMN role SET DEFAULT 'staff'`);
    await q.query(
      `ALTER TABLE users ADD CONSTRAINT users_role_check CHECK (role IN ('admin', 'staff'))`,
    );
    await q.query(`ALTER TABLE users ALTER COLUMN password_hash DROP NOT NULL`);
    await q.query(`ALTER TABLE users ADD COLUMN disabled_at timestamptz`);
    await q.query(`ALTER TABLE users ADD COLUMN password_changed_at timestamptz`);
    await q.query(`ALTER TABLE users ADD COLUMN session_epoch integer NOT NULL DEFAULT 0`);
    await q.query(`
      CREATE TABLE user_tokens (
        token_hash char(64) PRIMARY KEY,
        user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        purpose varchar(16) NOT NULL CHECK (purpose IN ('invitation', 'password_reset')),
        created_at timestamptz NOT NULL DEFAULT now(),
        expires_at timestamptz NOT NULL,
        used_at timestamptz
      )`);
    await q.query(
      `CREATE INDEX user_tokens_user_idx ON user_tokens (user_id, purpose, created_at)`,
    );
  },

  async down(q) {
    await q.query(`DROP TABLE user_tokens`);
    // Invited users who never set a password cannot exist in the old schema.
    await q.query(`DELETE FROM users WHERE password_hash IS NULL`);
    await q.query(`ALTER TABLE users ALTER COLUMN password_hash SET NOT NULL`);
    await q.query(`ALTER TABLE users DROP COLUMN session_epoch`);
    await q.query(`ALTER TABLE users DROP COLUMN password_changed_at`);
    await q.query(`ALTER TABLE users DROP COLUMN disabled_at`);
    await q.query(`ALTER TABLE users DROP COLUMN role`);
  },
});
