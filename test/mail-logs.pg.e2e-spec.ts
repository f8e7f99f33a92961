import request from 'supertest';
import { DataSource } from 'typeorm';
import { createTestApp } from './support/app';
import { createAccount } from './support/factories';
import { TestSmtp } from './support/fake-smtp';
import { waitUntil } from './support/queues';

const member = {
  first_name: 'Maria',
  last_name: 'Gonzalez',
  dob: '1986-04-12',
  type: 'self',
  sex: 'female',
  member_id: 'VSP104882211',
};
const claim = {
  patient: member,
  primary_member: { ...member, insurer_code: 'insurer:vision:vsp' },
  services: [
    { codes: ['92014'], date: '2026-11-14', quantity: 1, cost: '145', diagnosis_codes: ['H52.13'] },
  ],
  paid_amount: '100',
};

// Its own file (a fresh module registry): nestjs-pino's application logger is process-wide, so
// the logs of this app are read without the apps of other tests in between.
describe('mail logs', () => {
  const smtp = new TestSmtp();
  beforeAll(() => smtp.start());
  afterAll(() => smtp.stop());

  it('carry the mail id and the outcome of a send, never the recipient or the SMTP answer', async () => {
    const writes: string[] = [];
    const spy = jest
      .spyOn(process.stdout, 'write')
      .mockImplementation((chunk: string | Uint8Array) => {
        writes.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString());
        return true;
      });
    const t = await createTestApp({ env: { SMTP_URL: smtp.url, LOG_LEVEL: 'debug' } });
    const [refused, busy, accepted] = [
      'refused.patient@example.com',
      'busy.patient@example.com',
      'accepted.patient@example.com',
    ];
    const rows: Record<string, { id: string; status: string; last_error: string | null }> = {};
    try {
      const a = await createAccount(t.app);
      const http = () => request(t.app.getHttpServer());
      const db = t.app.get(DataSource);
      smtp.refusedRecipients.add(refused);
      for (const to of [refused, busy, accepted]) {
        const created = await http().post('/api/auth/v1/claims/').set(a.auth).send(claim);
        expect(created.status).toBe(201);
        // The next DATA is answered 451 (try later): the busy address's, sent second.
        if (to === busy) smtp.dataAnswers.push(451);
        const res = await http()
          .post(`/api/auth/v1/claims/${created.body.code}/notify-customer/`)
          .set(a.auth)
          .send({ email: to });
        expect(res.status).toBe(200);
        rows[to] = await waitUntil(`the first attempt to ${to}`, async () => {
          const [row] = await db.query(
            `SELECT id, status, last_error FROM mail_messages WHERE to_address = $1`,
            [to],
          );
          const tried = row && (row.status !== 'queued' || row.last_error !== null);
          return tried ? row : undefined;
        });
      }
    } finally {
      await t.close();
      spy.mockRestore();
    }
    // The outcomes happened, and the database (not the logs) keeps the server's answer.
    expect(rows[refused]).toMatchObject({ status: 'failed' });
    expect(rows[refused].last_error).toContain('Recipient address rejected');
    expect(rows[busy]).toMatchObject({ status: 'queued' });
    expect(rows[busy].last_error).toContain('Mailbox busy');
    expect(rows[accepted]).toMatchObject({ status: 'sent' });

    const lines = writes
      .join('')
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    const line = (msg: string, id: string) => lines.find((l) => l.msg === msg && l.mail === id);
    expect(line('mail failed for good', rows[refused].id)).toMatchObject({
      permanent: true,
      responseCode: 550,
      command: 'RCPT TO',
    });
    expect(line('mail failed; will retry', rows[busy].id)).toMatchObject({
      permanent: false,
      responseCode: 451,
      command: 'DATA',
    });
    expect(line('mail sent', rows[accepted].id)).toBeDefined();

    const text = writes.join('');
    for (const secret of [refused, busy, accepted, 'Recipient address', 'Mailbox busy']) {
      expect(text).not.toContain(secret);
    }
    // smtp-server's answer to an accepted message ("250 OK: message queued").
    expect(text).not.toMatch(/message queued/i);
  }, 60_000);
});
