import type { Browser, Page } from 'playwright-core';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { todayIso } from '@/platform/kernel/time';
import { dateWords } from '@/modules/appointments/pages/schedule-view';
import { createTestApp, freePort, TestApp } from './support/app';
import { launchBrowser, screenshot } from './support/browser';
import { createAccount, TestAccount } from './support/factories';
import { createUser } from './support/web-sign-in';

/** Ten days ahead: no check of the policy below is due, so every coverage shown is the stored one. */
const DAY = todayIso(10);
const API = '/api/auth/v1/appointments/';
/** The house colours (app.css). */
const GREEN = 'rgb(29, 122, 70)';

/**
 * The Schedule page in a real browser (docs/api.md, Appointments: the Schedule page): visits at
 * a location in America/Chicago read at its clock, those of a location without a time zone at
 * the offset they were sent with; a patient record is named by its patient; the outcome keeps
 * its badge with a separate "Stale" mark; a benefit used until later says until when, in words;
 * a cancelled visit never shows the green of a plan.
 */
describe('the Schedule page in time zones (real browser)', () => {
  let t: TestApp;
  let a: TestAccount;
  let db: DataSource;
  let base: string;
  let browser: Browser;
  let page: Page;
  let chicago: string;
  const http = () => request(t.app.getHttpServer());

  const put = (id: string, body: Record<string, unknown>) =>
    http()
      .put(`${API}${id}/`)
      .set(a.auth)
      .send({ status: 'booked', insurer_code: 'insurer:demo:vision', ...body })
      .expect(201);
  /** A check's answer as the checks store it (their own specs drive them). */
  const answered = (id: string, state: string, stale: boolean, coverage: object) =>
    db.query(
      `UPDATE appointments SET coverage_state = $3, coverage_stale = $4, coverage = $5
        WHERE account_id = $1 AND external_id = $2`,
      [a.accountId, id, state, stale, JSON.stringify(coverage)],
    );

  beforeAll(async () => {
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    t = await createTestApp({ listen: port, env: { PORT: String(port), PUBLIC_URL: base } });
    db = t.app.get(DataSource);
    a = await createAccount(t.app);
    await http()
      .put('/api/auth/v1/appointment-policy/')
      .set(a.auth)
      .send({
        on_booking: false,
        days_before: [3],
        hours_before: [24],
        freshness_hours: 48,
        statuses: ['booked', 'arrived'],
      })
      .expect(200);
    chicago = (
      await http()
        .post('/api/auth/v1/locations/')
        .set(a.auth)
        .send({ title: 'Chicago', time_zone: 'America/Chicago' })
        .expect(201)
    ).body.code;
    const rosa = await http()
      .post('/api/auth/v1/patients/')
      .set(a.auth)
      .send({ first_name: 'Rosa', last_name: 'Diaz', dob: '1979-03-04' })
      .expect(200);
    // 14:30 in Chicago (−06:00 in winter, −05:00 in summer: sent with its own offset).
    const offset = new Intl.DateTimeFormat('en-US', {
      timeZone: 'America/Chicago',
      timeZoneName: 'longOffset',
    })
      .formatToParts(new Date(`${DAY}T20:00:00Z`))
      .find((p) => p.type === 'timeZoneName')!
      .value.slice(3);
    await put('Z-CHI', {
      starts_at: `${DAY}T14:30:00${offset}`,
      ends_at: `${DAY}T15:00:00${offset}`,
      location_code: chicago,
      patient_code: rosa.body.code,
    });
    await put('Z-CANCELLED', {
      starts_at: `${DAY}T16:00:00${offset}`,
      location_code: chicago,
      status: 'cancelled',
      patient: { first_name: 'Ann', last_name: 'Lee', dob: '1990-01-01', zipcode: '78701' },
    });
    // The default location names no time zone: the visit reads at the offset it was sent with.
    await put('Z-OFFSET', {
      starts_at: `${DAY}T14:30:00-06:00`,
      patient: { first_name: 'Maria', last_name: 'Garcia', dob: '1984-06-15', zipcode: '78701' },
    });
    const benefits = {
      exam: { available: true, next_eligible_date: null, copayment: '10.0000', allowance: null },
      frames: {
        available: false,
        next_eligible_date: todayIso(200),
        copayment: null,
        allowance: '150.0000',
      },
      spectacle_lenses: {
        available: true,
        next_eligible_date: null,
        copayment: null,
        allowance: null,
      },
      contact_lenses: {
        available: null,
        next_eligible_date: null,
        copayment: null,
        allowance: null,
      },
    };
    const checkedAt = `${todayIso(0)}T08:00:00Z`;
    await answered('Z-CHI', 'active', true, { checked_at: checkedAt, changes: [], benefits });
    await answered('Z-CANCELLED', 'active', false, {
      checked_at: checkedAt,
      changes: [],
      benefits,
    });
    await answered('Z-OFFSET', 'inactive', false, {
      checked_at: checkedAt,
      changes: [{ field: 'state', before: 'active', after: 'inactive' }],
      benefits: { ...benefits, frames: { ...benefits.frames, next_eligible_date: DAY } },
    });

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
    await t?.close();
  });

  const row = (id: string) => page.locator(`tr[data-appointment="${id}"]`);
  const text = async (id: string, part: string) =>
    ((await row(id).locator(part).innerText()) ?? '').replace(/\s+/g, ' ').trim();

  it("shows a Chicago location's visits at its clock: the patient record's name, the outcome with a separate stale mark, when a benefit is available again", async () => {
    await page.goto(`${base}/app/schedule/?date=${DAY}&location=${chicago}`);
    await expect(page.locator('#times-in').innerText()).resolves.toContain(
      'Times in America/Chicago.',
    );
    await expect(text('Z-CHI', '.time')).resolves.toMatch(/^14:30–15:00 C[SD]T$/);
    await expect(text('Z-CHI', '.patient-name')).resolves.toBe('Rosa Diaz');
    await expect(row('Z-CHI').locator('.coverage .badge').innerText()).resolves.toBe('Active');
    const mark = row('Z-CHI').locator('.coverage .stale-mark');
    await expect(mark.innerText()).resolves.toBe('Stale');
    await expect(
      mark.evaluate((el) => el.ownerDocument.defaultView!.getComputedStyle(el).color),
    ).resolves.not.toBe(GREEN);
    await expect(text('Z-CHI', '[data-benefit="Frames"]')).resolves.toBe(
      `Frames: not available until ${dateWords(todayIso(200))}, allowance $150.00`,
    );
    await expect(text('Z-CHI', '[data-benefit="Exam"]')).resolves.toBe(
      'Exam: available, copay $10.00',
    );

    // Cancelled: said so, never the green badge of an active plan.
    const cancelled = row('Z-CANCELLED').locator('.coverage .badge');
    await expect(cancelled.innerText()).resolves.toBe('Visit cancelled');
    await expect(
      cancelled.evaluate((el) => el.ownerDocument.defaultView!.getComputedStyle(el).color),
    ).resolves.not.toBe(GREEN);
    await expect(text('Z-CANCELLED', '.time')).resolves.toMatch(/^16:00 C[SD]T$/);
    expect(await row('Z-CANCELLED').locator('.badge.coverage-active').count()).toBe(0);
    await screenshot(page, 'schedule-chicago');
  }, 60_000);

  it('shows the visits of a location without a time zone at the offset they were sent with; an inactive plan covers nothing, in words', async () => {
    await page.goto(`${base}/app/schedule/?date=${DAY}&location=${a.locationCode}`);
    await expect(page.locator('#times-in').innerText()).resolves.toContain(
      'Times at the offset each visit was sent with.',
    );
    // 14:30 at −06:00, not 20:30 (its instant in UTC).
    await expect(text('Z-OFFSET', '.time')).resolves.toBe('14:30 UTC−06:00');
    await expect(text('Z-OFFSET', '.patient-name')).resolves.toBe('Maria Garcia');
    await expect(row('Z-OFFSET').locator('.coverage .badge').innerText()).resolves.toBe('Inactive');
    expect(await row('Z-OFFSET').locator('.stale-mark').count()).toBe(0);
    await expect(text('Z-OFFSET', '[data-benefit="Frames"]')).resolves.toBe(
      'Frames: not covered (plan inactive), allowance $150.00',
    );
    await screenshot(page, 'schedule-offset');
  }, 60_000);
});
