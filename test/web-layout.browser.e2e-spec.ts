import type { Browser, Page } from 'playwright-core';
import { createTestApp, freePort, TestApp } from './support/app';
import { launchBrowser, screenshot } from './support/browser';
import { DEMO, patient, startSearch, waitForResult } from './support/eligibility';
import { createAccount, TestAccount } from './support/factories';

/**
 * What a front desk reads on a laptop (1366 × 768): the benefit table fits its card, and pages
 * name insurers, benefits and times in words, never as raw codes or ISO timestamps.
 */
describe('web pages on a 1366 px laptop screen (real browser)', () => {
  let t: TestApp;
  let a: TestAccount;
  let base: string;
  let browser: Browser;
  let page: Page;
  let uid: string;

  beforeAll(async () => {
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    t = await createTestApp({ listen: port, env: { PORT: String(port), PUBLIC_URL: base } });
    a = await createAccount(t.app);
    uid = await startSearch(t.app, a.auth, {
      insurer_code_list: [DEMO, 'insurer:vision:spectera'],
      patient: patient(),
    });
    await waitForResult(t.app, a.auth, uid);
    browser = await launchBrowser();
    page = await (await browser.newContext({ viewport: { width: 1366, height: 768 } })).newPage();
    await page.goto(`${base}/app/login`);
    await page.fill('#email', a.email);
    await page.fill('#password', a.password);
    await page.click('button[type=submit]');
    await page.waitForURL(`${base}/app/`);
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it('keeps the benefit table inside its card, the page without a horizontal scroll', async () => {
    await page.goto(`${base}/app/eligibility/${uid}`);
    const table = page.locator('table.benefits').first();
    await table.waitFor();
    const fits = await table.evaluate((el) => {
      const card = el.closest('.card') ?? el.parentElement!;
      const t = el.getBoundingClientRect();
      const c = card.getBoundingClientRect();
      return {
        table: Math.round(t.right),
        card: Math.round(c.right),
        page: el.ownerDocument.documentElement.scrollWidth,
        viewport: el.ownerDocument.documentElement.clientWidth,
      };
    });
    await screenshot(page, 'benefit-table-1366');
    expect(fits.table).toBeLessThanOrEqual(fits.card);
    expect(fits.page).toBeLessThanOrEqual(fits.viewport);
  });

  it('names insurers and benefits in words and shows no ISO timestamp', async () => {
    for (const path of [`/app/eligibility/${uid}`, '/app/', '/app/insurers/']) {
      await page.goto(`${base}${path}`);
      const text = (await page.locator('main').innerText()).replace(/\s+/g, ' ');
      expect({ path, codes: text.match(/insurer:[a-z_]+:[a-z_]+/g) }).toEqual({
        path,
        codes: null,
      });
      expect({ path, benefit: text.match(/\b(materials|exam)\.[a-z_.]+/g) }).toEqual({
        path,
        benefit: null,
      });
      expect({ path, iso: text.match(/\d{4}-\d\d-\d\dT\d\d:\d\d/g) }).toEqual({ path, iso: null });
    }
  });
});
