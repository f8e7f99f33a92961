import { DataSource } from 'typeorm';
import { runCli } from './support/cli';
import { createTestApp, TestApp } from './support/app';
import { createAccount, TestAccount } from './support/factories';
import { signIn } from './support/web-sign-in';

/** SECURITY.md: users:create and users:reset-password, the password on stdin, never argv. */
describe('CLI users', () => {
  let t: TestApp;
  let a: TestAccount;

  beforeAll(async () => {
    t = await createTestApp();
    a = await createAccount(t.app);
  });
  afterAll(() => t.close());

  it('users:create makes a user of the account with the role, password from stdin', async () => {
    const email = `cli-${Date.now()}@practice.test`;
    const out = await runCli(
      ['users:create', '--account', a.accountId, '--email', email, '--role', 'staff'],
      'a password from stdin\n',
    );
    expect(out.stderr).toBe('');
    expect(out.code).toBe(0);
    expect(JSON.parse(out.stdout.trim()).user).toMatchObject({
      account_id: a.accountId,
      email,
      role: 'staff',
    });
    const { agent } = await signIn(t.app, email, 'a password from stdin');
    await agent.get('/app/patients/').expect(200);
    await agent.get('/app/api-keys/').expect(403);
  }, 60_000);

  it('refuses a short password, an unknown role and a password given as an argument', async () => {
    const short = await runCli(
      ['users:create', '--account', a.accountId, '--email', 'x1@practice.test', '--role', 'staff'],
      'short\n',
    );
    expect(short.code).toBe(1);
    expect(short.stderr).toContain('at least 12 characters');
    const role = await runCli(
      ['users:create', '--account', a.accountId, '--email', 'x2@practice.test', '--role', 'owner'],
      'a long enough password\n',
    );
    expect(role.code).toBe(1);
    expect(role.stderr).toContain('--role must be one of admin, staff');
    const argv = await runCli(
      ['users:reset-password', '--email', a.email, '--password', 'a long enough password'],
      '',
    );
    expect(argv.code).toBe(1);
    const rows: { n: number }[] = await t.app
      .get(DataSource)
      .query(`SELECT count(*)::int AS n FROM users WHERE email LIKE 'x_@practice.test'`);
    expect(rows[0].n).toBe(0);
  }, 60_000);

  it('users:reset-password sets the password from stdin and ends the sessions', async () => {
    const account = await createAccount(t.app);
    const before = await signIn(t.app, account.email, account.password);
    await before.agent.get('/app/').expect(200);
    const out = await runCli(
      ['users:reset-password', '--email', account.email],
      'the operator chose this\n',
    );
    expect(out.stderr).toBe('');
    expect(out.code).toBe(0);
    expect(out.stdout).not.toContain('the operator chose this');
    expect((await before.agent.get('/app/')).status).toBe(302);
    await expect(signIn(t.app, account.email, account.password)).rejects.toThrow();
    await signIn(t.app, account.email, 'the operator chose this');
    const unknown = await runCli(
      ['users:reset-password', '--email', 'nobody@practice.test'],
      'the operator chose this\n',
    );
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('No user with e-mail nobody@practice.test');
  }, 60_000);
});
