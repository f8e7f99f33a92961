import type { Browser, Page } from 'playwright-core';
import request from 'supertest';
import { createTestApp, freePort, TestApp } from './support/app';
import { launchBrowser, screenshot, vendorPage } from './support/browser';
import { patient, startSearch, waitForResult } from './support/eligibility';
import { createAccount, TestAccount } from './support/factories';

/**
 * docs/api.md, The counter, in Chromium: the staff change the order and the totals follow (with
 * JavaScript), opened from the check page's Counter button, and inside the practice system's
 * frame from an embedded `quote` link.
 */
describe('the Counter in a real browser', () => {
  let t: TestApp;
  let a: TestAccount;
  let base: string;
  let browser: Browser;
  let page: Page;
  let uid: string;
  let personId: number;
  let vendor: Awaited<ReturnType<typeof vendorPage>>;

  beforeAll(async () => {
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    t = await createTestApp({ listen: port, env: { PORT: String(port), PUBLIC_URL: base } });
    vendor = await vendorPage();
    a = await createAccount(t.app, { iframeEnabled: true, frameAncestors: [vendor.origin] });
    uid = await startSearch(t.app, a.auth, { patient: patient({ first_name: 'Dana' }) });
    personId = (await waitForResult(t.app, a.auth, uid)).results[0].persons[0].id;
    browser = await launchBrowser();
    page = await (await browser.newContext()).newPage();
    await page.goto(`${base}/app/login`);
    await page.fill('#email', a.email);
    await page.fill('#password', a.password);
    await page.click('button[type=submit]');
    await page.waitForURL(`${base}/app/`);
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await vendor?.close();
    await t?.close();
  });

  it('totals follow each change of the order', async () => {
    await page.goto(`${base}/app/eligibility/${uid}`);
    await page.click(`a.counter-link[href$="/persons/${personId}/counter"]`);
    await page.waitForURL(/\/counter$/);
    await expect(page.locator('h1').textContent()).resolves.toBe('Counter');
    await page.selectOption('#lens_type', 'progressive_premium');
    await page.selectOption('#lens_tier', '2');
    await page.fill('#lens_retail', '320');
    await page.press('#lens_retail', 'Tab');
    // No button pressed: the change prices the order.
    await page.locator('#total-pays').waitFor();
    await expect(page.locator('#total-pays').textContent()).resolves.toBe('$110.00');
    await page.check('#opt_anti_reflective_standard');
    await page.fill('#opt_anti_reflective_standard_retail', '95');
    await page.press('#opt_anti_reflective_standard_retail', 'Tab');
    await page.locator('#total-pays', { hasText: '$151.00' }).waitFor({ timeout: 15_000 });
    // What was chosen stays chosen on the priced page.
    await expect(page.inputValue('#lens_type')).resolves.toBe('progressive_premium');
    await expect(page.isChecked('#opt_anti_reflective_standard')).resolves.toBe(true);
  });

  it("opens inside the practice system's frame at `quote`, prices there and prints", async () => {
    const minted = await request(t.app.getHttpServer())
      .post('/api/auth/v1/iframe-session/')
      .set(a.auth)
      .send({ entry_point: 'quote', request_uid: uid, person_id: personId })
      .expect(200);
    const context = await browser.newContext({ viewport: { width: 1366, height: 1000 } });
    const framed = await context.newPage();
    await framed.goto(`${vendor.origin}/?src=${encodeURIComponent(minted.body.iframe_url)}`);
    await framed
      .frameLocator('#vision')
      .locator('h1', { hasText: 'Counter' })
      .waitFor({ timeout: 30_000 });
    const frame = (await (await framed.locator('#vision').elementHandle()).contentFrame())!;
    expect(frame.url()).toBe(`${base}/app/eligibility/${uid}/persons/${personId}/counter`);
    expect(await frame.locator('header.top').count()).toBe(0);
    await frame.selectOption('#lens_type', 'progressive_premium');
    await frame.selectOption('#lens_tier', '2');
    await frame.fill('#lens_retail', '320');
    await frame.press('#lens_retail', 'Tab');
    await frame.locator('#total-pays', { hasText: '$110.00' }).waitFor({ timeout: 15_000 });
    await screenshot(framed, 'counter-embedded');
    // Print opens the quote's PDF (a new tab) in the frame's session.
    const printed = context.waitForEvent('response', {
      predicate: (r) => /\/app\/quotes\/[0-9a-f-]{36}$/.test(r.url()),
      timeout: 30_000,
    });
    await frame.click('#print');
    const pdf = await printed;
    expect(pdf.status()).toBe(200);
    expect(pdf.headers()['content-type']).toBe('application/pdf');
    await context.close();
  }, 90_000);
});
