import { migration } from './migration';

/**
 * SECURITY.md (web users): an e-mail was unique across the service, so an admin inviting an
 * e-mail another account's user signs in with was told "already exists", and learnt who
 * belongs to another account. Now one user per e-mail signs in (the rows with a password), and
 * within an account an e-mail is one user; an invitation to an e-mail someone signs in with
 * elsewhere is made and mailed as any other, and refused only to the person accepting it.
 */
export const InvitationsAcrossAccounts1795567400000 = migration(
  'InvitationsAcrossAccounts1795567400000',
  {
    async up(q) {
      await q.query(`ALTER TABLE users DROP CONSTRAINT users_email_key`);
      await q.query(
        `ALTER TABLE users ADD CONSTRAINT users_account_email_key UNIQUE (account_id, email)`,
      );
      await q.query(
        `CREATE UNIQUE INDEX users_signing_in_email_key ON users (email) WHERE password_hash IS NOT NULL`,
      );
      // Sign-in and the CLI look a user up by e-mail alone.
      await q.query(`CREATE INDEX users_email_idx ON users (email)`);
    },

    async down(q) {
      // Invitations sharing an e-mail with an older or signing-in user go: one row per e-mail.
      await q.query(
        `DELETE FROM users u WHERE u.password_hash IS NULL AND EXISTS (
           SELECT 1 FROM users o WHERE o.email = u.email AND o.id <> u.id
              AND (o.password_hash IS NOT NULL OR (o.created_at, o.id) < (u.created_at, u.id)))`,
      );
      await q.query(`DROP INDEX users_email_idx`);
      await q.query(`DROP INDEX users_signing_in_email_key`);
      await q.query(`ALTER TABLE users DROP CONSTRAINT users_account_email_key`);
      await q.query(`ALTER TABLE users ADD CONSTRAINT users_email_key UNIQUE (email)`);
    },
  },
);
