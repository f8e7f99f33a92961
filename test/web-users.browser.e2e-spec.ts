import { readFileSync } from 'node:fs';
import { simpleParser } from 'mailparser';
import type { Browser, Page } from 'playwright-core';
import { DataSource } from 'typeorm';
import { createTestApp, freePort, TestApp } from './support/app';
import { launchBrowser, screenshot } from './support/browser';
import { createAccount, TestAccount } from './support/factories';
import { waitUntil } from './support/queues';

/**
 * SECURITY.md in a real browser: an admin invites a staff user, who sets a password from the
 * mailed link, cannot open the API keys page, changes the password and is thereby signed out in
 * another browser.
 */
describe('web users (real browser)', () => {
  let t: TestApp;
  let a: TestAccount;
  let base: string;
  let browser: Browser;

  beforeAll(async () => {
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    t = await createTestApp({ listen: port, env: { PORT: String(port), PUBLIC_URL: base } });
    a = await createAccount(t.app);
    browser = await launchBrowser();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  async function signIn(p: Page, email: string, password: string) {
    await p.goto(`${base}/app/login`);
    await p.fill('#email', email);
    await p.fill('#password', password);
    await p.click('main button[type=submit]');
    await p.waitForURL(`${base}/app/`);
  }

  it('invites a staff user who sets a password, is kept from API keys, and changes the password', async () => {
    const admin = await (await browser.newContext()).newPage();
    await signIn(admin, a.email, a.password);
    // The admin pages sit in the navigation's Admin menu.
    await admin.click('header.top summary');
    await admin.click('header.top a[href="/app/users/"]');
    const email = 'optician@practice.test';
    await admin.fill('#email', email);
    await admin.selectOption('#role', 'staff');
    await admin.click('form[action="/app/users/"] button[type=submit]');
    await expect(admin.locator('.flash.ok').textContent()).resolves.toContain(
      `Invitation sent to ${email}.`,
    );
    await expect(admin.locator(`tr[data-user="${email}"]`).textContent()).resolves.toContain(
      'invited',
    );
    await screenshot(admin, 'users-invited');

    // The invitation as delivered: the .eml file the mail worker wrote.
    const file = await waitUntil('the invitation e-mail', async () => {
      const rows: { status: string; delivered_to: string | null }[] = await t.app
        .get(DataSource)
        .query(
          `SELECT status, delivered_to FROM mail_messages WHERE to_address = $1 AND kind = 'user_invitation'`,
          [email],
        );
      return rows[0]?.status === 'sent' ? rows[0].delivered_to! : undefined;
    });
    const mail = await simpleParser(readFileSync(file));
    expect(mail.to && 'text' in mail.to ? mail.to.text : '').toContain(email);
    const link = /(http\S+\/app\/login\/invitation\?token=[0-9a-f]{64})/.exec(mail.text ?? '')![1];
    expect(link.startsWith(base)).toBe(true);

    const staffContext = await browser.newContext();
    const staff = await staffContext.newPage();
    await staff.goto(link);
    await staff.fill('#password', 'first staff password');
    await staff.fill('#password_confirmation', 'first staff password');
    await staff.click('main button[type=submit]');
    await staff.waitForURL(`${base}/app/login`);
    await expect(staff.locator('.flash.ok').textContent()).resolves.toContain(
      'Your password is set.',
    );
    await signIn(staff, email, 'first staff password');
    // No link to the admin pages, and the page itself refuses.
    await expect(staff.locator('header.top a[href="/app/api-keys/"]').count()).resolves.toBe(0);
    await expect(staff.locator('header.top a[href="/app/patients/"]').count()).resolves.toBe(1);
    const refused = await staff.goto(`${base}/app/api-keys/`);
    expect(refused?.status()).toBe(403);
    await expect(staff.locator('main').textContent()).resolves.toContain(
      'Only an admin of the account can open this page.',
    );
    await screenshot(staff, 'users-staff-refused');

    // Signed in as the same person in a second browser.
    const elsewhere = await (await browser.newContext()).newPage();
    await signIn(elsewhere, email, 'first staff password');

    await staff.goto(`${base}/app/`);
    await staff.click('#your-account');
    await expect(staff.locator('#sessions tbody tr').count()).resolves.toBe(2);
    await staff.fill('#current_password', 'first staff password');
    await staff.fill('#new_password', 'second staff password');
    await staff.fill('#new_password_confirmation', 'second staff password');
    await staff.click('form[action="/app/account/password"] button[type=submit]');
    await expect(staff.locator('.flash.ok').textContent()).resolves.toContain(
      'Your other sessions have been signed out.',
    );
    await expect(staff.locator('#sessions tbody tr').count()).resolves.toBe(1);
    await screenshot(staff, 'users-password-changed');

    await elsewhere.goto(`${base}/app/patients/`);
    expect(elsewhere.url()).toBe(`${base}/app/login?next=%2Fapp%2Fpatients%2F`);
    await signIn(elsewhere, email, 'second staff password');
    await staff.goto(`${base}/app/patients/`);
    await expect(staff.locator('h1').textContent()).resolves.toBe('Patients');
  }, 120_000);
});
