import { randomBytes } from 'node:crypto';
import { readdir, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { ConfigError, loadConfig } from '@/platform/config/env';
import { MailTransport } from '@/modules/mail/domain/mail.transport';
import { demoBanner } from '@/serve';
import { createTestApp, TestApp } from './support/app';
import { createAccount, TestAccount } from './support/factories';

const PRODUCTION = {
  NODE_ENV: 'production',
  APP_ENCRYPTION_KEY: 'ab'.repeat(32),
  SESSION_SECRET: 'a-production-session-secret',
  PUBLIC_URL: 'https://vision.example.test',
  // Production hashes at OWASP's cost whatever the test suite sets (PASSWORD_HASH_COST=12): N=2^14, p=5.
  PASSWORD_HASH_COST: '14',
};

/**
 * Issue 27: production accepted an http PUBLIC_URL (no Secure cookie), http webhooks without a
 * secret and SMTP without TLS; API answers could be cached; claim e-mails sat in world-readable
 * files. SECURITY.md.
 */
describe('production refusals (SECURITY.md)', () => {
  it('refuses an http PUBLIC_URL in production unless ALLOW_INSECURE_HTTP=true', () => {
    expect(() => loadConfig({ ...PRODUCTION, PUBLIC_URL: 'http://vision.example.test' })).toThrow(
      /PUBLIC_URL: must be https:\/\/ when NODE_ENV=production/,
    );
    expect(
      loadConfig({
        ...PRODUCTION,
        PUBLIC_URL: 'http://vision.example.test',
        ALLOW_INSECURE_HTTP: 'true',
      }).publicUrl,
    ).toBe('http://vision.example.test');
    expect(loadConfig({ PUBLIC_URL: 'http://localhost:3000' }).publicUrl).toBe(
      'http://localhost:3000',
    );
  });

  it('refuses SMTP without TLS in production', () => {
    expect(() => loadConfig({ ...PRODUCTION, SMTP_URL: 'smtp://mail.example.test:587' })).toThrow(
      /SMTP_URL: must use TLS/,
    );
    expect(loadConfig({ ...PRODUCTION, SMTP_URL: 'smtps://mail.example.test' }).smtpUrl).toBe(
      'smtps://mail.example.test',
    );
    expect(
      loadConfig({ ...PRODUCTION, SMTP_URL: 'smtp://mail.example.test:587?requireTLS=true' })
        .smtpUrl,
    ).toBe('smtp://mail.example.test:587?requireTLS=true');
    expect(loadConfig({ SMTP_URL: 'smtp://127.0.0.1:1025' }).smtpUrl).toBe('smtp://127.0.0.1:1025');
  });

  it('refuses DATABASE_URL=embedded in production, with one line (the superuser would serve)', () => {
    let problems: string[] = [];
    try {
      loadConfig({ ...PRODUCTION, DATABASE_URL: ' embedded ' });
    } catch (e) {
      problems = (e as ConfigError).problems;
    }
    expect(problems).toEqual([
      expect.stringMatching(/^DATABASE_URL: "embedded" is refused when NODE_ENV=production/),
    ]);
    expect(loadConfig({ DATABASE_URL: 'embedded' }).embeddedDatabase).toBe('asked');
  });

  it('never prints the demo credentials in production', () => {
    const demo = {
      apiKey: 'vk_demo-key-material',
      email: 'demo@vision.localhost',
      password: 'demo-password-1234',
      locationCode: 'LOC12345678',
    };
    const production = demoBanner(demo, { isProduction: true, publicUrl: PRODUCTION.PUBLIC_URL });
    expect(production).toContain(demo.email);
    expect(production).not.toContain(demo.password);
    expect(production).not.toContain(demo.apiKey);
    const development = demoBanner(demo, { isProduction: false, publicUrl: 'http://localhost' });
    expect(development).toContain(demo.password);
  });

  describe('a production app', () => {
    let t: TestApp;
    let a: TestAccount;
    const mailDir = join(tmpdir(), `vision-mail-${randomBytes(4).toString('hex')}`);

    beforeAll(async () => {
      t = await createTestApp({
        env: { ...PRODUCTION, MAIL_DIR: mailDir, WEBHOOK_ALLOW_PRIVATE: 'true' },
      });
      a = await createAccount(t.app);
    });
    afterAll(() => t.close());

    const http = () => request(t.app.getHttpServer());

    it('refuses http webhook URLs and signs every webhook with a generated secret', async () => {
      const plain = await http()
        .post('/api/auth/v1/webhooks/')
        .set(a.auth)
        .send({ url: 'http://127.0.0.1:9/hook' });
      expect(plain.status).toBe(400);
      expect(plain.body).toEqual({
        errors: { url: { $: ['Use an https URL: webhooks are sent over TLS only.'] } },
      });
      const created = await http()
        .post('/api/auth/v1/webhooks/')
        .set(a.auth)
        .send({ url: 'https://127.0.0.1:9/hook' });
      expect(created.status).toBe(201);
      expect(created.body.secret).toMatch(/^whsec_/);
      const moved = await http()
        .patch(`/api/auth/v1/webhooks/${created.body.id}/`)
        .set(a.auth)
        .send({ url: 'http://127.0.0.1:9/other' });
      expect(moved.status).toBe(400);
      const unsigned = await http()
        .patch(`/api/auth/v1/webhooks/${created.body.id}/`)
        .set(a.auth)
        .send({ secret: null });
      expect(unsigned.status).toBe(400);
      expect(Object.keys(unsigned.body.errors)).toEqual(['secret']);
    });

    it('refuses a secret of its own shorter than 32 characters, on create and update', async () => {
      const short = 'x'.repeat(31);
      const error = {
        errors: {
          secret: {
            $: ['Use at least 32 characters in production, or let the service generate one.'],
          },
        },
      };
      const create = await http()
        .post('/api/auth/v1/webhooks/')
        .set(a.auth)
        .send({ url: 'https://127.0.0.1:9/hook', secret: short });
      expect(create.status).toBe(400);
      expect(create.body).toEqual(error);
      const created = await http()
        .post('/api/auth/v1/webhooks/')
        .set(a.auth)
        .send({ url: 'https://127.0.0.1:9/hook', secret: 'y'.repeat(32) });
      expect(created.status).toBe(201);
      const update = await http()
        .patch(`/api/auth/v1/webhooks/${created.body.id}/`)
        .set(a.auth)
        .send({ secret: '8-chars!' });
      expect(update.status).toBe(400);
      expect(update.body).toEqual(error);
    });

    it('answers /api with Cache-Control: no-store', async () => {
      const res = await http().get('/api/auth/v1/patients/').set(a.auth);
      expect(res.status).toBe(200);
      expect(res.headers['cache-control']).toBe('no-store');
      const refused = await http().get('/api/auth/v1/patients/');
      expect(refused.headers['cache-control']).toBe('no-store');
    });

    it('writes .eml files readable by the service user only (0600)', async () => {
      const path = await t.app.get(MailTransport).send({
        to: 'patient@example.test',
        subject: 'Your claim',
        text: 'Ann Lee',
        html: '<p>Ann Lee</p>',
        messageId: `<${randomBytes(6).toString('hex')}@vision.test>`,
      });
      expect((await readdir(mailDir)).length).toBe(1);
      expect((await stat(path)).mode & 0o777).toBe(0o600);
      expect((await stat(mailDir)).mode & 0o777).toBe(0o700);
    });
  });
});
