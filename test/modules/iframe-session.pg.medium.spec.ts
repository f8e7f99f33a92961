import { createHash, randomBytes } from 'node:crypto';
import { AccountsService } from '@/modules/accounts';
import { operatorContext } from '@/modules/audit';
import { IframeSessionModule, IframeSessionService } from '@/modules/iframe-session';
import { createPractice } from '../support/factories';
import { bootModule, ModuleContext } from '../support/module';

/** The iframe-session module booted alone (test/support/module.ts): embedded-session links. */
describe('iframe-session module, alone', () => {
  let t: ModuleContext;
  let links: IframeSessionService;

  beforeAll(async () => {
    t = await bootModule(IframeSessionModule);
    links = t.ctx.get(IframeSessionService);
  });
  afterAll(() => t.close());

  /** An account's key (a row: the auth module is not booted), as the actor minting the link. */
  async function keyOf(accountId: string) {
    const [{ id }] = await t.db.query(
      `INSERT INTO api_keys (account_id, name, prefix, key_hash) VALUES ($1, 'pms', 'vk_medium', $2) RETURNING id`,
      [accountId, randomBytes(32).toString('hex')],
    );
    const ctx = operatorContext(accountId);
    return { ...ctx, actor: { ...ctx.actor, type: 'api_key' as const, apiKeyId: id as string } };
  }

  it('boots with the accounts and audit modules, its imports', () => {
    expect(t.booted).toEqual(['AccountsModule', 'AuditModule', 'IframeSessionModule']);
  });

  it('mints a single-use link for the first user, and refuses an account without embedding', async () => {
    const { accountId, userId } = await createPractice(t.ctx);
    const by = await keyOf(accountId);
    await expect(links.create(by, 'insurers')).rejects.toMatchObject({ status: 403 });
    await t.ctx.get(AccountsService).updateAccount(accountId, {
      iframeEnabled: true,
      frameAncestors: ['https://pms.example.test'],
    });
    const url = new URL(await links.create(by, 'insurers'));
    expect(url.origin + url.pathname).toBe(`${t.config.publicUrl}/embed/`);
    const token = url.searchParams.get('token')!;
    const whom = {
      accountId,
      userId,
      entryPoint: 'insurers',
      apiKeyId: by.actor.apiKeyId,
      counter: null,
    };
    expect(await links.peek(token)).toEqual(whom);
    expect(await links.redeem(token)).toEqual(whom);
    expect(await links.redeem(token)).toBeNull();
    const [row] = await t.db.query('SELECT token_hash FROM iframe_tokens WHERE account_id = $1', [
      accountId,
    ]);
    expect(row.token_hash).toBe(createHash('sha256').update(token).digest('hex'));
  });
});
