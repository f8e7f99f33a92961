import { randomUUID } from 'node:crypto';
import { AuditModule, AuditService, operatorContext, securityEvent } from '@/modules/audit';
import { bootModule, ModuleContext } from '../support/module';

/** The audit module booted alone (test/support/module.ts): the trail, written and read back. */
describe('audit module, alone', () => {
  let t: ModuleContext;
  let audit: AuditService;

  beforeAll(async () => {
    t = await bootModule(AuditModule);
    audit = t.ctx.get(AuditService);
  });
  afterAll(() => t.close());

  it('boots with nothing else of the application', () => {
    expect(t.booted).toEqual(['AuditModule']);
  });

  it("lists an account's events newest first, by resource type, one keyset page at a time", async () => {
    const [account, other] = [randomUUID(), randomUUID()];
    const by = operatorContext(account);
    await audit.record(securityEvent(by, 'api_key', 'create', 'vk_first'));
    await audit.record(securityEvent(by, 'webhook', 'delete', 'hook-1'));
    await audit.record(securityEvent(by, 'api_key', 'revoke', 'vk_first'));
    await audit.record(securityEvent(operatorContext(other), 'api_key', 'create', 'vk_other'));
    const first = await audit.list(account, { limit: 1, resourceType: 'api_key' });
    expect(first.result.map((e) => [e.action, e.resourceId, e.actor])).toEqual([
      ['revoke', 'vk_first', 'cli'],
    ]);
    const next = await audit.list(account, {
      limit: 5,
      cursor: first.next_cursor,
      resourceType: 'api_key',
    });
    expect(next.result.map((e) => e.action)).toEqual(['create']);
    expect(next.next_cursor).toBeNull();
    expect((await audit.list(account, { limit: 10 })).result).toHaveLength(3);
  });

  it('stores what PostgreSQL can hold: a NUL becomes U+FFFD, a long resource id is cut', async () => {
    const account = randomUUID();
    const by = { ...operatorContext(account), ip: '203.0.113.9' };
    await audit.record(
      securityEvent(
        { ...by, actor: { ...by.actor, name: 'cl\u0000i' } },
        'session',
        'sign_in',
        'x'.repeat(300),
      ),
    );
    const [row] = await t.db.query(
      'SELECT actor, length(resource_id) AS n, ip FROM audit_events WHERE account_id = $1',
      [account],
    );
    expect(row).toEqual({ actor: 'cl\uFFFDi', n: 256, ip: '203.0.113.9' });
  });
});
