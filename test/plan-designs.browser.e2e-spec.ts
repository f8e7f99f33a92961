import type { Browser, Page } from 'playwright-core';
import request from 'supertest';
import { createTestApp, freePort, TestApp } from './support/app';
import { launchBrowser, screenshot } from './support/browser';
import { patient, startSearch, waitForResult } from './support/eligibility';
import { createAccount, TestAccount } from './support/factories';
import { waitUntil } from './support/queues';

const VSP = 'insurer:vision:vsp';
const R = '2027-01-01';

/** A VSP group's benefits as a first verifier entered them through the API, with used values. */
const GROUP_PLAN = {
  insurer_state: 'oon',
  items: [
    {
      benefit_code: 'exam',
      refresh_date: R,
      copayment: [{ flags: ['inn'], value: '10' }],
      allowance: [{ flags: ['oon'], value: '45' }],
      quantity: [
        { flags: ['inn'], value: 1, comment: 'every 12 months' },
        { flags: ['oon'], value: 1, comment: 'every 12 months' },
      ],
      quantity_accepted: [{ flags: ['inn'], value: 1 }],
      last_service_date: '2026-02-01',
    },
    {
      benefit_code: 'materials',
      refresh_date: R,
      items: [
        {
          benefit_code: 'materials.frames',
          refresh_date: R,
          flags: ['exclusive-use'],
          allowance: [{ flags: ['inn'], value: '150' }],
          allowance_accepted: [{ flags: ['inn'], value: '150' }],
        },
        // No row of the form shows it: kept as saved.
        {
          benefit_code: 'materials.package',
          refresh_date: R,
          flags: ['inn'],
          margin_limit: [{ value: '95' }],
        },
      ],
    },
  ],
};

/**
 * docs/api.md, Plan designs, in a real browser: a VSP group answered once through the API; the
 * next task of the group is opened on the Verifications page, started from the saved plan (the
 * form fills itself), its dates and used benefits confirmed, and the search completes with the
 * saved tree.
 */
describe('plan designs on the verification page (real browser)', () => {
  let t: TestApp;
  let a: TestAccount;
  let base: string;
  let browser: Browser;
  let page: Page;
  const http = () => request(t.app.getHttpServer());

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

  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  /**
   * A VSP search of a member of its own, and its task once the search waits for a person
   * (`max_age_hours: 0`: the same names are asked anew, not answered by reuse).
   */
  async function search(memberId: string) {
    const uid = await startSearch(t.app, a.auth, {
      insurer_code: VSP,
      patient: patient({ member_id: memberId }),
      max_age_hours: 0,
    });
    const taskId = await waitUntil(`task of ${uid}`, async () => {
      const res = await http().get(`/api/auth/v2/eligibility/${uid}/`).set(a.auth);
      return res.body.verification?.task_id as string | undefined;
    });
    return { uid, taskId };
  }

  it('a verifier starts the next task of a group from its saved plan, confirms dates and use, and the search answers the saved benefits', async () => {
    const first = await search('VSP31001');
    await http()
      .post(`/api/auth/v1/verification-tasks/${first.taskId}/complete/`)
      .set(a.auth)
      .send({
        plans: [
          {
            status: 'active',
            plan_name: 'VSP Signature',
            plan_group: 'Harbor Schools',
            plan_group_id: 'GRP-3100',
            plan_begin_date: '2026-01-01',
            plan_is_active: true,
            persons: [{ plan: GROUP_PLAN }],
          },
        ],
        evidence: { source: 'portal', checked_at: '2026-11-24T15:04:00Z' },
      })
      .expect(200);
    const list = await http().get('/api/auth/v1/plan-designs/').set(a.auth);
    const design = list.body.result[0];
    const saved = (await http().get(`/api/auth/v1/plan-designs/${design.id}/`).set(a.auth)).body
      .items;

    const second = await search('VSP31002');
    await page.goto(`${base}/app/verifications/${second.taskId}`);
    await expect(page.textContent('#saved-plans')).resolves.toContain('VSP Signature');
    await page.fill('#design_q', 'grp-31');
    await page.click('#design-search-button');
    await page.waitForURL(/design_q=grp-31/);
    const row = page.locator(`tr[data-design="${design.id}"]`);
    await expect(row.textContent()).resolves.toContain('Harbor Schools');
    await row.locator('a.use-design').click();
    await page.waitForURL(`${base}/app/verifications/${second.taskId}?design=${design.id}`);

    // The form is the saved plan's; status, dates and use are left to confirm.
    await expect(page.textContent('#started-from')).resolves.toContain('VSP Signature');
    const values = async (ids: string[]) => Promise.all(ids.map((id) => page.inputValue(`#${id}`)));
    await expect(
      values([
        'plan_name',
        'plan_group',
        'plan_group_id',
        'exam_inn_copay',
        'exam_inn_quantity',
        'exam_inn_frequency',
        'exam_oon_allowance',
        'frames_inn_allowance',
        'plan_begin_date',
        'plan_refresh_date',
        'exam_last_used',
        'p0_first_name',
      ]),
    ).resolves.toEqual([
      'VSP Signature',
      'Harbor Schools',
      'GRP-3100',
      '10',
      '1',
      '12',
      '45',
      '150',
      '',
      '',
      '',
      'Maria',
    ]);
    await expect(page.isChecked('#oon_benefits')).resolves.toBe(true);

    // Claiming posts the form back: the saved plan stays chosen.
    await page.click('#claim');
    await expect(page.textContent('.flash')).resolves.toContain('Task claimed.');
    await expect(page.textContent('#started-from')).resolves.toContain('VSP Signature');
    await page.selectOption('#status', 'active');
    await page.fill('#plan_begin_date', '2027-01-01');
    await page.fill('#plan_refresh_date', '2028-01-01');
    await page.fill('#exam_last_used', '2026-10-01');
    await page.fill('#evidence_reference_number', 'EYEFINITY-31');
    await screenshot(page, 'verification-saved-plan');
    await page.click('#complete');
    await page.waitForURL(`${base}/app/verifications/`);
    await expect(page.textContent('.flash')).resolves.toContain('Task completed');

    const v2 = await waitForResult(t.app, a.auth, second.uid);
    expect(v2.status).toBe('complete');
    expect(v2.results[0]).toMatchObject({
      plan_name: 'VSP Signature',
      plan_group_id: 'GRP-3100',
      plan_begin_date: '2027-01-01',
    });
    const expected = JSON.parse(JSON.stringify(saved).replaceAll(R, '2028-01-01'));
    expected[0].last_service_date = '2026-10-01';
    // The verifier's date, as every V2 item states its last service (docs/api.md, Next eligible dates).
    expected[0].last_service = { date: '2026-10-01', source: 'payer' };
    expect(v2.results[0].persons[0].plan.items).toEqual(expected);
    expect(JSON.stringify(saved)).toContain('materials.package');

    const used = await http().get(`/api/auth/v1/plan-designs/${design.id}/`).set(a.auth);
    expect(used.body.used_count).toBe(1);
  }, 60_000);
});
