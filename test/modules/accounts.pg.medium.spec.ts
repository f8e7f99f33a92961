import { AccountsModule, AccountsService, UsersService } from '@/modules/accounts';
import { bootModule, ModuleContext } from '../support/module';

/** The accounts module booted alone (test/support/module.ts): accounts, locations and users. */
describe('accounts module, alone', () => {
  let t: ModuleContext;
  let accounts: AccountsService;

  beforeAll(async () => {
    t = await bootModule(AccountsModule);
    accounts = t.ctx.get(AccountsService);
  });
  afterAll(() => t.close());

  it('boots with the audit module, its one import', () => {
    expect(t.booted).toEqual(['AccountsModule', 'AuditModule']);
  });

  it('creates an account with its default location and an admin who signs in with the password', async () => {
    const { account, location, user } = await accounts.createAccount({
      name: 'Clear Sight',
      email: ' Front.Desk@Clear-Sight.test ',
      password: 'a-long-enough-secret',
    });
    expect(await accounts.listLocations(account.id)).toEqual([
      expect.objectContaining({ id: location.id, title: 'Main office', isDefault: true }),
    ]);
    expect((await t.ctx.get(UsersService).get(account.id, user.id)).role).toBe('admin');
    expect(
      (await accounts.verifyCredentials('front.desk@clear-sight.test', 'a-long-enough-secret'))?.id,
    ).toBe(user.id);
    expect(
      await accounts.verifyCredentials('front.desk@clear-sight.test', 'a-wrong-secret'),
    ).toBeNull();
  });

  it('refuses a second user with the same e-mail and a short password, and stores neither', async () => {
    const create = (email: string, password: string) =>
      accounts.createAccount({ name: 'Another', email, password });
    await create('owner@practice.test', 'a-long-enough-secret');
    await expect(create('OWNER@practice.test', 'another-long-secret')).rejects.toMatchObject({
      status: 400,
      errors: { email: { $: ['A user with this email already exists.'] } },
    });
    await expect(create('new@practice.test', 'short')).rejects.toMatchObject({
      status: 400,
      errors: { password: expect.anything() },
    });
    const [{ n }] = await t.db.query(
      `SELECT count(*)::int AS n FROM accounts WHERE name = 'Another'`,
    );
    expect(n).toBe(1);
  });
});
