import { migration } from './migration';

export const WebApp1763800000000 = migration('WebApp1763800000000', {
  async up(q) {
    // Per-account insurer settings: enabled or not, and the credentials its connector uses.
    await q.query(`
      CREATE TABLE account_insurers (
        account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        insurer_code varchar(64) NOT NULL,
        enabled boolean NOT NULL DEFAULT true,
        username varchar(200),
        password_sealed text,
        credentials_set_at timestamptz,
        updated_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (account_id, insurer_code),
        CONSTRAINT account_insurers_credentials_check CHECK ((password_sealed IS NULL) = (credentials_set_at IS NULL))
      )`);
    // Single-use embedded-session tokens; only their SHA-256 is stored.
    await q.query(`
      CREATE TABLE iframe_tokens (
        token_hash char(64) PRIMARY KEY,
        account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        entry_point varchar(32) NOT NULL CHECK (entry_point IN ('add_patient', 'insurers', 'passwords')),
        created_at timestamptz NOT NULL DEFAULT now(),
        expires_at timestamptz NOT NULL,
        used_at timestamptz
      )`);
    await q.query(`CREATE INDEX iframe_tokens_expires_idx ON iframe_tokens (expires_at)`);
  },

  async down(q) {
    await q.query(`DROP TABLE iframe_tokens`);
    await q.query(`DROP TABLE account_insurers`);
  },
});
