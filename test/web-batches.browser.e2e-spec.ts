import { readFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { parse } from 'csv-parse/sync';
import { DataSource } from 'typeorm';
import { createTestApp, freePort, TestApp } from './support/app';
import { launchBrowser, screenshot } from './support/browser';
import { createAccount, TestAccount } from './support/factories';

const HEADER = 'first_name,last_name,dob,zipcode,member_id,insurer_code';

/** docs/api.md, Batches in the web application: upload a CSV, watch the progress, download the results. */
describe('web batch check (real browser)', () => {
  let t: TestApp;
  let a: TestAccount;
  let base: string;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    t = await createTestApp({ listen: port, env: { PORT: String(port), PUBLIC_URL: base } });
    a = await createAccount(t.app);
    browser = await launchBrowser();
    page = await (await browser.newContext({ acceptDownloads: true })).newPage();
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

  async function upload(name: string, csv: string) {
    await page.goto(`${base}/app/batches/`);
    await page.setInputFiles('#file', { name, mimeType: 'text/csv', buffer: Buffer.from(csv) });
    await page.click('main form button[type=submit]');
  }

  it('offers a template with the columns the upload reads', async () => {
    await page.goto(`${base}/app/batches/`);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.click('a[href="/app/batches/template.csv"]'),
    ]);
    const template = readFileSync(await download.path(), 'utf8');
    expect(template.split('\n')[0]).toBe(HEADER);
  });

  it('refuses a file with bad rows, naming their lines, and checks nothing', async () => {
    await upload(
      'bad.csv',
      [
        HEADER,
        'Maria,Garcia,1984-06-15,78701,,insurer:demo:vision',
        'Ann,Lee,15/06/1984,78701,,insurer:demo:vision',
        'Bob,,1990-01-01,7870,,insurer:vision:nope',
      ].join('\n'),
    );
    const errors = page.locator('#upload-errors');
    await expect(errors.textContent()).resolves.toContain(
      'Line 3: dob: Date has wrong format. Use YYYY-MM-DD.',
    );
    const text = (await errors.textContent())!;
    expect(text).toContain('Line 4: last_name: This field is required.');
    expect(text).toContain('Line 4: zipcode: Enter a valid ZIP code (NNNNN or NNNNN-NNNN).');
    await screenshot(page, 'batch-upload-refused');
    // Line 2 was fine, but the whole file was refused: nothing of it was stored.
    const db = t.app.get(DataSource);
    const [{ count }] = await db.query(
      `SELECT count(*)::int AS count FROM eligibility_requests WHERE account_id = $1`,
      [a.accountId],
    );
    expect(count).toBe(0);
  });

  it('uploads a CSV, shows the progress reach 100 %, and downloads the results', async () => {
    const rows = Array.from(
      { length: 40 },
      (_, i) => `Pat${i},Garcia,1984-06-15,78701,M${i},insurer:demo:vision`,
    );
    // A name a spreadsheet would run as a formula, and a patient the insurer does not know.
    rows.push('=HYPERLINK(1),Formula,1980-01-01,78701,,insurer:demo:vision');
    rows.push('not_found,Nobody,1980-01-01,78701,,insurer:demo:vision');
    // An insurer outage: the row fails, and says so.
    rows.push('in_err_ins,Outage,1980-01-01,78701,,insurer:demo:vision');
    await upload('schedule.csv', [HEADER, ...rows].join('\r\n'));
    await page.waitForURL(/\/app\/batches\/[0-9a-f]{32}$/);
    // The page refreshes itself (meta refresh) until the batch is complete.
    await page.locator('#percent', { hasText: '100 %' }).waitFor({ timeout: 60_000 });
    await expect(page.locator('#batch-progress').getAttribute('value')).resolves.toBe('43');
    // The rows to follow up, by their row in the file, with why.
    await expect(page.locator('#attention tr[data-row="42"] .reason').textContent()).resolves.toBe(
      'The insurer found no plan for this patient (Sandbox: no member (not_found)).',
    );
    await expect(page.locator('#attention tr[data-row="43"] .reason').textContent()).resolves.toBe(
      'Sandbox: simulated insurer outage (in_err_ins)',
    );
    expect(await page.locator('#attention tbody tr').count()).toBe(2);
    await screenshot(page, 'batch-complete');

    const [download] = await Promise.all([page.waitForEvent('download'), page.click('#download')]);
    const csv = readFileSync(await download.path(), 'utf8');
    const records: Record<string, string>[] = parse(csv, { columns: true });
    expect(records).toHaveLength(43);
    expect(records[0]).toMatchObject({
      first_name: 'Pat0',
      last_name: 'Garcia',
      member_id: 'M0',
      status: 'complete',
      coverage: 'plan found',
      insurer_code: 'insurer:demo:vision',
      insurer_name: 'Demo Vision (sandbox)',
      active: 'true',
    });
    expect(records[0].plan_name).not.toBe('');
    // Money as dollars, and no common benefit column left empty.
    for (const column of [
      'exam_copay',
      'materials_copay',
      'frame_allowance',
      'contact_lens_allowance',
    ])
      expect({ column, value: records[0][column] }).toEqual({
        column,
        value: expect.stringMatching(/^\d+\.\d\d$/),
      });
    expect(records[40].first_name).toBe("'=HYPERLINK(1)");
    expect(records[41]).toMatchObject({
      first_name: 'not_found',
      status: 'complete',
      coverage: 'no plan found',
      insurer_code: 'insurer:demo:vision',
      plan_name: '',
    });
    expect(records[42]).toMatchObject({
      first_name: 'in_err_ins',
      status: 'error',
      error_code: 'insurer_problem',
      insurer_code: 'insurer:demo:vision',
      error_reason: 'Sandbox: simulated insurer outage (in_err_ins)',
    });

    // The batch is listed on the upload page, newest first.
    await page.goto(`${base}/app/batches/`);
    const uid = new URL(download.url()).pathname.split('/')[3];
    await expect(
      page.locator('#past-batches tbody tr').first().getAttribute('data-batch'),
    ).resolves.toBe(uid);
    await screenshot(page, 'batches-past');
  }, 90_000);
});
