import { readdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { simpleParser, type ParsedMail } from 'mailparser';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { QueueSweeper, QueueWorkers } from '@/platform/jobs/queue-workers';
import { MAIL_QUEUE } from '@/modules/mail/jobs/mail.queue';
import { createTestApp, flushRedisPrefix, TestApp } from './support/app';
import { createAccount, TestAccount } from './support/factories';
import { TestSmtp } from './support/fake-smtp';
import { bullQueue, waitForIdleQueue } from './support/queues';

/** Polls until `check` returns a value (bounded: fails after `timeoutMs`). */
async function waitFor<T>(
  what: string,
  check: () => Promise<T | undefined> | T | undefined,
  timeoutMs = 20_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const maria = {
  first_name: 'Maria',
  last_name: 'Gonzalez',
  dob: '1986-04-12',
  type: 'self',
  sex: 'female',
  member_id: 'VSP104882211',
};

const claimBody = (insurer = 'insurer:vision:vsp') => ({
  patient: { ...maria, first_name: 'Maria <b>' },
  primary_member: { ...maria, insurer_code: insurer },
  services: [
    { codes: ['92014'], date: '2026-11-14', quantity: 1, cost: '145', diagnosis_codes: ['H52.13'] },
    { codes: ['V2100'], date: '2026-11-14', quantity: 2, cost: '90.5' },
    { codes: ['V2020'], date: '2026-11-15', quantity: 1, cost: '1075.25' },
  ],
  paid_amount: '1200.75',
});

async function mailRow(t: TestApp, claimCode: string) {
  const rows: {
    status: string;
    attempts: number;
    last_error: string | null;
    delivered_to: string | null;
  }[] = await t.app.get(DataSource).query(
    `SELECT status, attempts, last_error, delivered_to FROM mail_messages
         WHERE kind = 'claim_notification' AND ref = $1 ORDER BY created_at DESC LIMIT 1`,
    [claimCode],
  );
  return rows[0];
}

describe('claim notification e-mail over SMTP (docs/api.md, Claims)', () => {
  const smtp = new TestSmtp();
  let t: TestApp;
  let a: TestAccount;
  let b: TestAccount;

  beforeAll(async () => {
    await smtp.start();
    t = await createTestApp({
      env: { SMTP_URL: smtp.url, MAIL_FROM: 'Clear Sight <claims@clearsight.test>' },
    });
    a = await createAccount(t.app);
    b = await createAccount(t.app);
  });
  afterAll(async () => {
    await t.close();
    await smtp.stop();
  });

  const http = () => request(t.app.getHttpServer());
  const newClaim = async (account = a, insurer?: string): Promise<string> => {
    const res = await http()
      .post('/api/auth/v1/claims/')
      .set(account.auth)
      .send(claimBody(insurer));
    expect(res.status).toBe(201);
    return res.body.code as string;
  };
  const notify = (code: string, email: unknown, account = a) =>
    http().post(`/api/auth/v1/claims/${code}/notify-customer/`).set(account.auth).send({ email });
  const receivedFor = (to: string) => smtp.received.find((m) => m.to.includes(to));

  it('answers 200 {} and delivers an HTML and text message naming the claim, services and amounts', async () => {
    const code = await newClaim();
    const res = await notify(code, 'maria.gonzalez@example.com');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({});

    const message = await waitFor('the e-mail', () => receivedFor('maria.gonzalez@example.com'));
    expect(message.to).toEqual(['maria.gonzalez@example.com']);
    expect(message.from).toBe('claims@clearsight.test');
    const mail: ParsedMail = await simpleParser(message.raw);
    // No electronic route in this test: a paper claim, which the patient mails (docs/api.md, Errors).
    expect(mail.subject).toBe(
      `Your vision claim ${code}: please sign and mail the attached form to VSP Vision Care`,
    );
    expect(mail.from?.value).toEqual([{ name: 'Clear Sight', address: 'claims@clearsight.test' }]);
    expect(mail.messageId).toMatch(/^<[0-9a-f-]{36}@clearsight\.test>$/);

    const text = mail.text ?? '';
    const html = typeof mail.html === 'string' ? mail.html : '';
    expect(html).not.toBe('');
    for (const part of [text, html]) {
      expect(part).toContain(code);
      expect(part).toContain('Gonzalez');
      expect(part).toContain('VSP Vision Care');
      for (const service of ['92014', 'V2100', 'V2020', '2026-11-14', '2026-11-15', 'H52.13']) {
        expect(part).toContain(service);
      }
      for (const amount of [
        '$145.00',
        '$90.50',
        '$1,075.25',
        '$181.00',
        '$1,401.25',
        '$1,200.75',
      ]) {
        expect(part).toContain(amount);
      }
      expect(part).toContain('What to do');
      expect(part).toContain(
        'Mail it to Vision Service Plan (VSP), Attn: Claims Services, P.O. Box 495918, Cincinnati, OH 45249-5918.',
      );
      expect(part).not.toContain('has submitted');
    }
    expect(text).toMatch(/quantity 2/);
    expect(text).toContain('Maria <b> Gonzalez');
    // Caller-supplied text is escaped in the HTML part.
    expect(html).toContain('Maria &lt;b&gt; Gonzalez');
    expect(html).not.toContain('<b> Gonzalez');

    const row = await waitFor('the sent status', async () => {
      const r = await mailRow(t, code);
      return r?.status === 'sent' ? r : undefined;
    });
    expect(row).toMatchObject({ status: 'sent', attempts: 1, last_error: null });
    expect(row.delivered_to).toMatch(/^smtp: 250/);
  });

  it('answers an unknown claim with 404 naming it, and sends nothing', async () => {
    const before = smtp.received.length;
    const res = await notify('CLM00000000', 'someone@example.com');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ detail: 'Claim CLM00000000 not found.' });
    const count: { n: string }[] = await t.app
      .get(DataSource)
      .query(`SELECT count(*) AS n FROM mail_messages WHERE ref = 'CLM00000000'`);
    expect(count[0].n).toBe('0');
    expect(smtp.received.length).toBe(before);
  });

  it("answers another account's claim with the same 404", async () => {
    const theirs = await newClaim(b);
    const res = await notify(theirs, 'someone@example.com');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ detail: `Claim ${theirs} not found.` });
  });

  it('refuses a bad, blank or missing address with a field error on email', async () => {
    const code = await newClaim();
    for (const [email, message] of [
      ['not-an-address', 'Enter a valid email address.'],
      ['maria@', 'Enter a valid email address.'],
      ['', 'This field may not be blank.'],
      [undefined, 'This field is required.'],
      [42, 'Not a valid string.'],
    ] as const) {
      const res = await notify(code, email);
      expect(res.status).toBe(400);
      expect(Object.keys(res.body.errors)).toEqual(['email']);
      expect(res.body.errors.email.$).toEqual([message]);
    }
  });

  it('retries a temporary SMTP failure with backoff until the message is accepted', async () => {
    const code = await newClaim(a, 'insurer:vision:eye_med');
    smtp.dataAnswers.push(451);
    expect((await notify(code, 'retry@example.com')).status).toBe(200);
    const message = await waitFor('the retried e-mail', () => receivedFor('retry@example.com'));
    expect((await simpleParser(message.raw)).subject).toContain(code);
    const row = await waitFor('the sent status', async () => {
      const r = await mailRow(t, code);
      return r?.status === 'sent' ? r : undefined;
    });
    expect(row.attempts).toBe(2);
    expect(smtp.received.filter((m) => m.to.includes('retry@example.com'))).toHaveLength(1);
  });

  it('gives up at once on a permanent refusal and records it', async () => {
    const code = await newClaim();
    smtp.refusedRecipients.add('nobody@example.com');
    expect((await notify(code, 'nobody@example.com')).status).toBe(200);
    const row = await waitFor('the failed status', async () => {
      const r = await mailRow(t, code);
      return r?.status === 'failed' ? r : undefined;
    });
    expect(row.attempts).toBe(1);
    expect(row.last_error).toContain('550');
    // Not retried: no job is left for it, and a sweep finds nothing due.
    await waitForIdleQueue(t.app, MAIL_QUEUE);
    await t.app.get(QueueSweeper).tick();
    await waitForIdleQueue(t.app, MAIL_QUEUE);
    expect(await mailRow(t, code)).toMatchObject({ status: 'failed', attempts: 1 });
  }, 30_000);
});

