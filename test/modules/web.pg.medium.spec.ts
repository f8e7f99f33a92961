import { openSecret } from '@/platform/kernel/secret-box';
import type { Request } from 'express';
import { operatorContext, userContext } from '@/modules/audit';
import { WebModule } from '@/modules/web';
import { UserAccessService } from '@/modules/web/user-access.service';
import { createPractice } from '../support/factories';
import { bootModule, ModuleContext } from '../support/module';

/**
 * The web shell booted alone (test/support/module.ts), without a feature's pages and without
 * HTTP: the people steps its pages take (UserAccessService), with their e-mails and audit events.
 */
describe('web module, alone', () => {
  let t: ModuleContext;
  let access: UserAccessService;

  beforeAll(async () => {
    t = await bootModule(WebModule);
    access = t.ctx.get(UserAccessService);
  });
  afterAll(() => t.close());

  it('boots with the modules it sits on, and no feature with pages', () => {
    expect(t.booted).toEqual([
      'AccountsModule',
      'AuditModule',
      'AuthModule',
      'IframeSessionModule',
      'MailModule',
      'WebModule',
    ]);
  });

  it('invites a user by e-mail, whose link sets the password once', async () => {
    const { accountId } = await createPractice(t.ctx);
    const by = operatorContext(accountId);
    const invited = await access.invite(by, 'optician@practice.test', 'staff');
    expect(invited).toMatchObject({ status: 'invited', role: 'staff' });
    const [mail] = await t.db.query(
      `SELECT link_sealed FROM mail_messages WHERE kind = 'user_invitation' AND to_address = $1`,
      ['optician@practice.test'],
    );
    const link = new URL(
      openSecret(t.config.encryptionKey, mail.link_sealed, 'mail-link:optician@practice.test'),
    );
    const token = link.searchParams.get('token')!;
    const as = (u: { id: string; accountId: string; email: string }) =>
      userContext({ ip: '127.0.0.1' } as Request, u);
    expect(await access.redeem('invitation', token, 'a-long-enough-secret', as)).toMatchObject({
      status: 'enabled',
    });
    expect(await access.redeem('invitation', token, 'another-long-secret', as)).toBeNull();
    const events = await t.db.query(
      `SELECT action FROM audit_events WHERE account_id = $1 AND resource_type = 'user' ORDER BY created_at`,
      [accountId],
    );
    expect(events.map((e: { action: string }) => e.action)).toEqual(['invite', 'accept']);
    await expect(access.invite(by, 'OPTICIAN@practice.test', 'admin')).rejects.toMatchObject({
      status: 400,
      errors: { email: { $: ['A user with this e-mail already exists.'] } },
    });
  });
});
