import { createHash, randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { Database } from '@/platform/db/database';
import { AccountsRepository } from '@/modules/accounts/store/accounts.repository';
import { LocationsRepository } from '@/modules/accounts/store/locations.repository';
import { RecoveryCodesRepository } from '@/modules/accounts/store/recovery-codes.repository';
import { UserTokensRepository } from '@/modules/accounts/store/user-tokens.repository';
import { UsersRepository } from '@/modules/accounts/store/users.repository';
import { ApiKeysRepository } from '@/modules/auth/store/api-keys.repository';
import { IframeSessionsRepository } from '@/modules/iframe-session/store/iframe-sessions.repository';
import { createTestContext, TestContext } from '../support/app';
import { recordSql, SqlRecording } from '../support/sql-recorder';

const sha = (s: string) => createHash('sha256').update(s).digest('hex');
const tag = () => randomBytes(4).toString('hex');

/**
 * The SQL of the accounts, auth and iframe-session repositories, one snapshot per method: a
 * change to a statement shows in review as a snapshot diff.
 */
describe('accounts, auth and iframe-session repositories', () => {
  let t: TestContext;
  let sql: SqlRecording;
  let database: Database;
  let accounts: AccountsRepository;
  let locations: LocationsRepository;
  let users: UsersRepository;
  let tokens: UserTokensRepository;
  let codes: RecoveryCodesRepository;
  let keys: ApiKeysRepository;
  let iframe: IframeSessionsRepository;
  let accountId: string;
  let userId: string;

  /** Runs `call` alone on the recording and snapshots its statements. */
  const rec = <T>(name: string, call: () => Promise<T>) => sql.snapshot(name, call);

  beforeAll(async () => {
    t = await createTestContext();
    database = t.ctx.get(Database);
    accounts = t.ctx.get(AccountsRepository);
    locations = t.ctx.get(LocationsRepository);
    users = t.ctx.get(UsersRepository);
    tokens = t.ctx.get(UserTokensRepository);
    codes = t.ctx.get(RecoveryCodesRepository);
    keys = t.ctx.get(ApiKeysRepository);
    iframe = t.ctx.get(IframeSessionsRepository);
    sql = recordSql();
  });
  afterAll(async () => {
    sql.stop();
    await t.close();
  });

  it('AccountsRepository', async () => {
    const account = await rec('accounts.insert', () =>
      accounts.insert({ name: `Practice ${tag()}`, iframeEnabled: true }),
    );
    accountId = account.id;
    expect(account).toMatchObject({ iframeEnabled: true, requireTwoFactor: false });
    expect((await rec('accounts.findById', () => accounts.findById(accountId)))?.id).toBe(
      accountId,
    );
    await rec('accounts.update', () =>
      accounts.update(accountId, { frameAncestors: ['https://a.test'], requireTwoFactor: true }),
    );
    const changed = await rec('accounts.findByIdOrFail', () => accounts.findByIdOrFail(accountId));
    expect(changed).toMatchObject({ frameAncestors: ['https://a.test'], requireTwoFactor: true });
    expect(await rec('accounts.count', () => accounts.count())).toBeGreaterThanOrEqual(1);
  });

  it('LocationsRepository', async () => {
    const code = `LOC-${tag()}`;
    const main = await database.transaction((tx) =>
      rec('locations.insert', () =>
        locations.insert(
          { accountId, code, title: 'Main', status: 'enabled', isDefault: true },
          tx,
        ),
      ),
    );
    expect(main.taxonomyCode).toBe('152W00000X');
    const other = await locations.insert({ accountId, code: `LOC-${tag()}`, title: 'Annex' });
    const list = await rec('locations.listByAccount', () => locations.listByAccount(accountId));
    expect(list.map((l) => l.id)).toEqual([main.id, other.id]);
    expect(
      (await rec('locations.findByCode', () => locations.findByCode(accountId, code)))?.id,
    ).toBe(main.id);
    expect(
      await rec('locations.findByCodeAnyAccount', () => locations.findByCodeAnyAccount(other.code)),
    ).toMatchObject({ id: other.id, accountId });
    expect(
      (await rec('locations.findById', () => locations.findById(accountId, other.id)))?.code,
    ).toBe(other.code);
    expect((await rec('locations.findDefault', () => locations.findDefault(accountId)))?.id).toBe(
      main.id,
    );
    await rec('locations.update', () =>
      locations.update(accountId, other.id, { title: 'Annex 2', npi: '1234567893' }),
    );
    expect(await locations.findById(accountId, other.id)).toMatchObject({
      title: 'Annex 2',
      npi: '1234567893',
    });
  });

  it('UsersRepository: rows, locks, passwords and epochs', async () => {
    const email = `admin-${tag()}@practice.test`;
    const user = await rec('users.insert', () =>
      users.insert({
        accountId,
        email,
        role: 'admin',
        passwordHash: 'scrypt$old',
        passwordChangedAt: new Date(),
      }),
    );
    userId = user.id;
    await users.insert({
      accountId,
      email: `staff-${tag()}@practice.test`,
      role: 'staff',
      passwordHash: null,
      passwordChangedAt: null,
    });
    expect((await rec('users.findById', () => users.findById(userId)))?.email).toBe(email);
    expect(await rec('users.findInAccount', () => users.findInAccount(accountId, userId))).toEqual(
      expect.objectContaining({ id: userId }),
    );
    expect((await rec('users.findByEmail', () => users.findByEmail(email)))?.id).toBe(userId);
    expect((await rec('users.firstOfAccount', () => users.firstOfAccount(accountId)))?.id).toBe(
      userId,
    );
    const all = await rec('users.listByAccount', () => users.listByAccount(accountId));
    expect(all.map((u) => u.role)).toEqual(['admin', 'staff']);
    const locked = await database.transaction(async (tx) => ({
      one: await rec('users.lockById', () => users.lockById(userId, tx)),
      all: await rec('users.lockAllOfAccount', () => users.lockAllOfAccount(accountId, tx)),
    }));
    expect(locked.one?.id).toBe(userId);
    expect(locked.all).toHaveLength(2);
    const staff = locked.all.find((u) => u.role === 'staff')!;
    await rec('users.updateAccess', () =>
      users.updateAccess({ ...staff, disabledAt: new Date(), sessionEpoch: 4 }),
    );
    expect((await users.findById(staff.id))?.sessionEpoch).toBe(4);
    await rec('users.updatePasswordHash', () => users.updatePasswordHash(userId, 'scrypt$new'));
    expect((await users.findById(userId))?.passwordHash).toBe('scrypt$new');
    const stored = await database.transaction((tx) =>
      rec('users.storePassword', () => users.storePassword(userId, 'scrypt$newer', tx)),
    );
    expect(stored.session_epoch).toBe(1);
    expect(stored.password_changed_at).toBeInstanceOf(Date);
    expect(await rec('users.raiseSessionEpoch', () => users.raiseSessionEpoch(userId))).toBe(2);
    expect(await users.raiseSessionEpoch('00000000-0000-0000-0000-000000000000')).toBeNull();
  });

  it('UsersRepository: two-factor state', async () => {
    expect(await rec('users.twoFactorState', () => users.twoFactorState(userId))).toEqual({
      enabled: false,
      required: true,
    });
    await rec('users.setTotpSecret', () => users.setTotpSecret(userId, 'sealed-1'));
    expect(await rec('users.enableTotp', () => users.enableTotp(userId, 'sealed-1', 100))).toBe(
      true,
    );
    expect(await users.enableTotp(userId, 'sealed-1', 100)).toBe(false);
    expect(await rec('users.advanceTotpStep', () => users.advanceTotpStep(userId, 101))).toBe(true);
    expect(await users.advanceTotpStep(userId, 101)).toBe(false);
    await rec('users.clearTotp', () => users.clearTotp(userId));
    expect(await users.findById(userId)).toMatchObject({
      totpSecretSealed: null,
      totpEnabledAt: null,
      totpLastStep: null,
    });
  });

  it('UserTokensRepository', async () => {
    const token = randomBytes(32).toString('hex');
    const expiresAt = new Date(Date.now() + 3600_000);
    await rec('userTokens.insert', () =>
      tokens.insert({ tokenHash: sha(token), userId, purpose: 'password_reset', expiresAt }),
    );
    expect(
      (await rec('userTokens.findLive', () => tokens.findLive(sha(token), 'password_reset')))
        ?.userId,
    ).toBe(userId);
    const since = new Date(Date.now() - 3600_000);
    expect(
      await rec('userTokens.countResetsSince', () => tokens.countResetsSince(userId, since)),
    ).toBe(1);
    const claimed = await database.transaction((tx) =>
      rec('userTokens.claim', () => tokens.claim(sha(token), 'password_reset', tx)),
    );
    expect(claimed).toBe(userId);
    expect(await tokens.claim(sha(token), 'password_reset')).toBeNull();
    const other = randomBytes(32).toString('hex');
    await tokens.insert({ tokenHash: sha(other), userId, purpose: 'invitation', expiresAt });
    await rec('userTokens.voidUnused', () => tokens.voidUnused(userId, 'invitation'));
    expect(await tokens.findLive(sha(other), 'invitation')).toBeNull();
  });

  it('RecoveryCodesRepository', async () => {
    await rec('recoveryCodes.insertMany', () =>
      codes.insertMany(userId, [sha('a'), sha('b'), sha('c')]),
    );
    expect(await rec('recoveryCodes.spend', () => codes.spend(userId, sha('b')))).toBe(true);
    expect(await codes.spend(userId, sha('b'))).toBe(false);
    expect(await rec('recoveryCodes.countUnused', () => codes.countUnused(userId))).toBe(2);
    await rec('recoveryCodes.deleteAllOf', () => codes.deleteAllOf(userId));
    expect(await codes.countUnused(userId)).toBe(0);
  });

  it('ApiKeysRepository', async () => {
    const key = `vk_${randomBytes(32).toString('base64url')}`;
    const created = await rec('apiKeys.insert', () =>
      keys.insert({
        accountId,
        name: 'test key',
        prefix: key.slice(0, 10),
        keyHash: sha(key),
        scopes: ['eligibility:write'],
      }),
    );
    expect(created.revokedAt).toBeNull();
    const list = await rec('apiKeys.listByAccount', () => keys.listByAccount(accountId));
    expect(list.map((k) => k.id)).toEqual([created.id]);
    expect(
      (await rec('apiKeys.findInAccount', () => keys.findInAccount(accountId, created.id)))?.prefix,
    ).toBe(key.slice(0, 10));
    expect(await rec('apiKeys.findAuth', () => keys.findAuth(sha(key)))).toEqual({
      id: created.id,
      account_id: accountId,
      prefix: key.slice(0, 10),
      scopes: ['eligibility:write'],
    });
    expect(await rec('apiKeys.activeKeyHash', () => keys.activeKeyHash(created.id))).toBe(sha(key));
    await rec('apiKeys.touchLastUsed', () => keys.touchLastUsed(created.id));
    expect((await keys.findInAccount(accountId, created.id))?.lastUsedAt).toBeInstanceOf(Date);
    const found = await rec('apiKeys.findUnrevoked', () =>
      keys.findUnrevoked({ prefix: key.slice(0, 10) }),
    );
    expect(found.map((k) => k.id)).toEqual([created.id]);
    await rec('apiKeys.revoke', () => keys.revoke(found[0].id, new Date()));
    expect(await keys.findAuth(sha(key))).toBeNull();
    expect(await keys.findUnrevoked({ keyHash: sha(key) })).toEqual([]);
  });

  it('IframeSessionsRepository', async () => {
    const apiKey = await keys.insert({
      accountId,
      name: 'embed key',
      prefix: `vk_${tag()}`,
      keyHash: sha(tag()),
      scopes: ['eligibility:write'],
    });
    const token = { tokenHash: sha(tag()), accountId, userId, apiKeyId: apiKey.id };
    await rec('iframeSessions.insert', () =>
      iframe.insert({ ...token, entryPoint: 'insurers', ttlSeconds: 300 }),
    );
    const row = {
      account_id: accountId,
      user_id: userId,
      entry_point: 'insurers',
      api_key_id: apiKey.id,
      request_uid: null,
      person_id: null,
    };
    expect(await rec('iframeSessions.peek', () => iframe.peek(token.tokenHash))).toEqual(row);
    expect(await rec('iframeSessions.redeem', () => iframe.redeem(token.tokenHash))).toEqual(row);
    expect(await iframe.redeem(token.tokenHash)).toBeNull();
    await iframe.insert({
      ...token,
      tokenHash: sha(tag()),
      entryPoint: 'passwords',
      ttlSeconds: -90_000,
    });
    const left = async () =>
      (
        await t.ctx
          .get(DataSource)
          .query('SELECT entry_point FROM iframe_tokens WHERE account_id = $1', [accountId])
      ).map((r: { entry_point: string }) => r.entry_point);
    expect(await left()).toEqual(['insurers', 'passwords']);
    await rec('iframeSessions.deleteExpired', () => iframe.deleteExpired());
    expect(await left()).toEqual(['insurers']);
  });
});
