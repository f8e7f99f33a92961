import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { claim, input, vsp } from '../../../../test/support/claim-form.fixtures';
import { diagnosisLetters, procedureOf, renderClaimForm } from './claim-form.pdf';
import { patientAccountNumber } from './cms1500-services';
import { renderClaimNotification } from './claim-notification';
import type { ClaimResponse } from '../api/dto/claim.response';

/** The PDF's text as poppler's pdftotext reads it (`-layout`: boxes side by side on a line). */
function pdfText(pdf: Buffer): string {
  const dir = mkdtempSync(join(tmpdir(), 'cms1500-'));
  const file = join(dir, 'form.pdf');
  writeFileSync(file, pdf);
  return execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
}
const flat = (text: string) => text.replace(/\s+/g, ' ');
/** The parts `text` lacks: none when it prints them all (a failure lists every one). */
const missing = (text: string, parts: string[]) => parts.filter((part) => !text.includes(part));

describe('the CMS-1500 claim form', () => {
  let text: string;
  beforeAll(async () => {
    text = pdfText(await renderClaimForm(input));
  });

  // The captions are sought in the layout text; the addresses, which may wrap, in the flat text.
  it.each([
    {
      title: 'prints the form title and its numbered boxes',
      read: (t: string) => t,
      parts: [
        'HEALTH INSURANCE CLAIM FORM',
        '(NUCC) 02/12',
        '1a. INSURED',
        "2. PATIENT'S NAME",
        "3. PATIENT'S BIRTH DATE",
        "4. INSURED'S NAME",
        "5. PATIENT'S ADDRESS",
        '6. PATIENT RELATIONSHIP',
        "7. INSURED'S ADDRESS",
        "11. INSURED'S POLICY GROUP",
        "12. PATIENT'S OR AUTHORIZED",
        "13. INSURED'S OR AUTHORIZED",
        '21. DIAGNOSIS',
        '24. A. DATE(S) OF SERVICE',
        '25. FEDERAL TAX I.D.',
        "26. PATIENT'S ACCOUNT NO.",
        '28. TOTAL CHARGE',
        '29. AMOUNT PAID',
        '31. SIGNATURE OF PHYSICIAN',
        '32. SERVICE FACILITY',
        '33. BILLING PROVIDER',
      ],
    },
    {
      title: 'prints the full addresses of patient, insured, service facility and billing provider',
      read: flat,
      parts: [
        '274 Cedar Lane, Apt 3',
        'Austin',
        '78704-1234',
        '1208 Congress Avenue, Building C, Suite 1400 (rear entrance)',
        'Round Rock',
        '78681',
        'Downtown Eye Care',
        '901 E 6th St',
        'Austin, TX 78702',
        'Bright Eyes Optometry PLLC',
        '500 W 2nd St, Floor 2',
        'Austin, TX 78701',
      ],
    },
  ])('$title', ({ read, parts }) => {
    expect(missing(read(text), parts)).toEqual([]);
  });

  it('prints every character of the names (a Unicode font, no "?")', () => {
    const line = text.split('\n').find((l) => l.includes('SMITH'));
    expect(line).toContain('NGUYỄN—SMITH, ŁUCJA');
    expect(line).not.toContain('?');
  });

  it("says where to mail it: the insurer's full claims mailing address", () => {
    expect(flat(text)).toContain(`Mail this form to ${vsp.join(', ')}.`);
  });

  it('prints every service line with all its codes, modifiers, pointers, units and charges', () => {
    const t = flat(text);
    expect(t).toContain('H5213'); // box 21 A, without the decimal point (NUCC)
    expect(t).toContain('H524');
    expect(t).toMatch(/11 14 26 11 14 26 11 92014 A 145\.00 1/);
    expect(t).toMatch(/11 14 26 11 14 26 11 V2100 RT LT AB 24\.44 2/);
    expect(t).toContain('Also: V2750');
    expect(t).toMatch(/11 15 26 11 15 26 11 V2020 44\.21 1/);
    expect(t).toContain('$ 213.65');
    expect(t).toContain('CLM8D3K6TQW');
    expect(t).toContain('741234567');
  });
});

