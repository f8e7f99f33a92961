import type { Browser, Frame, Page } from 'playwright-core';
import request from 'supertest';
import { todayIso } from '@/platform/kernel/time';
import { SCHEDULE_COLUMNS } from '@/modules/appointments/pages/schedule-csv';
import { createTestApp, freePort, TestApp } from './support/app';
import { launchBrowser, screenshot, vendorPage } from './support/browser';
import { createAccount, TestAccount } from './support/factories';
import { createUser } from './support/web-sign-in';

/** Tomorrow: a check now is still fresh (48 hours) at the visit, so it is not `stale`. */
const DAY = todayIso(1);
const HEADER = SCHEDULE_COLUMNS.join(',');
/** The house colours (app.css): the badge repeats its words in them. */
const GREEN = 'rgb(29, 122, 70)';
const RED = 'rgb(179, 38, 30)';

/**
 * The Schedule page in a real browser (docs/api.md, Appointments: the Schedule page): staff sync
 * the day from a CSV file, the booking's check answers (the sandbox), "Check now" asks again and
 * the sandbox's `flip_inactive` answers the plan inactive, shown in words, colour and as a change;
 * then the same page inside a practice system's frame, opened at the `schedule` entry point.
 */
describe('the Schedule page (real browser)', () => {
  let t: TestApp;
  let a: TestAccount;
  let base: string;
  let vendor: Awaited<ReturnType<typeof vendorPage>>;
  let vendorOrigin: string;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    t = await createTestApp({ listen: port, env: { PORT: String(port), PUBLIC_URL: base } });
    vendor = await vendorPage();
    vendorOrigin = vendor.origin;
    a = await createAccount(t.app, { iframeEnabled: true, frameAncestors: [vendorOrigin] });
    const staff = await createUser(t.app, a.accountId, 'staff');
    browser = await launchBrowser();
    page = await (await browser.newContext({ viewport: { width: 1366, height: 900 } })).newPage();
    await page.goto(`${base}/app/login`);
    await page.fill('#email', staff.email);
    await page.fill('#password', staff.password);
    await page.click('button[type=submit]');
    await page.waitForURL(`${base}/app/`);
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await vendor?.close();
    await t?.close();
  });

  /** Reloads the day until the row's badge says `words` (the checks run in the background). */
  async function waitForBadge(where: Page | Frame, id: string, words: string): Promise<void> {
    const badge = where.locator(`tr[data-appointment="${id}"] .coverage .badge`);
    for (let tries = 0; (await badge.textContent()) !== words; tries++) {
      if (tries === 240) throw new Error(`${id} never showed ${words}`);
      await new Promise((resolve) => setTimeout(resolve, 250));
      await where.goto(`${base}/app/schedule/?date=${DAY}`);
    }
  }
  const colourOf = (where: Page | Frame, id: string) =>
    where
      .locator(`tr[data-appointment="${id}"] .coverage .badge`)
      .evaluate((el) => el.ownerDocument.defaultView!.getComputedStyle(el).color);

  it('syncs the day from a CSV file, shows the check in words and colour, and a change after "Check now"', async () => {
    await page.goto(`${base}/app/schedule/`);
    await expect(page.locator('nav a.active').textContent()).resolves.toBe('Schedule');
    await page.fill('#date', DAY);
    await page.click('#day-form button[type=submit]');
    await page.waitForURL(new RegExp(`date=${DAY}`));
    const csv = [
      HEADER,
      `F-1,${DAY}T15:00:00Z,${DAY}T15:30:00Z,booked,,,flip_inactive,Garcia,1984-06-15,78701,,insurer:demo:vision`,
      `F-2,${DAY}T16:00:00Z,,booked,,,Ann,Lee,1984/06/15,78701,,insurer:demo:vision`,
    ].join('\n');
    await page.setInputFiles('#file', {
      name: 'day.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(csv),
    });
    await page.click('#sync button[type=submit]');
    await expect(page.locator('#sync-counts').textContent()).resolves.toBe(
      '1 new, 0 changed, 0 unchanged, 0 cancelled (not in the file), 1 not stored.',
    );
    await expect(page.locator('#sync-errors li').textContent()).resolves.toBe(
      'Line 3: dob: Date has wrong format. Use YYYY-MM-DD.',
    );
    await screenshot(page, 'schedule-synced');

    // The booking is checked at once; the sandbox finds an active plan.
    await waitForBadge(page, 'F-1', 'Active');
    await expect(colourOf(page, 'F-1')).resolves.toBe(GREEN);
    const row = page.locator('tr[data-appointment="F-1"]');
    await expect(row.locator('.visit-benefits li').first().textContent()).resolves.toMatch(
      /^Exam: (available|not covered|not available until|not stated by the plan)/,
    );
    await expect(row.locator('.checked-at').textContent()).resolves.toMatch(
      /^Checked \d{4}-\d\d-\d\d \d\d:\d\d UTC$/,
    );
    await expect(row.locator('.changes').textContent()).resolves.toContain('None');

    await row.locator('button', { hasText: 'Check now' }).click();
    await expect(page.locator('.flash.ok').textContent()).resolves.toBe(
      'The coverage of appointment F-1 is being checked.',
    );
    await waitForBadge(page, 'F-1', 'Inactive');
    await expect(colourOf(page, 'F-1')).resolves.toBe(RED);
    await expect(row.locator('.changes li').first().textContent()).resolves.toBe(
      'state: active → inactive',
    );
    await screenshot(page, 'schedule-changed');
    // The rows name insurers and times in words (the CSV help shows the file's own format).
    const text = (await page.locator('#appointments').innerText()).replace(/\s+/g, ' ');
    expect(text.match(/insurer:[a-z_]+:[a-z_]+/g)).toBeNull();
    expect(text.match(/\d{4}-\d\d-\d\dT\d\d:\d\d/g)).toBeNull();
  }, 120_000);

  it("opens at the schedule inside the practice system's frame, without navigation, and checks from there", async () => {
    const minted = await request(t.app.getHttpServer())
      .post('/api/auth/v1/iframe-session/')
      .set(a.auth)
      .send({ entry_point: 'schedule' })
      .expect(200);
    const context = await browser.newContext({ viewport: { width: 1366, height: 1000 } });
    const framed = await context.newPage();
    await framed.goto(
      `${vendorOrigin}/?src=${encodeURIComponent(minted.body.iframe_url as string)}`,
    );
    await framed
      .frameLocator('#vision')
      .locator('h1', { hasText: 'Schedule' })
      .waitFor({ timeout: 30_000 });
    const frame = (await (await framed.locator('#vision').elementHandle()).contentFrame())!;
    expect(frame.url()).toBe(`${base}/app/schedule/`);
    expect(await frame.locator('header.top').count()).toBe(0);
    await frame.goto(`${base}/app/schedule/?date=${DAY}`);
    const row = frame.locator('tr[data-appointment="F-1"]');
    await expect(row.locator('.badge').textContent()).resolves.toBe('Inactive');
    // The patient's and the check's pages belong to other entry points: not linked.
    expect(
      await frame.locator('a[href^="/app/patients/"], a[href^="/app/eligibility/"]').count(),
    ).toBe(0);
    await row.locator('button', { hasText: 'Check now' }).click();
    await expect(frame.locator('.flash.ok').textContent()).resolves.toBe(
      'The coverage of appointment F-1 is being checked.',
    );
    await screenshot(framed, 'schedule-embedded');
    await context.close();
  }, 90_000);
});
