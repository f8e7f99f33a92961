import { createHash } from 'node:crypto';
import { ApiKeysService, AuthModule } from '@/modules/auth';
import { operatorContext } from '@/modules/audit';
import { bootModule, insertAccount, ModuleContext } from '../support/module';

/**
 * The auth module booted alone (test/support/module.ts): API keys against the real database, on
 * PostgreSQL alone (no Redis: the revocation channel is down, so every lookup reads the table).
 */
describe('auth module, alone', () => {
  let t: ModuleContext;
  let keys: ApiKeysService;
  let accountId: string;

  beforeAll(async () => {
    t = await bootModule(AuthModule);
    keys = t.ctx.get(ApiKeysService);
    accountId = await insertAccount(t.db);
  });
  afterAll(() => t.close());

  it('boots with the audit module, its one import', () => {
    expect(t.booted).toEqual(['AuditModule', 'AuthModule']);
  });

  it('stores only the hash of a new key, which then authenticates with its scopes', async () => {
    const by = operatorContext(accountId);
    const { key, apiKey } = await keys.create(accountId, 'front desk', ['eligibility:read'], by);
    const [row] = await t.db.query('SELECT prefix, key_hash FROM api_keys WHERE id = $1', [
      apiKey.id,
    ]);
    expect(row.prefix).toBe(key.slice(0, 10));
    expect(row.key_hash).toBe(createHash('sha256').update(key).digest('hex'));
    expect(await keys.authenticate(key)).toEqual({
      apiKeyId: apiKey.id,
      accountId,
      apiKeyPrefix: row.prefix,
      scopes: ['eligibility:read'],
    });
    const events = await t.db.query('SELECT action FROM audit_events WHERE resource_id = $1', [
      row.prefix,
    ]);
    expect(events).toEqual([{ action: 'create' }]);
  });

  it('refuses a revoked key, a malformed one, and a revocation from another account', async () => {
    const { key, apiKey } = await keys.create(accountId, 'old key');
    const other = await insertAccount(t.db);
    await expect(keys.revoke(other, apiKey.id)).rejects.toMatchObject({ status: 404 });
    expect(await keys.isActive(apiKey.id)).toBe(true);
    await keys.revoke(accountId, apiKey.id);
    expect(await keys.authenticate(key)).toBeNull();
    expect(await keys.isActive(apiKey.id)).toBe(false);
    expect(await keys.authenticate('vk_too-short')).toBeNull();
  });
});