describe("box 26, the patient's account number", () => {
  const row = (text: string) => text.split('\n').find((l) => l.includes('741234567')) ?? '';

  it("prints the practice's account number (metadata.account_number) in box 26", async () => {
    const withAccount = { ...claim, metadata: { account_number: 'CHART-20931', visit: 'annual' } };
    const text = pdfText(await renderClaimForm({ ...input, claim: withAccount }));
    // Box 25 (tax id), 26, then 28 and 29 on the one row of boxes 25–30.
    expect(row(text)).toMatch(/741234567 .*CHART-20931 .*\$ 213\.65 .*\$ 213\.65/);
    expect(row(text)).not.toContain(claim.code);
  });

  it('prints the claim code in box 26 when the claim carries no account number', async () => {
    expect(row(pdfText(await renderClaimForm(input)))).toContain(claim.code);
  });

  it('takes a string or a number, and falls back to the claim code on blank or other values', () => {
    const of = (metadata: Record<string, unknown> | null) =>
      patientAccountNumber({ ...claim, metadata });
    expect(of({ account_number: ' CHART-7 ' })).toBe('CHART-7');
    expect(of({ account_number: 20931 })).toBe('20931');
    for (const none of [null, {}, { account_number: '  ' }, { account_number: null }])
      expect(of(none)).toBe(claim.code);
    for (const other of [{ id: 1 }, ['A1'], true, Number.NaN])
      expect(of({ account_number: other })).toBe(claim.code);
  });
});

describe('the pieces of the form', () => {
  it('letters the diagnoses A–L in first-seen order and points each line at its own', () => {
    expect(diagnosisLetters(claim)).toEqual({
      codes: ['H5213', 'H524'],
      pointers: ['A', 'AB', ''],
    });
  });

  it('splits a line into its procedure, modifiers and other codes', () => {
    expect(procedureOf(['V2100', 'RT', 'V2750', 'LT'])).toEqual({
      procedure: 'V2100',
      modifiers: ['RT', 'LT'],
      others: ['V2750'],
    });
  });
});

describe("the patient's e-mail", () => {
  it('tells the patient to print, sign boxes 12 and 13, and mail it with receipts to the address', () => {
    const mail = renderClaimNotification(claim, 'VSP Vision Care', vsp);
    expect(mail.text).not.toMatch(/has submitted/);
    expect(mail.html).not.toMatch(/has submitted/);
    expect(mail.text).toContain('Print the attached claim form');
    expect(mail.text).toContain('box 12');
    expect(mail.text).toContain('box 13');
    expect(mail.text).toContain('itemized receipts');
    expect(mail.text).toContain(`Mail it to ${vsp.join(', ')}.`);
    expect(mail.html).toContain(`Mail it to ${vsp.join(', ')}.`);
    expect(mail.subject).toContain('mail');
  });

  it('points the receipts step at the services list where it is: above the steps', () => {
    const mail = renderClaimNotification(claim, 'VSP Vision Care', vsp);
    for (const [body, heading] of [
      [mail.text, '\nServices\n'],
      [mail.html, '<h3>Services</h3>'],
    ]) {
      const receipts = body.indexOf('itemized receipts for every service listed');
      expect(receipts).toBeGreaterThan(body.indexOf(heading));
      expect(body.indexOf(heading)).toBeGreaterThan(-1);
      expect(body).toContain('every service listed above');
      expect(body).not.toMatch(/listed below/);
    }
  });

  it('says the practice submitted an electronic claim, and asks nothing to be mailed', () => {
    const sent: ClaimResponse = {
      ...claim,
      status: 'submitted',
      submission: {
        channel: 'x12',
        clearinghouse_id: '01K',
        submitted_at: claim.created_at,
        detail: null,
      },
    };
    const mail = renderClaimNotification(sent, 'VSP Vision Care', vsp);
    expect(mail.text).toContain('Downtown Eye Care has submitted');
    expect(mail.text).toContain('You do not need to mail anything.');
    expect(mail.text).not.toContain('Mail it to');
  });
});
