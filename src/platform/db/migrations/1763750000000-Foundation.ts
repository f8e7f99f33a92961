import { migration } from './migration';

export const Foundation1763750000000 = migration('Foundation1763750000000', {
  async up(q) {
    await q.query(`
      CREATE TABLE accounts (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        name varchar(200) NOT NULL,
        iframe_enabled boolean NOT NULL DEFAULT false,
        frame_ancestors text[] NOT NULL DEFAULT '{}',
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`
      CREATE TABLE locations (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        code varchar(16) NOT NULL CONSTRAINT locations_code_key UNIQUE,
        title varchar(200) NOT NULL,
        status varchar(16) NOT NULL DEFAULT 'enabled' CHECK (status IN ('enabled', 'disabled')),
        is_default boolean NOT NULL DEFAULT false,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(
      `CREATE INDEX locations_account_created_idx ON locations (account_id, created_at)`,
    );
    await q.query(
      `CREATE UNIQUE INDEX locations_one_default_idx ON locations (account_id) WHERE is_default`,
    );
    await q.query(`
      CREATE TABLE users (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        email varchar(254) NOT NULL CONSTRAINT users_email_key UNIQUE CHECK (email = lower(email)),
        password_hash text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX users_account_idx ON users (account_id)`);
    await q.query(`
      CREATE TABLE api_keys (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        name varchar(100) NOT NULL,
        prefix varchar(16) NOT NULL,
        key_hash char(64) NOT NULL CONSTRAINT api_keys_key_hash_key UNIQUE,
        created_at timestamptz NOT NULL DEFAULT now(),
        last_used_at timestamptz,
        revoked_at timestamptz
      )`);
    await q.query(`CREATE INDEX api_keys_account_idx ON api_keys (account_id, created_at)`);
  },

  async down(q) {
    await q.query(`DROP TABLE api_keys`);
    await q.query(`DROP TABLE users`);
    await q.query(`DROP TABLE locations`);
    await q.query(`DROP TABLE accounts`);
  },
});
