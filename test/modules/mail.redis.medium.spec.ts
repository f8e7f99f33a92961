import { randomUUID } from 'node:crypto';
import { openSecret } from '@/platform/kernel/secret-box';
import { MAIL_LINK, MailModule, MailService } from '@/modules/mail';
import { bootModule, ModuleContext } from '../support/module';
import { bullQueue } from '../support/queues';

/** The mail module booted alone (test/support/module.ts): its outbox against the real database. */
describe('mail module, alone', () => {
  let t: ModuleContext;
  let mail: MailService;

  beforeAll(async () => {
    t = await bootModule(MailModule);
    mail = t.ctx.get(MailService);
  });
  afterAll(() => t.close());

  const message = (over: Partial<Parameters<MailService['enqueue']>[0]> = {}) => ({
    accountId: null,
    kind: 'user_invitation',
    ref: null,
    to: 'optician@practice.test',
    subject: 'You are invited',
    text: `Open ${MAIL_LINK} to choose a password.`,
    html: `<a href="${MAIL_LINK}">Choose a password</a>`,
    ...over,
  });

  it('boots with the audit module, its one import, and nothing else of the application', () => {
    expect(t.booted).toEqual(['AuditModule', 'MailModule']);
  });

  it('stores a message as queued and queues its job, its id in the job', async () => {
    const id = await mail.enqueue(message({ ref: 'CLM-1' }));
    const [row] = await t.db.query(
      `SELECT kind, ref, to_address, subject, status, attempts, account_id FROM mail_messages WHERE id = $1`,
      [id],
    );
    expect(row).toEqual({
      kind: 'user_invitation',
      ref: 'CLM-1',
      to_address: 'optician@practice.test',
      subject: 'You are invited',
      status: 'queued',
      attempts: 0,
      account_id: null,
    });
    const job = await bullQueue(t.ctx, 'mail').getJob(`send:${id}:a0`);
    expect(job?.data).toEqual({ id });
    expect((await mail.findMessage(id))?.toAddress).toBe('optician@practice.test');
  });

  it('keeps a working link out of the stored bodies, sealed for its recipient alone', async () => {
    const link = 'http://localhost:3999/app/invitations/secret-token-123';
    const id = await mail.enqueue(message({ link }));
    const stored = (await mail.findMessage(id))!;
    expect(stored.textBody).toBe(`Open ${MAIL_LINK} to choose a password.`);
    expect(JSON.stringify(stored)).not.toContain('secret-token-123');
    const key = t.config.encryptionKey;
    expect(openSecret(key, stored.linkSealed!, 'mail-link:optician@practice.test')).toBe(link);
    expect(() => openSecret(key, stored.linkSealed!, 'mail-link:someone@else.test')).toThrow();
  });

  it('stores attachments as base64 with their names and types', async () => {
    const content = Buffer.from('%PDF-1.7 claim form');
    const id = await mail.enqueue(
      message({
        attachments: [{ filename: 'claim.pdf', contentType: 'application/pdf', content }],
      }),
    );
    expect((await mail.findMessage(id))?.attachments).toEqual([
      {
        filename: 'claim.pdf',
        contentType: 'application/pdf',
        content: content.toString('base64'),
      },
    ]);
  });

  it('refuses a message of an account that does not exist, and queues nothing', async () => {
    const before = await bullQueue(t.ctx, 'mail').getJobCounts();
    await expect(mail.enqueue(message({ accountId: randomUUID() }))).rejects.toThrow(/foreign key/);
    expect(await bullQueue(t.ctx, 'mail').getJobCounts()).toEqual(before);
    expect(await mail.findMessage(randomUUID())).toBeNull();
  });

  it('stores the message of an account that exists under it', async () => {
    const [{ id: accountId }] = await t.db.query(
      `INSERT INTO accounts (name) VALUES ('Clear Sight') RETURNING id`,
    );
    const id = await mail.enqueue(message({ accountId }));
    expect((await mail.findMessage(id))?.accountId).toBe(accountId);
  });
});
