import { DataSource } from 'typeorm';
import { InvitationsAcrossAccounts1795567400000 } from '@/platform/db/migrations/1795567400000-InvitationsAcrossAccounts';
import { createTestApp, TestApp } from './support/app';
import { createAccount } from './support/factories';

/**
 * SECURITY.md (web users): one user signs in with an e-mail, and within an account an e-mail is
 * one user; invitations to it may wait in other accounts. Down keeps one row per e-mail.
 */
describe('migration: invitations across accounts', () => {
  let t: TestApp;
  let db: DataSource;

  beforeAll(async () => {
    t = await createTestApp();
    db = t.app.get(DataSource);
  });
  afterAll(() => t.close());

  const invite = (accountId: string, email: string) =>
    db.query(`INSERT INTO users (account_id, email, role) VALUES ($1, $2, 'staff')`, [
      accountId,
      email,
    ]);
  const rowsOf = async (email: string) =>
    (
      await db.query(`SELECT account_id FROM users WHERE email = $1 ORDER BY created_at`, [email])
    ).map((r: { account_id: string }) => r.account_id);

  it('holds one signing-in user per e-mail and one user per e-mail in an account; down keeps the signing-in one', async () => {
    const a = await createAccount(t.app);
    const b = await createAccount(t.app);
    await invite(b.accountId, a.email);
    await expect(invite(b.accountId, a.email)).rejects.toThrow(/users_account_email_key/);
    await expect(
      db.query(`UPDATE users SET password_hash = 'x' WHERE account_id = $1 AND email = $2`, [
        b.accountId,
        a.email,
      ]),
    ).rejects.toThrow(/users_signing_in_email_key/);
    expect(await rowsOf(a.email)).toEqual([a.accountId, b.accountId]);

    const runner = db.createQueryRunner();
    try {
      await new InvitationsAcrossAccounts1795567400000().down(runner);
      expect(await rowsOf(a.email)).toEqual([a.accountId]);
      await expect(invite(b.accountId, a.email)).rejects.toThrow(/users_email_key/);
      await new InvitationsAcrossAccounts1795567400000().up(runner);
      await invite(b.accountId, a.email);
      expect(await rowsOf(a.email)).toEqual([a.accountId, b.accountId]);
    } finally {
      await runner.release();
    }
  });
});
