import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { simpleParser } from 'mailparser';
import type { Browser, Page } from 'playwright-core';
import request from 'supertest';
import { DataSource } from 'typeorm';
import {
  CLAIMS_MAILING_ADDRESSES,
  mailingLines,
} from '@/modules/insurers/domain/claims-mailing-addresses';
import { createTestApp, freePort, TestApp } from './support/app';
import { launchBrowser, screenshot } from './support/browser';
import { createAccount, TestAccount } from './support/factories';
import { waitUntil } from './support/queues';

/** poppler-utils' pdftotext (scripts/ensure-tools.sh installs it). */
const PDFTOTEXT = '/usr/bin/pdftotext';
const flat = (text: string) => text.replace(/\s+/g, ' ');

/**
 * docs/api.md, Errors in the web application: a front desk files a claim from the New claim form (the
 * API's validation, errors by each field), e-mails the patient, downloads the CMS-1500 and marks
 * it as mailed.
 */
describe('web paper claim (real browser)', () => {
  let t: TestApp;
  let a: TestAccount;
  let base: string;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    if (!existsSync(PDFTOTEXT))
      throw new Error(`${PDFTOTEXT} not found: run scripts/ensure-tools.sh (poppler-utils)`);
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    t = await createTestApp({ listen: port, env: { PORT: String(port), PUBLIC_URL: base } });
    a = await createAccount(t.app);
    await request(t.app.getHttpServer())
      .patch(`/api/auth/v1/locations/${a.locationCode}/`)
      .set(a.auth)
      .send({
        npi: '1234567893',
        organization_name: 'Clear Sight Optometry PLLC',
        tax_id: '741234567',
        address: {
          line1: '901 East 6th Street',
          line2: 'Suite 200',
          city: 'Austin',
          state: 'TX',
          zipcode: '78702-4410',
        },
      })
      .expect(200);
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

  it('files a claim from the form, e-mails the patient, and its CMS-1500 holds every address and service', async () => {
    await page.goto(`${base}/app/claims/`);
    await page.click('#new-claim');
    await page.waitForURL(`${base}/app/claims/new`);

    // Patient: a child; the primary member is her mother.
    await page.fill('#patient_first_name', 'Łucja');
    await page.fill('#patient_dob', '2015-03-02');
    await page.selectOption('#patient_sex', 'female');
    await page.selectOption('#patient_type', 'child');
    await page.fill('#patient_address_line1', '274 Cedar Lane');
    await page.fill('#patient_address_line2', 'Apt 3');
    await page.fill('#patient_address_city', 'Austin');
    await page.fill('#patient_address_state', 'TX');
    await page.fill('#patient_address_zipcode', '78704');
    await page.selectOption('#insurer_code', 'insurer:vision:vsp');
    await page.fill('#member_first_name', 'Maria');
    await page.fill('#member_last_name', 'Nguyễn—Smith');
    await page.fill('#member_dob', '1986-04-12');
    await page.selectOption('#member_sex', 'female');
    await page.selectOption('#member_type', 'self');
    await page.fill('#member_member_id', 'VSP104882211');
    await page.fill('#member_address_line1', '1208 Congress Avenue');
    await page.fill('#member_address_line2', 'Building C, Suite 1400');
    await page.fill('#member_address_city', 'Round Rock');
    await page.fill('#member_address_state', 'TX');
    await page.fill('#member_address_zipcode', '78681-1234');
    const line = async (n: number, v: [string, string, string, string, string]) => {
      const [date, codes, units, cost, dx] = v;
      await page.fill(`[name=service_${n}_date]`, date);
      await page.fill(`[name=service_${n}_codes]`, codes);
      await page.fill(`[name=service_${n}_quantity]`, units);
      await page.fill(`[name=service_${n}_cost]`, cost);
      await page.fill(`[name=service_${n}_diagnosis_codes]`, dx);
    };
    await line(0, ['2026-11-14', '92014', '1', '145', 'H52.13']);
    await line(1, ['2026-11-14', 'V2100 RT LT', '2', 'twelve', 'H52.13, H52.4']);
    await line(3, ['2026-11-15', 'V2020', '1', '1075.25', '']);
    await page.fill('#paid_amount', '1200.75');
    await page.fill('#account_number', 'CHART-20931');

    // Refused as the API refuses it: the missing last name and the bad cost, each by its field.
    await page.click('#file-claim');
    const patientErrors = page.locator('#patient .field-error');
    await expect(patientErrors.allTextContents()).resolves.toEqual(['This field is required.']);
    await expect(page.locator('tr[data-row="1"] .field-error').allTextContents()).resolves.toEqual([
      'A valid number is required.',
    ]);
    await screenshot(page, 'claim-new-refused');
    // What was typed is kept.
    await expect(page.inputValue('#member_last_name')).resolves.toBe('Nguyễn—Smith');

    await page.fill('#patient_last_name', 'Nguyễn—Smith');
    await page.fill('[name=service_1_cost]', '90.50');
    await page.click('#file-claim');
    await page.waitForURL(/\/app\/claims\/CLM[0-9A-Z]{8}\/$/);
    const code = /CLM[0-9A-Z]{8}/.exec(page.url())![0];

    // The worker finds no electronic route: the claim waits to be mailed.
    await waitUntil(`claim ${code} ready_to_mail`, async () => {
      await page.goto(`${base}/app/claims/${code}/`);
      return (await page.locator('#mark-mailed').count()) > 0 ? true : undefined;
    });

    // The location has an address: nothing to warn about; the account number is the one typed.
    await expect(page.locator('#claim-warnings').count()).resolves.toBe(0);
    await expect(page.textContent('#account-number')).resolves.toBe('CHART-20931');

    await page.fill('#email', 'maria.nguyen@example.com');
    await page.click('#notify');
    await page.waitForURL(`${base}/app/claims/${code}/`);
    await expect(page.textContent('body')).resolves.toContain(
      'E-mail to maria.nguyen@example.com queued',
    );
    const file = await waitUntil('the e-mail', async () => {
      const [row] = await t.app
        .get(DataSource)
        .query(`SELECT status, delivered_to FROM mail_messages WHERE ref = $1`, [code]);
      return row?.status === 'sent' ? (row.delivered_to as string) : undefined;
    });
    const mail = await simpleParser(readFileSync(file));
    const vsp = mailingLines(CLAIMS_MAILING_ADDRESSES['insurer:vision:vsp']);
    expect(mail.text).toContain(`Mail it to ${vsp.join(', ')}.`);
    expect(mail.text).toContain('box 12');
    expect(mail.text).not.toContain('has submitted');
    expect(mail.attachments.map((x) => x.filename)).toEqual([`claim-${code}.pdf`]);

    // The claim form, as the front desk downloads it from the claim page.
    const href = await page.getAttribute('a[href$="/form"]', 'href');
    const pdf = await page.context().request.get(`${base}${href}`);
    expect(pdf.headers()['content-type']).toBe('application/pdf');
    const path = join(tmpdir(), `cms1500-${code}.pdf`);
    writeFileSync(path, await pdf.body());
    const text = flat(execFileSync(PDFTOTEXT, ['-layout', path, '-'], { encoding: 'utf8' }));
    for (const part of [
      'HEALTH INSURANCE CLAIM FORM',
      `Mail this form to ${vsp.join(', ')}.`,
      // Box 2, 5 (patient), 4, 7 (insured), 32 (facility), 33 (billing provider).
      'NGUYỄN—SMITH, ŁUCJA',
      '274 Cedar Lane, Apt 3',
      '78704',
      'NGUYỄN—SMITH, MARIA',
      '1208 Congress Avenue, Building C, Suite 1400',
      'Round Rock',
      '78681-1234',
      'Clear Sight Optometry PLLC',
      '901 East 6th Street, Suite 200',
      'Austin, TX 78702',
      // Every service with its codes, modifiers, pointers, charge and units; the totals.
      '92014 A 145.00 1',
      'V2100 RT LT AB 181.00 2',
      'V2020 1075.25 1',
      '$ 1401.25',
      '$ 1200.75',
      code,
      // Box 26: the practice's account number for the patient.
      'CHART-20931',
    ])
      expect(text).toContain(part);
    // The attachment is the same form.
    expect(mail.attachments[0].content.equals(await pdf.body())).toBe(true);

    await page.click('#mark-mailed');
    await page.waitForURL(`${base}/app/claims/${code}/`);
    await expect(page.textContent('#status-history')).resolves.toContain(
      'marked in the web application',
    );
    await expect(page.locator('#mark-mailed').count()).resolves.toBe(0);
    const claim = await request(t.app.getHttpServer())
      .get(`/api/auth/v1/claims/${code}/`)
      .set(a.auth)
      .expect(200);
    expect(claim.body.status).toBe('submitted');
    expect(claim.body.submission.channel).toBe('paper');
    await screenshot(page, 'claim-mailed');
  }, 90_000);

  it("warns on the claim page when the claim's location has no address for boxes 32 and 33", async () => {
    const api = () => request(t.app.getHttpServer());
    const uptown = await api()
      .post('/api/auth/v1/locations/')
      .set(a.auth)
      .send({ title: 'Uptown Vision' })
      .expect(201);
    const maria = {
      first_name: 'Maria',
      last_name: 'Gonzalez',
      dob: '1986-04-12',
      type: 'self',
      sex: 'female',
      member_id: 'VSP104882211',
    };
    const created = await api()
      .post('/api/auth/v1/claims/')
      .set(a.auth)
      .send({
        patient: maria,
        primary_member: { ...maria, insurer_code: 'insurer:vision:vsp' },
        services: [
          {
            codes: ['92014'],
            date: '2026-11-14',
            quantity: 1,
            cost: '145',
            diagnosis_codes: ['H52.13'],
          },
        ],
        paid_amount: '145',
        location_code: uptown.body.code,
      })
      .expect(201);
    expect(created.body.warnings).toHaveLength(1);
    await page.goto(`${base}/app/claims/${created.body.code}/`);
    const warning = await page.textContent('#claim-warnings');
    expect(warning).toContain(`The location ${uptown.body.code} has no address`);
    expect(warning).toContain('boxes 32 (service facility) and 33 (billing provider)');
    await screenshot(page, 'claim-location-without-address');
  }, 60_000);
});
