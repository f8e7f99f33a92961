import { migration } from './migration';

export const TwoFactor1795322326222 = migration('TwoFactor1795322326222', {
  async up(q) {
    // TOTP for web sign-in: the secret sealed under APP_ENCRYPTION_KEY (set at enrolment, on once
    // confirmed with a code), and the last accepted time step so a code cannot be replayed.
    await q.query(`
      ALTER TABLE users
        ADD COLUMN totp_secret_sealed text,
        ADD COLUMN totp_enabled_at timestamptz,
        ADD COLUMN totp_last_step integer,
        ADD CONSTRAINT users_totp_enabled_check CHECK (totp_enabled_at IS NULL OR totp_secret_sealed IS NOT NULL)`);
    await q.query(
      `ALTER TABLE accounts ADD COLUMN require_two_factor boolean NOT NULL DEFAULT false`,
    );
    // Recovery codes: only their keyed SHA-256 is stored; used_at marks the single use.
    await q.query(`
      CREATE TABLE user_recovery_codes (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        code_hash char(64) NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        used_at timestamptz,
        CONSTRAINT user_recovery_codes_user_hash_key UNIQUE (user_id, code_hash)
      )`);
  },

  async down(q) {
    await q.query(`DROP TABLE user_recovery_codes`);
    await q.query(`ALTER TABLE accounts DROP COLUMN require_two_factor`);
    await q.query(`
      ALTER TABLE users
        DROP CONSTRAINT users_totp_enabled_check,
        DROP COLUMN totp_last_step,
        DROP COLUMN totp_enabled_at,
        DROP COLUMN totp_secret_sealed`);
  },
});
