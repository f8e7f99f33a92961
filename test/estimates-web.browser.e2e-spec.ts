import type { Browser, BrowserContext, Page } from 'playwright-core';
import request from 'supertest';
import { label as benefitLabel } from '@/lib/benefits/benefit-table';
import { createTestApp, freePort, TestApp } from './support/app';
import { launchBrowser, screenshot } from './support/browser';
import { patient, startSearch, waitForResult } from './support/eligibility';
import { createAccount, TestAccount } from './support/factories';
import { postForm, signIn } from './support/web-sign-in';

/** "$45.00" as the page prints a four-decimal amount. */
const dollars = (amount: string) => `$${amount.slice(0, -2)}`;

describe('estimate reimbursement in the web application (real browser, no JavaScript)', () => {
  let t: TestApp;
  let a: TestAccount;
  let base: string;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let uid: string;
  let personId: number;

  beforeAll(async () => {
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    t = await createTestApp({ listen: port, env: { PORT: String(port), PUBLIC_URL: base } });
    a = await createAccount(t.app);
    uid = await startSearch(t.app, a.auth, { patient: patient({ first_name: 'Elena' }) });
    personId = (await waitForResult(t.app, a.auth, uid)).results[0].persons[0].id;
    browser = await launchBrowser();
    // The form must work as plain HTML: no script runs in this browser.
    context = await browser.newContext({ javaScriptEnabled: false });
    page = await context.newPage();
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

  it('opens the form from the benefit table, adds a line, and shows the API’s estimate as a table', async () => {
    await page.goto(`${base}/app/eligibility/${uid}`);
    await page.click(`a.estimate-link[href$="/persons/${personId}/estimate"]`);
    await expect(page.locator('h1').textContent()).resolves.toBe('Estimate reimbursement');
    await expect(page.locator('#estimate-form tbody tr').count()).resolves.toBe(4);
    // Lines are counted from 1 for people (the field names keep the API's 0-based index).
    await expect(
      page.locator('#estimate-form tbody tr td:first-child').allTextContents(),
    ).resolves.toEqual(['1', '2', '3', '4']);

    await page.selectOption('#common_0', 'exam');
    await page.fill('#cost_0', '120');
    await page.fill('#codes_1', 'V2020');
    await page.fill('#cost_1', '180.00');
    await page.selectOption('#common_2', 'single_vision');
    await page.fill('#cost_2', '55.50');
    await page.fill('#quantity_2', '2');
    await page.selectOption('#common_3', 'anti_reflective');
    await page.fill('#cost_3', '60');
    await page.click('button[value=add]');
    // Posted back with one more line and every value kept (`count` does not wait for the page).
    await page.locator('#estimate-form tbody tr').nth(4).waitFor();
    await expect(page.locator('#estimate-form tbody tr').count()).resolves.toBe(5);
    await expect(page.inputValue('#cost_2')).resolves.toBe('55.50');
    await expect(page.inputValue('#common_0')).resolves.toBe('exam');
    await page.fill('#codes_4', '92015');
    await page.fill('#cost_4', '40');
    await page.click('button[value=estimate]');
    await page.waitForSelector('#estimate');
    await screenshot(page, 'estimate');

    const api = await request(t.app.getHttpServer())
      .post('/api/auth/v1/estimates/')
      .set(a.auth)
      .send({
        request_uid: uid,
        person_id: personId,
        network: 'oon',
        services: [
          { codes: ['92014'], cost: '120' },
          { codes: ['V2020'], cost: '180.00' },
          { codes: ['V2100'], cost: '55.50', quantity: 2 },
          { codes: ['V2750'], cost: '60' },
          { codes: ['92015'], cost: '40' },
        ],
      });
    expect(api.status).toBe(200);
    expect(api.body.total_cost).toBe('511.0000');

    await expect(page.locator('#estimate-total').textContent()).resolves.toBe('$511.00');
    await expect(page.locator('#estimate-reimbursement').textContent()).resolves.toBe(
      dollars(api.body.estimated_reimbursement),
    );
    await expect(page.locator('#estimate-patient').textContent()).resolves.toBe(
      dollars(api.body.patient_responsibility),
    );
    const rows = page.locator('table.estimate-lines tbody tr');
    await expect(rows.count()).resolves.toBe(5);
    for (const line of api.body.lines) {
      const cells = (await rows.nth(line.index).locator('td').allTextContents()).map((c) =>
        c.trim(),
      );
      expect(cells[0]).toBe(String(line.index + 1));
      // The benefit in words; its code in the cell's title.
      expect(cells.slice(2, 6)).toEqual([
        line.benefit_code === null ? '—' : benefitLabel(line.benefit_code),
        dollars(line.charge),
        line.cap === null ? '—' : dollars(line.cap),
        dollars(line.capped),
      ]);
      if (line.benefit_code !== null)
        await expect(rows.nth(line.index).locator('td').nth(2).getAttribute('title')).resolves.toBe(
          line.benefit_code,
        );
      const notes = await rows.nth(line.index).locator('ul.notes li').allTextContents();
      // The API's notes in words: no benefit code, lines counted from 1.
      expect(notes).toHaveLength(line.notes.length);
      for (const [i, note] of notes.entries()) {
        expect(note).not.toMatch(/\b[a-z_]+\.[a-z_.]+\b/);
        const apiLines = /\bline ((?:\d+, )*\d+)/.exec(line.notes[i])?.[1];
        if (apiLines)
          expect(note).toContain(
            `line ${apiLines
              .split(', ')
              .map((n) => Number(n) + 1)
              .join(', ')}`,
          );
      }
    }
    expect(api.body.lines[3].benefit_code).toBe(
      'materials.spectacle_lenses.single_vision.options.anti_reflective',
    );
    const groups = await page
      .locator('table.estimate-groups tbody tr')
      .evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-group')));
    expect(groups).toEqual(api.body.groups.map((g: any) => g.benefit_code));
  });

  it('shows field errors beside their line and keeps what was typed', async () => {
    await page.goto(`${base}/app/eligibility/${uid}/persons/${personId}/estimate`);
    await page.selectOption('#common_1', 'frame');
    await page.fill('#cost_1', 'a lot');
    await page.selectOption('#network', 'inn');
    await page.click('button[value=estimate]');
    await expect(page.locator('tr[data-row="1"] .field-error').textContent()).resolves.toBe(
      'A valid number is required.',
    );
    await expect(page.inputValue('#cost_1')).resolves.toBe('a lot');
    await expect(page.inputValue('#network')).resolves.toBe('inn');
    expect(await page.locator('#estimate').count()).toBe(0);
    await screenshot(page, 'estimate-errors');

    await page.goto(`${base}/app/eligibility/${uid}/persons/${personId}/estimate`);
    await page.click('button[value=estimate]');
    await expect(page.locator('#estimate-errors').textContent()).resolves.toContain(
      'Fill in at least one service line.',
    );
  });

  it('estimates for the date of service typed, keeps it, and shows an impossible one as the API refuses it', async () => {
    const { agent } = await signIn(t.app, a.email, a.password);
    const url = `/app/eligibility/${uid}/persons/${personId}/estimate`;
    const fields = { action: 'estimate', rows: '1', common_0: 'exam', cost_0: '120' };
    const bad = await postForm(agent, url, url, { ...fields, date_of_service: '2026-02-30' });
    expect(bad.status).toBe(400);
    expect(bad.text).toContain('Date has wrong format. Use YYYY-MM-DD.');
    expect(bad.text).toContain('value="2026-02-30"');
    const good = await postForm(agent, url, url, { ...fields, date_of_service: '2026-11-21' });
    expect(good.status).toBe(201);
    expect(good.text).toContain('id="estimate"');
    expect(good.text).toContain('value="2026-11-21"');
  });

  it('answers a person who is not in the result with a not-found page', async () => {
    const res = await page.goto(`${base}/app/eligibility/${uid}/persons/99999/estimate`);
    expect(res?.status()).toBe(404);
    await expect(page.locator('main').textContent()).resolves.toContain(
      `Person 99999 is not in eligibility request ${uid}.`,
    );
  });

  it("serves the estimate page's stylesheet (estimates/pages/static) beside the shell's", async () => {
    const server = t.app.getHttpServer();
    const estimate = await request(server).get('/app/static/estimate.css').expect(200);
    expect(estimate.headers['content-type']).toMatch(/^text\/css/);
    expect(estimate.text).toContain('.estimate-lines td.mono');
    const shell = await request(server).get('/app/static/app.css').expect(200);
    expect(shell.text).toContain('--ink:');
    await request(server).get('/app/static/none.css').expect(404);
  });
});
