import type { Browser, Page } from 'playwright-core';
import request from 'supertest';
import { AccountsService } from '@/modules/accounts';
import { EligibilityQueryService } from '@/modules/eligibility';
import { createTestApp, freePort, TestApp } from './support/app';
import { launchBrowser, screenshot } from './support/browser';
import { DEMO, patient, startSearch } from './support/eligibility';
import { createAccount, TestAccount } from './support/factories';
import { asBytes, pdfText } from './support/pdf-text';
import { waitUntil } from './support/queues';

const VSP = 'insurer:vision:vsp';
const EYE_MED = 'insurer:vision:eye_med';
/** A raw ISO 8601 instant, as the API writes it (pages write `2026-11-21 13:51 UTC`). */
const RAW_ISO = /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;

/**
 * The check page and the check form as a front desk reads them (docs/api.md, Universal Search
 * insurer by insurer; Insurers and assisted verification), and the verification form's address.
 */
describe('check page and forms (real browser)', () => {
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

  const v2 = async (uid: string) =>
    (await http().get(`/api/auth/v2/eligibility/${uid}/`).set(a.auth)).body;

  /** The v2 answer once every insurer in `codes` waits for a person with a task. */
  const waitingFor = (uid: string, codes: string[]) =>
    waitUntil(`${codes.join(', ')} waiting for a person on ${uid}`, async () => {
      const body = await v2(uid);
      const waiting = (body.insurers ?? []).filter(
        (e: any) => e.state === 'waiting_for_person' && e.verification,
      );
      return codes.every((c) => waiting.some((e: any) => e.insurer_code === c)) ? body : undefined;
    });

  describe('a Universal Search waiting for people (wait_for electronic)', () => {
    let uid: string;

    beforeAll(async () => {
      uid = await startSearch(t.app, a.auth, {
        insurer_code_list: [DEMO, VSP, EYE_MED],
        wait_for: 'electronic',
        patient: patient({ last_name: 'Garcia not_found' }),
      });
      const body = await waitingFor(uid, [VSP, EYE_MED]);
      expect(body.status).toBe('complete');
      expect(body.results).toEqual([]);
    });

    it('says people are still checking, and which insurers, not "no plan found"', async () => {
      await page.goto(`${base}/app/eligibility/${uid}`);
      await screenshot(page, 'check-page-waiting-for-people');
      const status = (await page.textContent('#status'))!;
      expect(status).toContain('still checking');
      expect(status).toContain('VSP Vision Care');
      expect(status).toContain('EyeMed');
      expect(status.toLowerCase()).not.toContain('no plan found');
      await expect(page.locator('#no-plan').count()).resolves.toBe(0);
    });

    it('is titled with the patient, the insurers and the date, the request uid still shown', async () => {
      await page.goto(`${base}/app/eligibility/${uid}`);
      const h1 = (await page.textContent('h1'))!;
      expect(h1).toContain('Maria Garcia');
      expect(h1).toContain('VSP Vision Care');
      expect(h1).toMatch(/\d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC/);
      expect(h1).not.toContain(uid);
      await expect(page.title()).resolves.toContain('Maria Garcia');
      await expect(page.textContent('#request-uid')).resolves.toContain(uid);
    });

    it('prints each time once, in the words of the pages, never as raw ISO', async () => {
      await page.goto(`${base}/app/eligibility/${uid}`);
      const row = (await page.textContent(`#insurers tr[data-insurer="${VSP}"]`))!;
      expect(row).not.toMatch(RAW_ISO);
      expect(row.match(/\d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC/g)).toHaveLength(1);
      for (const part of ['h1', '#status', '#insurers'])
        expect(await page.locator(part).innerText()).not.toMatch(RAW_ISO);
    });

    it('the snapshot says people are still checking, not "Complete"', async () => {
      const res = await http()
        .get(`/api/auth/v2/eligibility/${uid}/pdf/`)
        .set(a.auth)
        .buffer(true)
        .parse(asBytes);
      expect(res.status).toBe(200);
      const { text } = await pdfText(res.body as Buffer);
      const status = text.split('\n').find((l) => l.startsWith('Status'))!;
      expect(status).not.toContain('Complete');
      expect(status).toContain('still checking');
      expect(status).toContain('VSP Vision Care');
    });
  });

  it('names every verification task of a processing check, on the page and in the API', async () => {
    const uid = await startSearch(t.app, a.auth, {
      insurer_code_list: [VSP, EYE_MED],
      patient: patient({ first_name: 'Ana' }),
    });
    const body = await waitingFor(uid, [VSP, EYE_MED]);
    expect(body.status).toBe('processing');
    const tasks = body.insurers.map((e: any) => e.verification.task_id);
    // Additive: the first task stays `verification`; `verifications` lists them all.
    expect(tasks).toContain(body.verification.task_id);
    expect(body.verifications.map((v: any) => v.task_id).sort()).toEqual([...tasks].sort());

    await page.goto(`${base}/app/eligibility/${uid}`);
    const text = (await page.textContent('#verification'))!;
    expect(text).toContain('VSP Vision Care');
    expect(text).toContain('EyeMed');
    for (const id of tasks)
      await expect(
        page.locator(`#verification a[href="/app/verifications/${id}"]`).count(),
      ).resolves.toBe(1);
  });

  it("answers the question of the task that asks it, when it is not the check's first task", async () => {
    const uid = await startSearch(t.app, a.auth, {
      insurer_code_list: [VSP, EYE_MED],
      patient: patient({ first_name: 'Inés' }),
    });
    const body = await waitingFor(uid, [VSP, EYE_MED]);
    const other = body.insurers
      .map((e: any) => e.verification.task_id as string)
      .find((id: string) => id !== body.verification.task_id)!;
    const TASKS = '/api/auth/v1/verification-tasks/';
    await http().post(`${TASKS}${other}/claim/`).set(a.auth).expect(200);
    await http()
      .post(`${TASKS}${other}/needs-info/`)
      .set(a.auth)
      .send({ detail: 'Which member id is on the card?' })
      .expect(200);

    await page.goto(`${base}/app/eligibility/${uid}`);
    await expect(page.textContent('#verification')).resolves.toContain(
      'Which member id is on the card?',
    );
    await page.fill('#verification-answer', 'EM-4410, on the back of the card.');
    await page.click('#verification-info button[type=submit]');
    await expect(page.textContent('.flash')).resolves.toContain('Answer sent');
    const task = await http().get(`${TASKS}${other}/`).set(a.auth).expect(200);
    expect(task.body).toMatchObject({
      state: 'queued',
      detail: 'EM-4410, on the back of the card.',
    });
  });

  describe('the check form', () => {
    const query = (uid: string) => t.app.get(EligibilityQueryService).findRequest(a.accountId, uid);

    it('runs a Universal Search of the insurers ticked, for a dependent, at a chosen location', async () => {
      const branch = await http()
        .post('/api/auth/v1/locations/')
        .set(a.auth)
        .send({ title: 'Uptown' })
        .expect(201);
      await page.goto(`${base}/app/eligibility/new`);
      await page.selectOption('#insurer_code', DEMO);
      await page.check(`input[name="insurer_code_list"][value="${VSP}"]`);
      await page.fill('#first_name', 'Lucia');
      await page.fill('#last_name', 'Garcia');
      await page.fill('#dob', '2015-03-09');
      await page.fill('#zipcode', '78701');
      await page.fill('#subscriber_first_name', 'Carlos');
      await page.fill('#subscriber_last_name', 'Garcia');
      await page.fill('#subscriber_dob', '1982-02-03');
      await page.fill('#subscriber_member_id', 'VSP777');
      await page.selectOption('#location_code', branch.body.code as string);
      await page.selectOption('#wait_for', 'electronic');
      await page.selectOption('#assisted', 'always');
      await screenshot(page, 'check-form-universal');
      await page.click('main form button[type=submit]');
      await page.waitForURL(/\/app\/eligibility\/[0-9a-f]{32}$/);
      const uid = page.url().split('/').pop()!;
      const row = (await query(uid))!;
      expect(row.insurerCodes).toEqual([DEMO, VSP]);
      expect(row.options).toMatchObject({ wait_for: 'electronic', assisted: 'always' });
      expect(row.query.subscriber).toMatchObject({
        firstName: 'Carlos',
        lastName: 'Garcia',
        dob: '1982-02-03',
        memberId: 'VSP777',
      });
      const at = await t.app.get(AccountsService).getLocationById(a.accountId, row.locationId);
      expect(at?.code).toBe(branch.body.code);
      await expect(page.locator('h1').textContent()).resolves.toContain('Lucia Garcia');
    });

    it('asks every insurer of the account with "All insurers"', async () => {
      await page.goto(`${base}/app/eligibility/new`);
      await page.selectOption('#insurer_code', 'all');
      await page.fill('#first_name', 'Maria');
      await page.fill('#last_name', 'Garcia');
      await page.fill('#dob', '1984-06-15');
      await page.fill('#zipcode', '78701');
      await page.click('main form button[type=submit]');
      await page.waitForURL(/\/app\/eligibility\/[0-9a-f]{32}$/);
      const row = (await query(page.url().split('/').pop()!))!;
      expect(row.insurerCodes).toContain(DEMO);
      expect(row.insurerCodes).toContain(VSP);
      expect(row.insurerCodes.length).toBeGreaterThan(5);
    });

    it('shows the API message when no insurer is ticked for several insurers', async () => {
      await page.goto(`${base}/app/eligibility/new`);
      await page.selectOption('#insurer_code', 'list');
      await page.fill('#first_name', 'Maria');
      await page.fill('#last_name', 'Garcia');
      await page.fill('#dob', '1984-06-15');
      await page.fill('#zipcode', '78701');
      await page.click('main form button[type=submit]');
      await expect(page.locator('#insurer-list .field-error').count()).resolves.toBeGreaterThan(0);
    });
  });

  it('the verification form says the address is all or nothing, and why a part is needed', async () => {
    const uid = await startSearch(t.app, a.auth, {
      insurer_code: VSP,
      patient: patient({ first_name: 'Rosa' }),
    });
    const body = await waitingFor(uid, [VSP]);
    const taskId = body.insurers[0].verification.task_id as string;
    await page.goto(`${base}/app/verifications/${taskId}`);
    await page.click('#claim');
    await page.waitForURL(`${base}/app/verifications/${taskId}/claim`);
    const hint = (await page.textContent('#person-0 .address-hint'))!;
    expect(hint).toMatch(/all .*or none|or leave (it|them) all blank/i);
    const street = (await page.textContent('label[for="p0_address_line1"]'))!;
    expect(street).not.toContain('optional');

    await page.fill('#p0_address_state', 'TX');
    await page.click('#complete');
    const why = (await page.textContent('#person-0 div:has(> #p0_address_line1) .field-error'))!;
    expect(why).not.toBe('This field is required.');
    expect(why.toLowerCase()).toContain('address');
    await screenshot(page, 'verification-address-all-or-nothing');
  });
});
