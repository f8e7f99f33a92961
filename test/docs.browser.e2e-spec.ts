import type { Browser, Page } from 'playwright-core';
import { DataSource } from 'typeorm';
import { createTestApp, freePort, TestApp } from './support/app';
import { launchBrowser, screenshot } from './support/browser';
import { createAccount, TestAccount } from './support/factories';

/** docs/api.md, Errors: a Swagger UI explorer reads the operations and runs one with an API key. */
describe('Swagger UI at /docs (real browser)', () => {
  let t: TestApp;
  let a: TestAccount;
  let base: string;
  let browser: Browser;
  let page: Page;
  const problems: string[] = [];

  beforeAll(async () => {
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    // PUBLIC_URL is the document's server: "Try it out" calls it.
    t = await createTestApp({ listen: port, env: { PORT: String(port), PUBLIC_URL: base } });
    a = await createAccount(t.app);
    browser = await launchBrowser();
    page = await (await browser.newContext()).newPage();
    // A script error or a refused script (CSP) is what turned /docs into a blank page.
    page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
    page.on('console', (m) => {
      if (m.type() === 'error') problems.push(`console: ${m.text()}`);
    });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it('renders the title, the tags and the operations list', async () => {
    await page.goto(`${base}/docs`);
    await page.locator('.opblock').first().waitFor({ timeout: 30_000 });
    await expect(page.locator('.info .title').textContent()).resolves.toContain(
      'Vision Eligibility & Claims API',
    );
    const tags = await page.locator('.opblock-tag').allTextContents();
    expect(tags.join('\n')).toMatch(/Eligibility[\s\S]*Claims[\s\S]*Locations/);
    const paths = await page.locator('.opblock-summary-path').allTextContents();
    expect(paths.map((p) => p.replace(/\u200b/g, ''))).toEqual(
      expect.arrayContaining(['/api/auth/v1/locations/', '/api/auth/v1/eligibility/']),
    );
    expect(problems).toEqual([]);
    await screenshot(page, 'docs-operations');
  });

  it('authorizes with "Api <key>" and runs GET locations with "Try it out"', async () => {
    await page.click('.auth-wrapper .authorize');
    const modal = page.locator('.modal-ux');
    // The modal lists each security scheme in a form of its own: the JSON API's is "Api".
    const form = modal.locator('form').filter({ hasText: 'Api (apiKey)' });
    await form.locator('input[type=text], input[type=password]').fill(`Api ${a.apiKey}`);
    await form.locator('button.authorize').click();
    // Each form has a Close button; any one closes the modal.
    await modal.locator('button.btn-done').first().click();

    const operation = page.locator('#operations-Locations-LocationsController_list');
    await operation.locator('.opblock-summary').click();
    await operation.locator('.try-out__btn').click();
    await operation.locator('.execute').click();

    const response = operation.locator('.live-responses-table .response').first();
    await response.waitFor({ timeout: 30_000 });
    await expect(response.locator('.response-col_status').textContent()).resolves.toMatch(/^200/);
    const body = (await response.locator('.response-col_description pre').first().textContent())!;
    expect(JSON.parse(body)).toEqual({
      result: [expect.objectContaining({ code: a.locationCode, is_default: true })],
    });
    // The request shown to the explorer carried the key in the documented header.
    const curl = (await operation.locator('.curl-command').textContent())!;
    expect(curl).toContain(`Authorization: Api ${a.apiKey}`);
    expect(problems).toEqual([]);
    await screenshot(page, 'docs-try-it-out');
  }, 60_000);

  it('runs the eligibility POST example as it is, twice in a row (201 each time)', async () => {
    // The key is authorized by the previous test of this page.
    const operation = page.locator('#operations-Eligibility-EligibilityController_create');
    await operation.locator('.opblock-summary').click();
    await operation.locator('.try-out__btn').click();
    const uids: string[] = [];
    for (let run = 0; run < 2; run++) {
      await operation.locator('.execute').click();
      const response = operation.locator('.live-responses-table .response').first();
      await response.waitFor({ timeout: 30_000 });
      await expect(response.locator('.response-col_status').textContent()).resolves.toMatch(/^201/);
      const body = (await response.locator('.response-col_description pre').first().textContent())!;
      uids.push((JSON.parse(body) as { request_uid: string }).request_uid);
      await operation.locator('.btn-clear').click();
    }
    expect(new Set(uids).size).toBe(2);
    // The example asks the sandbox alone: no person's task is opened by trying the API.
    const tasks = await t.app
      .get(DataSource)
      .query('SELECT count(*)::int AS n FROM verification_tasks WHERE account_id = $1', [
        a.accountId,
      ]);
    expect(tasks[0].n).toBe(0);
    expect(problems).toEqual([]);
  }, 60_000);

  it('runs the other eligibility POST example as it is on this account (201)', async () => {
    // Every documented example runs on an account as it comes (test/openapi.pg.e2e-spec.ts
    // runs them all over HTTP); here the one Swagger UI offers second, chosen in its list.
    const operation = page.locator('#operations-Eligibility-EligibilityController_create');
    await operation
      .locator('.opblock-section-request-body select.examples-select-element')
      .selectOption({ label: 'Universal Search with your own request_uid and location' });
    await expect(operation.locator('.body-param textarea').inputValue()).resolves.toContain(
      'visit-2026-11-21-0042',
    );
    await operation.locator('.execute').click();
    const response = operation.locator('.live-responses-table .response').first();
    await response.waitFor({ timeout: 30_000 });
    await expect(response.locator('.response-col_status').textContent()).resolves.toMatch(/^201/);
    const body = (await response.locator('.response-col_description pre').first().textContent())!;
    expect(JSON.parse(body)).toEqual({ request_uid: 'visit-2026-11-21-0042' });
    expect(problems).toEqual([]);
  }, 60_000);
});
