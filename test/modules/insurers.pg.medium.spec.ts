import {
  AssistedTaskStats,
  InsurerCallStats,
  InsurerRegistry,
  InsurersModule,
  InsurerSettingsService,
} from '@/modules/insurers';
import { bootModule, insertAccount, ModuleContext } from '../support/module';

const DEMO = 'insurer:demo:vision';
const VSP = 'insurer:vision:vsp';

/**
 * The insurers module booted alone (test/support/module.ts): an account's insurer settings
 * (`account_insurers`, no entity of its own) and the connector registry. InsurersModule imports
 * AuditModule alone (its pages are InsurersPagesModule's, on the web shell); eligibility,
 * verification and the rest stay unbooted.
 */
describe('insurers module, alone', () => {
  let t: ModuleContext;
  let settings: InsurerSettingsService;
  let accountId: string;

  beforeAll(async () => {
    // Verification and eligibility, which answer the directory's and health's figures, stay out.
    t = await bootModule(InsurersModule, { openHooks: [AssistedTaskStats, InsurerCallStats] });
    settings = t.ctx.get(InsurerSettingsService);
    accountId = await insertAccount(t.db);
  });
  afterAll(() => t.close());

  const setting = async (account: string, code: string) =>
    (await settings.list(account)).find((s) => s.code === code)!;

  it('boots with the audit module, its one import, and without the web shell', () => {
    expect(t.booted).toEqual(['AuditModule', 'InsurersModule']);
  });

  it('finds the sandbox connector by discovery, and none for an insurer without clearinghouse settings', () => {
    const registry = t.ctx.get(InsurerRegistry);
    expect(registry.has(DEMO)).toBe(true);
    expect(registry.has(VSP)).toBe(false);
  });

  it('lists every insurer on, without credentials, for an account that set nothing', async () => {
    expect(await setting(accountId, VSP)).toMatchObject({
      enabled: true,
      credentials: 'none',
      username: null,
      eligibilityMode: null,
      connected: false,
    });
    expect(
      await t.db.query('SELECT 1 FROM account_insurers WHERE account_id = $1', [accountId]),
    ).toEqual([]);
  });

  it('stores credentials with the password sealed for the account and insurer, and opens them for searches', async () => {
    await settings.setCredentials(accountId, VSP, '  front-desk  ', 'pa55-word!');
    const [row] = await t.db.query(
      'SELECT username, password_sealed FROM account_insurers WHERE account_id = $1 AND insurer_code = $2',
      [accountId, VSP],
    );
    expect(row.username).toBe('front-desk');
    expect(row.password_sealed).not.toContain('pa55-word!');
    expect(await settings.credentialsOf(accountId, VSP)).toEqual({
      username: 'front-desk',
      password: 'pa55-word!',
    });
    expect(await setting(accountId, VSP)).toMatchObject({
      credentials: 'ok',
      username: 'front-desk',
    });
    // Sealed for this account: another account's row with these bytes does not open.
    const other = await insertAccount(t.db);
    expect(() => settings.forSearch(other, VSP, { ...row, enabled: true })).toThrow();
    await settings.deleteCredentials(accountId, VSP);
    expect(await settings.credentialsOf(accountId, VSP)).toBeNull();
  });

  it('switches an insurer off and sends its checks to a person, per account', async () => {
    await settings.setEnabled(accountId, DEMO, false);
    await settings.setEligibilityMode(accountId, VSP, 'assisted');
    expect(await setting(accountId, DEMO)).toMatchObject({ enabled: false });
    expect(await setting(accountId, VSP)).toMatchObject({ eligibilityMode: 'assisted' });
    const other = await insertAccount(t.db);
    expect(await setting(other, DEMO)).toMatchObject({ enabled: true });
  });

  it('refuses blank credentials, an unknown insurer and a mailing address without its city line', async () => {
    await expect(settings.setCredentials(accountId, VSP, ' ', '')).rejects.toMatchObject({
      status: 400,
      errors: {
        username: { $: ['This field may not be blank.'] },
        password: { $: ['This field may not be blank.'] },
      },
    });
    await expect(
      settings.setEnabled(accountId, 'insurer:vision:nobody', false),
    ).rejects.toMatchObject({
      status: 400,
    });
    await expect(
      settings.setClaimsMailing(accountId, VSP, 'VSP Claims\nPO Box 1\nnowhere'),
    ).rejects.toMatchObject({ status: 400, errors: { claims_mailing_address: expect.anything() } });
    await settings.setClaimsMailing(
      accountId,
      VSP,
      'VSP Claims\n PO Box 385018 \nBirmingham, AL 35238',
    );
    expect(await settings.claimsMailing(accountId, VSP)).toMatchObject({
      lines: ['VSP Claims', 'PO Box 385018', 'Birmingham, AL 35238'],
      origin: 'account',
    });
  });
});
