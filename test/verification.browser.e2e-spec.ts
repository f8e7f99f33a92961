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
 * docs/api.md, Insurers and assisted verification in a real browser: a VSP search (sent through the API) waits for a person; staff
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
    await page.goto(`${base}/app/login`);
    await page.fill('#email', a.email);
    await page.fill('#password', a.password);
    await page.click('main button[type=submit]');
    await page.waitForURL(`${base}/app/`);
  }, 60_000);

  /** The task of search `uid` once the search waits for a person. */
  const taskOf = (uid: string) =>
    waitUntil(`task of ${uid}`, async () => {
      const res = await request(t.app.getHttpServer())
        .get(`/api/auth/v2/eligibility/${uid}/`)
        .set(a.auth);
      return res.body.verification?.task_id as string | undefined;
    });

  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it('staff answer a VSP search from the Verifications page; the search completes with those benefits', async () => {
    const uid = await startSearch(t.app, a.auth, {
      insurer_code: VSP,
      patient: patient({ member_id: 'VSP20931' }),
    });
    const taskId = await taskOf(uid);

    await page.goto(`${base}/app/`);
    await page.click('nav a[href="/app/verifications/"]');
    await page.waitForURL(`${base}/app/verifications/`);
    const row = page.locator(`tr[data-task="${taskId}"]`);
    await expect(row.textContent()).resolves.toContain('Maria Garcia');
    await row.locator('a').click();
    await page.waitForURL(`${base}/app/verifications/${taskId}`);
    await expect(page.getAttribute('#portal', 'target')).resolves.toBe('_blank');

    await page.click('#claim');
    await page.waitForURL(`${base}/app/verifications/${taskId}/claim`);
    await expect(page.textContent('#lease')).resolves.toContain(`Claimed by ${a.email}`);

    await page.fill('#plan_name', 'VSP Choice');
    await page.fill('#plan_begin_date', '2026-01-01');
    await page.fill('#plan_end_date', '2026-12-31');
    await page.fill('#plan_refresh_date', '2027-01-01');
    await page.check('#oon_benefits');
    await page.selectOption('#p0_sex', 'female');
    await page.fill('#p0_address_line1', '412 Oak Street');
    await page.fill('#p0_address_city', 'Austin');
    await page.fill('#p0_address_state', 'Texas');
    await page.fill('#p0_address_zipcode', '78701');
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
      address: { line1: '412 Oak Street', state: 'TX' },
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

  it("a dependent's task: a subscriber and a dependent block, no address; Claim keeps what was typed; the messages read as a person expects", async () => {
    const uid = await startSearch(t.app, a.auth, {
      insurer_code: VSP,
      patient: patient({ first_name: 'Lucia', dob: '2015-03-02' }),
      subscriber: {
        first_name: 'Maria',
        last_name: 'Garcia',
        dob: '1984-06-15',
        member_id: 'VSP77',
      },
    });
    const taskId = await taskOf(uid);
    await page.goto(`${base}/app/verifications/${taskId}`);
    await expect(page.textContent('#person-0 legend')).resolves.toBe('Subscriber');
    await expect(page.inputValue('#p0_first_name')).resolves.toBe('Maria');
    await expect(page.inputValue('#p0_member_id')).resolves.toBe('VSP77');
    await expect(page.inputValue('#p0_relationship')).resolves.toBe('self');
    await expect(page.inputValue('#p1_first_name')).resolves.toBe('Lucia');
    await expect(page.inputValue('#p1_dob')).resolves.toBe('2015-03-02');
    await expect(page.inputValue('#p1_relationship')).resolves.toBe('dependent');

    // Typed before claiming: Claim brings the page back with it.
    await page.fill('#plan_name', 'VSP Choice');
    await page.fill('#exam_inn_copay', '10');
    await page.fill('#exam_inn_frequency', '12');
    await page.fill('#exam_oon_allowance', '45');
    await page.check('#oon_benefits');
    await page.selectOption('#p1_relationship', 'child');
    await page.click('#claim');
    await expect(page.textContent('.flash')).resolves.toContain('Task claimed.');
    await expect(page.textContent('#lease')).resolves.toContain(`Claimed by ${a.email}`);
    await expect(page.inputValue('#plan_name')).resolves.toBe('VSP Choice');
    await expect(page.inputValue('#exam_inn_copay')).resolves.toBe('10');
    await expect(page.inputValue('#p1_relationship')).resolves.toBe('child');

    // No dates yet: each says what to do, not "wrong format".
    await page.click('#complete');
    await expect(page.textContent('#plan_begin_date + .field-error')).resolves.toBe(
      'Enter a date.',
    );
    await expect(page.textContent('#plan_refresh_date + .field-error')).resolves.toBe(
      'Enter a date.',
    );
    await expect(page.textContent('main')).resolves.not.toContain('wrong format');
    await page.fill('#plan_begin_date', '2026-01-01');
    await page.fill('#plan_refresh_date', '2027-01-01');
    await screenshot(page, 'verification-dependent');
    // Enter in a field completes (the form's first button is a clipped Complete, not Claim).
    await page.press('#plan_name', 'Enter');
    await page.waitForURL(`${base}/app/verifications/`);
    await expect(page.textContent('.flash')).resolves.toContain(
      'Task completed: the check now shows the plan.',
    );

    const v2 = await waitForResult(t.app, a.auth, uid);
    const blank = { sex: null, address: null, phone: null };
    expect(v2.results[0].persons).toEqual([
      expect.objectContaining({
        first_name: 'Maria',
        last_name: 'Garcia',
        dob: '1984-06-15',
        member_id: 'VSP77',
        type: 'self',
        ...blank,
      }),
      expect.objectContaining({
        first_name: 'Lucia',
        last_name: 'Garcia',
        dob: '2015-03-02',
        type: 'child',
        ...blank,
      }),
    ]);
    // The out-of-network frequency was typed once.
    expect(benefitsOf(v2.results[0].persons[1].plan.items)).toEqual({
      exam: {
        copayment: ['inn:10.0000'],
        allowance: ['oon:45.0000'],
        quantity: ['inn:1', 'oon:1'],
      },
    });
    expect(v2.results[0].persons[1].plan.items[0].quantity.map((q: any) => q.comment)).toEqual([
      'every 12 months',
      'every 12 months',
    ]);
  }, 60_000);
});