describe('mail queue and roles', () => {
  const smtp = new TestSmtp();

  beforeAll(() => smtp.start());
  afterAll(() => smtp.stop());

  it('queues in the request (ROLE=api sends nothing) and a ROLE=worker process delivers it', async () => {
    const api = await createTestApp({ env: { SMTP_URL: smtp.url, ROLE: 'api' } });
    let code: string;
    try {
      const a = await createAccount(api.app);
      const created = await request(api.app.getHttpServer())
        .post('/api/auth/v1/claims/')
        .set(a.auth)
        .send(claimBody());
      code = created.body.code;
      const res = await request(api.app.getHttpServer())
        .post(`/api/auth/v1/claims/${code}/notify-customer/`)
        .set(a.auth)
        .send({ email: 'queued@example.com' });
      expect(res.status).toBe(200);
      // No worker in this process: the job waits in Redis for a worker process.
      expect(api.app.get(QueueWorkers).running()).toEqual([]);
      const waiting = await bullQueue(api.app, MAIL_QUEUE).getJobs(['waiting']);
      expect(waiting).toHaveLength(1);
      expect(smtp.received).toHaveLength(0);
      expect(await mailRow(api, code)).toMatchObject({ status: 'queued', attempts: 0 });
    } finally {
      await api.close();
    }

    const worker = await createTestApp({
      env: { SMTP_URL: smtp.url, ROLE: 'worker' },
      keepState: true,
    });
    try {
      const message = await waitFor('the e-mail from the worker', () =>
        smtp.received.find((m) => m.to.includes('queued@example.com')),
      );
      expect((await simpleParser(message.raw)).subject).toContain(code);
      await waitFor('the sent status', async () =>
        (await mailRow(worker, code))?.status === 'sent' ? true : undefined,
      );
    } finally {
      await worker.close();
    }
  });
  it('sends a message whose job was lost with Redis: the sweeper re-enqueues it', async () => {
    const api = await createTestApp({ env: { SMTP_URL: smtp.url, ROLE: 'api' } });
    let code: string;
    try {
      const a = await createAccount(api.app);
      const created = await request(api.app.getHttpServer())
        .post('/api/auth/v1/claims/')
        .set(a.auth)
        .send(claimBody());
      code = created.body.code;
      await request(api.app.getHttpServer())
        .post(`/api/auth/v1/claims/${code}/notify-customer/`)
        .set(a.auth)
        .send({ email: 'lost@example.com' })
        .expect(200);
      // Redis restarted without persistence: every job is gone; the row says the mail is due.
      await flushRedisPrefix(api.config);
      await api.app
        .get(DataSource)
        .query(
          `UPDATE mail_messages SET next_attempt_at = now() - interval '2 minutes' WHERE ref = $1`,
          [code],
        );
      expect(await mailRow(api, code)).toMatchObject({ status: 'queued', attempts: 0 });
    } finally {
      await api.close();
    }

    const worker = await createTestApp({
      env: { SMTP_URL: smtp.url, ROLE: 'worker', MAINTENANCE_INTERVAL_MS: '200' },
      keepState: true,
    });
    try {
      const message = await waitFor('the e-mail re-enqueued by the sweeper', () =>
        smtp.received.find((m) => m.to.includes('lost@example.com')),
      );
      expect((await simpleParser(message.raw)).subject).toContain(code);
      const row = await waitFor('the sent status', async () => {
        const r = await mailRow(worker, code);
        return r?.status === 'sent' ? r : undefined;
      });
      expect(row.attempts).toBe(1);
    } finally {
      await worker.close();
    }
  });
});

