import type { Browser, Page } from 'playwright-core';
import { TOTP } from 'otpauth';
import { DataSource } from 'typeorm';
import { hashPassword } from '@/platform/kernel/passwords';
import { TOTP_ISSUER } from '@/modules/accounts/domain/two-factor.service';
import { qrDataUrl } from '@/modules/web/pages/web-two-factor.controller';
import { createTestApp, freePort, TestApp } from './support/app';
import { launchBrowser, screenshot } from './support/browser';
import { createAccount, TestAccount } from './support/factories';
import { TestAuthenticator } from './support/totp';

/** Two-factor sign-in in a real browser: enrolment, the code step, recovery codes, the requirement. */
describe('web two-factor sign-in (real browser)', () => {
  let t: TestApp;
  let a: TestAccount;
  let base: string;
  let browser: Browser;
  let page: Page;
  let authenticator: TestAuthenticator;
  let recoveryCodes: string[];

  beforeAll(async () => {
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    t = await createTestApp({ listen: port, env: { PORT: String(port), PUBLIC_URL: base } });
    a = await createAccount(t.app);
    browser = await launchBrowser();
    page = await (await browser.newContext()).newPage();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  async function signInWithPassword(p: Page, email: string, password: string) {
    await p.goto(`${base}/app/login`);
    await p.fill('#email', email);
    await p.fill('#password', password);
    await p.click('button[type=submit]');
  }

  async function enterCode(p: Page, code: string) {
    await p.fill('#code', code);
    await p.click('main form button[type=submit]');
  }

  async function signOut(p: Page) {
    await p.click('header.top .who button[type=submit]');
    await p.waitForURL(`${base}/app/login`);
  }

  /** Enrols the signed-in user from the enrolment page; the authenticator and recovery codes. */
  async function enrolOnPage(p: Page, email: string, shot: string) {
    const secret = (await p.locator('#totp-secret').textContent())!.trim();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    // The QR code holds the otpauth URI of the secret shown in text.
    const uri = new TOTP({ issuer: TOTP_ISSUER, label: email, secret }).toString();
    await expect(p.locator('#totp-qr').getAttribute('src')).resolves.toBe(await qrDataUrl(uri));
    await screenshot(p, shot);
    const app = new TestAuthenticator(secret);
    await enterCode(p, await app.code());
    await expect(p.locator('h1').textContent()).resolves.toBe('Two-factor sign-in is on');
    const codes = (await p.locator('#recovery-codes li').allTextContents()).map((c) => c.trim());
    expect(codes).toHaveLength(10);
    return { app, codes };
  }

  it('enrols with the QR code page, refusing a wrong confirmation code', async () => {
    await signInWithPassword(page, a.email, a.password);
    await page.waitForURL(`${base}/app/`);
    await page.click('header.top a[href="/app/two-factor/"]');
    await expect(page.locator('#two-factor-status').textContent()).resolves.toContain('off');
    await page.click('a[href="/app/two-factor/enrol"]');
    const secret = (await page.locator('#totp-secret').textContent())!.trim();
    await enterCode(page, new TestAuthenticator(secret).wrongCode());
    await expect(page.locator('.field-error').textContent()).resolves.toContain(
      'The code is not right.',
    );
    // Still the same secret after a refused code: a QR code already scanned stays good.
    await expect(page.locator('#totp-secret').textContent()).resolves.toContain(secret);

    const enrolled = await enrolOnPage(page, a.email, 'two-factor-enrol');
    authenticator = enrolled.app;
    recoveryCodes = enrolled.codes;
    await screenshot(page, 'two-factor-recovery-codes');
    await page.click('a[href="/app/"]');
    await page.goto(`${base}/app/two-factor/`);
    await expect(page.locator('#two-factor-status').textContent()).resolves.toContain(
      '10 unused recovery codes left',
    );
    // Shown once: not on the settings page.
    expect(await page.content()).not.toContain(recoveryCodes[0]);
  });

  it('signs out, then signs in with the password and the code, refusing a wrong code', async () => {
    await signOut(page);
    await signInWithPassword(page, a.email, a.password);
    await page.waitForURL(`${base}/app/login/code`);
    await enterCode(page, authenticator.wrongCode());
    await expect(page.locator('.field-error').textContent()).resolves.toContain(
      'The code is not right.',
    );
    expect(page.url()).toBe(`${base}/app/login/code`);
    await screenshot(page, 'two-factor-code-refused');
    await enterCode(page, await authenticator.code());
    await page.waitForURL(`${base}/app/`);
    await expect(page.locator('header.top .who').textContent()).resolves.toContain(a.email);
  });

  it('signs in with a recovery code once; the same code is refused the second time', async () => {
    await signOut(page);
    await signInWithPassword(page, a.email, a.password);
    await page.waitForURL(`${base}/app/login/code`);
    await enterCode(page, recoveryCodes[0]);
    await page.waitForURL(`${base}/app/`);
    await expect(page.locator('.flash').textContent()).resolves.toContain(
      '9 unused recovery codes left',
    );
    await screenshot(page, 'two-factor-recovery-sign-in');

    await signOut(page);
    await signInWithPassword(page, a.email, a.password);
    await page.waitForURL(`${base}/app/login/code`);
    await enterCode(page, recoveryCodes[0]);
    await expect(page.locator('.field-error').textContent()).resolves.toContain(
      'The code is not right.',
    );
    await enterCode(page, recoveryCodes[1]);
    await page.waitForURL(`${base}/app/`);
  });

  it('the account-wide requirement sends a user without two-factor to enrolment, and only there', async () => {
    await page.goto(`${base}/app/two-factor/`);
    await page.check('input[name=require_two_factor]');
    await page.click('form[action="/app/two-factor/requirement"] button[type=submit]');
    await expect(page.locator('.flash').textContent()).resolves.toContain('required of every user');
    await screenshot(page, 'two-factor-settings');

    const colleague = { email: 'colleague@practice.test', password: 'colleague-password' };
    await t.app
      .get(DataSource)
      .query('INSERT INTO users (account_id, email, password_hash) VALUES ($1, $2, $3)', [
        a.accountId,
        colleague.email,
        await hashPassword(colleague.password),
      ]);
    const other = await (await browser.newContext()).newPage();
    await signInWithPassword(other, colleague.email, colleague.password);
    await other.waitForURL(`${base}/app/two-factor/enrol`);
    await expect(other.locator('.flash.error').first().textContent()).resolves.toContain(
      'Your account requires two-factor sign-in',
    );
    // Nothing else opens until enrolled.
    for (const path of ['/app/patients/', '/app/api-keys/', '/app/two-factor/']) {
      await other.goto(`${base}${path}`);
      expect(other.url()).toBe(`${base}/app/two-factor/enrol`);
    }
    await enrolOnPage(other, colleague.email, 'two-factor-required-enrol');
    await other.click('a[href="/app/"]');
    await other.goto(`${base}/app/patients/`);
    await expect(other.locator('h1').textContent()).resolves.toBe('Patients');
    await other.context().close();
  });
});
