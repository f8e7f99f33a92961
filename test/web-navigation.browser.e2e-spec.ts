import type { Browser, Page } from 'playwright-core';
import { createTestApp, freePort, TestApp } from './support/app';
import { launchBrowser, screenshot } from './support/browser';
import { createAccount, TestAccount } from './support/factories';

/** The web application's top navigation and page chrome at a laptop's 1366 × 768 (real browser). */
describe('the navigation of the web application (real browser)', () => {
  let t: TestApp;
  let a: TestAccount;
  let base: string;
  let browser: Browser;
  let page: Page;
  const problems: string[] = [];

  beforeAll(async () => {
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    t = await createTestApp({ listen: port, env: { PORT: String(port), PUBLIC_URL: base } });
    a = await createAccount(t.app);
    browser = await launchBrowser();
    const context = await browser.newContext({ viewport: { width: 1366, height: 768 } });
    page = await context.newPage();
    page.on('console', (m) => {
      if (m.type() === 'error') problems.push(`console: ${m.text()}`);
    });
    page.on('response', (r) => {
      if (r.status() >= 400) problems.push(`${r.status()} ${r.url()}`);
    });
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

  it('fits every link of an admin on one line at 1366 px', async () => {
    await page.goto(`${base}/app/`);
    const boxes = await page
      .locator('header.top .brand, header.top nav > a, header.top summary, header.top .who > *')
      .evaluateAll((els) =>
        els.map((el) => {
          const r = el.getBoundingClientRect();
          return { text: (el.textContent ?? '').trim(), top: r.top, bottom: r.bottom };
        }),
      );
    expect(boxes.length).toBeGreaterThanOrEqual(12);
    const middles = boxes.map((b) => (b.top + b.bottom) / 2);
    expect(Math.max(...middles) - Math.min(...middles)).toBeLessThan(6);
    // One line of links: the bar is no taller than a line and its padding.
    const bar = (await page.locator('header.top').boundingBox())!;
    expect(bar.height).toBeLessThan(60);
    await screenshot(page, 'navigation-1366');
  });

  it('reaches every admin page from the Admin menu', async () => {
    await page.click('header.top summary');
    await page.click('header.top .menu-items a[href="/app/users/"]');
    await page.waitForURL(`${base}/app/users/`);
    await expect(page.locator('header.top summary.active').textContent()).resolves.toBe('Admin');
    const hrefs = await page
      .locator('header.top .menu-items a')
      .evaluateAll((els) => els.map((el) => el.getAttribute('href')));
    expect(hrefs).toEqual([
      '/app/api-keys/',
      '/app/webhooks/',
      '/app/insurers/',
      '/app/passwords/',
      '/app/locations/',
      '/app/users/',
      '/app/settings/',
      '/app/audit/',
    ]);
  });

  it('loads a page with no 404 and no console error (the favicon is served)', async () => {
    problems.length = 0;
    await page.goto(`${base}/app/patients/`, { waitUntil: 'networkidle' });
    await page.goto(`${base}/app/claims/`, { waitUntil: 'networkidle' });
    expect(problems).toEqual([]);
    const icon = await page.locator('link[rel=icon]').getAttribute('href');
    const res = await page.request.get(`${base}${icon}`);
    expect([res.status(), res.headers()['content-type']]).toEqual([
      200,
      expect.stringContaining('image/svg+xml'),
    ]);
  });
});
