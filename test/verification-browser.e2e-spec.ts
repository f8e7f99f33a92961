import type { Browser, Page } from 'playwright-core';
import request from 'supertest';
import { createTestApp, freePort, TestApp } from './support/app';
import { launchBrowser, screenshot } from './support/browser';
import { patient, startSearch, waitForResult } from './support/eligibility';
import { createAccount, TestAccount } from './support/factories';
import { waitUntil } from './support/queues';

const VSP = 'insurer:vision:vsp';

/** A plan's items flattened: `code → list → ["inn:10.0000"]` (containers have no lists). */
function benefitsOf(items: any[], out: Record<string, Record<string, string[]>> = {}) {
  for (const item of items) {
    const lists: Record<string, string[]> = {};
    for (const name of ['copayment', 'allowance', 'quantity'])
      if (item[name])
        lists[name] = item[name].map((e: any) => `${(e.flags ?? []).join('+')}:${e.value}`);
    if (Object.keys(lists).length) out[item.benefit_code] = lists;
    benefitsOf(item.items ?? [], out);
  }
  return out;
}

/**
 * CONTRACT §18 in a real browser: a VSP search (sent through the API) waits for a person; staff
 * open Verifications, claim the task, type the benefits from the portal into the form, and the
 * search then answers exactly those benefits.
 */
describe('assisted verification (real browser)', () => {
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
    page = await (await browser.newContext()).newPage();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it('staff answer a VSP search from the Verifications page; the search completes with those benefits', async () => {
    const uid = await startSearch(t.app, a.auth, {
      insurer_code: VSP,
      patient: patient({ member_id: 'VSP20931' }),
    });
    const taskId = await waitUntil(`task of ${uid}`, async () => {
      const res = await request(t.app.getHttpServer())
        .get(`/api/auth/v2/eligibility/${uid}/`)
        .set(a.auth);
      return res.body.verification?.task_id as string | undefined;
    });

    await page.goto(`${base}/app/login`);
    await page.fill('#email', a.email);
    await page.fill('#password', a.password);
    await page.click('main button[type=submit]');
    await page.waitForURL(`${base}/app/`);

    await page.click('nav a[href="/app/verifications/"]');
    await page.waitForURL(`${base}/app/verifications/`);
    const row = page.locator(`tr[data-task="${taskId}"]`);
    await expect(row.textContent()).resolves.toContain('Maria Garcia');
    await row.locator('a').click();
    await page.waitForURL(`${base}/app/verifications/${taskId}`);
    await expect(page.getAttribute('#portal', 'target')).resolves.toBe('_blank');

    await page.click('#claim');
    await page.waitForURL(`${base}/app/verifications/${taskId}`);
    await expect(page.textContent('#lease')).resolves.toContain(`Claimed by ${a.email}`);

    await page.fill('#plan_name', 'VSP Choice');
    await page.fill('#plan_begin_date', '2026-01-01');
    await page.fill('#plan_end_date', '2026-12-31');
    await page.fill('#plan_refresh_date', '2027-01-01');
    await page.check('#oon_benefits');
    await page.selectOption('#sex', 'female');
    await page.fill('#address_line1', '412 Oak Street');
    await page.fill('#address_city', 'Austin');
    await page.fill('#address_state', 'TX');
    await page.fill('#exam_inn_copay', '10');
    await page.fill('#exam_oon_allowance', '45');
    await page.fill('#frames_inn_allowance', '150');
    await page.fill('#frames_oon_allowance', '70');
    await page.fill('#lens_single_vision_inn_copay', '25');
    await page.fill('#lens_single_vision_oon_allowance', '30');
    await page.fill('#cl_elective_inn_allowance', '130');
    await page.fill('#cl_elective_oon_allowance', '105');
    await page.selectOption('#evidence_source', 'portal');
    await page.fill('#evidence_reference_number', 'EYEFINITY-88');
    await screenshot(page, 'verification-form');
    await page.click('#complete');
    await page.waitForURL(`${base}/app/verifications/`);
    await expect(page.textContent('.flash')).resolves.toContain('Task completed');

    const v2 = await waitForResult(t.app, a.auth, uid);
    expect(v2.status).toBe('complete');
    expect(v2.results).toHaveLength(1);
    expect(v2.results[0]).toMatchObject({ insurer_code: VSP, plan_name: 'VSP Choice' });
    const person = v2.results[0].persons[0];
    expect(person).toMatchObject({
      first_name: 'Maria',
      last_name: 'Garcia',
      member_id: 'VSP20931',
    });
    expect(person.plan.insurer_state).toBe('oon');
    expect(benefitsOf(person.plan.items)).toEqual({
      exam: { copayment: ['inn:10.0000'], allowance: ['oon:45.0000'] },
      'materials.frames': { allowance: ['inn:150.0000', 'oon:70.0000'] },
      'materials.spectacle_lenses.single_vision': {
        copayment: ['inn:25.0000'],
        allowance: ['oon:30.0000'],
      },
      'materials.contact_lenses.elective': { allowance: ['inn:130.0000', 'oon:105.0000'] },
    });

    // The check's own page shows the plan found.
    await page.goto(`${base}/app/eligibility/${uid}`);
    await expect(page.textContent('#status')).resolves.toContain('complete');
    await expect(page.textContent('main')).resolves.toContain('VSP Choice');
  }, 60_000);
});