describe('mail without SMTP_URL (development)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
    await rm(t.config.mailDir, { recursive: true, force: true });
  });
  afterAll(() => t.close());

  it('writes the message as an .eml file to MAIL_DIR', async () => {
    expect(t.config.smtpUrl).toBeNull();
    const a = await createAccount(t.app);
    const created = await request(t.app.getHttpServer())
      .post('/api/auth/v1/claims/')
      .set(a.auth)
      .send(claimBody());
    const code: string = created.body.code;
    const res = await request(t.app.getHttpServer())
      .post(`/api/auth/v1/claims/${code}/notify-customer/`)
      .set(a.auth)
      .send({ email: 'dev@example.com' });
    expect(res.status).toBe(200);
    const file = await waitFor('the .eml file', async () => {
      const names = await readdir(t.config.mailDir).catch(() => [] as string[]);
      return names.find((n) => n.endsWith('.eml'));
    });
    const mail = await simpleParser(await readFile(join(t.config.mailDir, file)));
    expect(mail.subject).toContain(code);
    expect(mail.to && !Array.isArray(mail.to) ? mail.to.text : '').toBe('dev@example.com');
    expect(mail.text).toContain('$1,200.75');
    expect(mail.html).toContain(code);
    const row = await waitFor('the sent status', async () => {
      const r = await mailRow(t, code);
      return r?.status === 'sent' ? r : undefined;
    });
    expect(row.delivered_to).toBe(join(t.config.mailDir, file));
  });
});
