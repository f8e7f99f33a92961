import type { X837Address } from '@/lib/x12';
import { lineCharge } from './claim-charges';
import type { ClaimFormInput } from './claim-form.pdf';
import { FORM, HEIGHT, LEFT, RIGHT, amount, mdy, street } from './claim-form-text';
import type { Sheet } from './claim-form-text';
import { C2, R, drawLabelledRow } from './cms1500-layout';
import type { ClaimResponse } from '../api/dto/claim.response';

/** The claim's diagnoses in first-seen order (box 21 A–L; NUCC: no decimal point). */
export function diagnosisLetters(claim: ClaimResponse): { codes: string[]; pointers: string[] } {
  const codes: string[] = [];
  for (const s of claim.services)
    for (const c of s.diagnosis_codes) {
      const code = c.replace('.', '').toUpperCase();
      if (!codes.includes(code)) codes.push(code);
    }
  const letter = (c: string) => String.fromCharCode(65 + codes.indexOf(c));
  const pointers = claim.services.map((s) =>
    [...new Set(s.diagnosis_codes.map((c) => c.replace('.', '').toUpperCase()))]
      .filter((c) => codes.indexOf(c) < 12)
      .slice(0, 4)
      .map(letter)
      .join(''),
  );
  return { codes: codes.slice(0, 12), pointers };
}

/**
 * The practice's own account number for the patient: `metadata.account_number` (the link to the
 * caller's system, docs/api.md "Claims") when it is a non-blank string or a number; else null.
 */
export function givenAccountNumber(claim: ClaimResponse): string | null {
  const given = claim.metadata?.account_number;
  const text =
    typeof given === 'string' || (typeof given === 'number' && Number.isFinite(given))
      ? String(given).trim()
      : '';
  return text || null;
}

/** Box 26 (patient's account no.): the practice's account number, else the claim code. */
export function patientAccountNumber(claim: ClaimResponse): string {
  return givenAccountNumber(claim) ?? claim.code;
}

/** A line's procedure (the first code), its modifiers (2-character codes) and any other codes. */
export function procedureOf(codes: readonly string[]): {
  procedure: string;
  modifiers: string[];
  others: string[];
} {
  const [procedure = '', ...rest] = codes;
  return {
    procedure,
    modifiers: rest.filter((c) => c.length === 2),
    others: rest.filter((c) => c.length !== 2),
  };
}

/** Box 24's columns A–J: where each starts (J ends at the form's right edge). */
export const BOX24_COLUMNS = {
  a: LEFT,
  b: 122,
  c: 146,
  d: 164,
  e: 300,
  f: 336,
  g: 404,
  h: 430,
  i: 450,
  j: 472,
} as const;

/**
 * Box 24's headings as the NUCC form stacks them: the narrow columns (B, C, E, G–I) take their
 * words on up to three short lines in a smaller size, so each heading stays inside its column.
 */
export const BOX24_HEADINGS: {
  col: keyof typeof BOX24_COLUMNS;
  lines: string[];
  size: number;
}[] = [
  { col: 'a', lines: ['24. A. DATE(S) OF SERVICE', 'From MM DD YY   To MM DD YY'], size: 5.2 },
  { col: 'b', lines: ['B.', 'PLACE OF', 'SERVICE'], size: 4.2 },
  { col: 'c', lines: ['C.', 'EMG'], size: 4.2 },
  { col: 'd', lines: ['D. PROCEDURES, SERVICES, OR SUPPLIES', 'CPT/HCPCS   MODIFIER'], size: 5.2 },
  { col: 'e', lines: ['E.', 'DIAGNOSIS', 'POINTER'], size: 4.2 },
  { col: 'f', lines: ['F.', '$ CHARGES'], size: 5.2 },
  { col: 'g', lines: ['G.', 'DAYS OR', 'UNITS'], size: 4.2 },
  { col: 'h', lines: ['H. EPSDT', 'Family', 'Plan'], size: 4.2 },
  { col: 'i', lines: ['I.', 'ID.', 'QUAL.'], size: 4.2 },
  { col: 'j', lines: ['J. RENDERING', 'PROVIDER ID. #'], size: 5.2 },
];

/** A column line of box 24, from `top` down to `bottom`. */
function rule(s: Sheet, x: number, top: number, bottom: number): void {
  s.page.drawLine({
    start: { x, y: HEIGHT - top },
    end: { x, y: HEIGHT - bottom },
    thickness: 0.5,
    color: FORM,
  });
}

/** Boxes 14–33 (services, totals, facility and billing provider) and the footer, from `top`. */
export function drawServicesAndProvider(s: Sheet, input: ClaimFormInput, start: number): void {
  const { claim, provider, facility } = input;
  let top = start;
  // Boxes 14–20 (not used by a routine vision claim: drawn, left blank).
  const firstDate = claim.services.map((x) => x.date).sort()[0];
  for (const [a, b, c] of [
    [
      '14. DATE OF CURRENT ILLNESS, INJURY, or PREGNANCY (LMP)',
      '15. OTHER DATE',
      '16. DATES PATIENT UNABLE TO WORK IN CURRENT OCCUPATION',
    ],
    [
      '17. NAME OF REFERRING PROVIDER OR OTHER SOURCE',
      '17a.  17b. NPI',
      '18. HOSPITALIZATION DATES',
    ],
  ]) {
    drawLabelledRow(s, top, a, b, c);
    top += R;
  }
  s.box(LEFT, top, C2, R);
  s.box(C2, top, RIGHT, R);
  s.label('19. ADDITIONAL CLAIM INFORMATION (Designated by NUCC)', LEFT + 2, top + 2);
  s.data(
    `Out-of-network vision claim ${claim.code}, services from ${mdy(firstDate)}`,
    LEFT + 4,
    top + R - 4,
    C2 - LEFT - 8,
  );
  s.label('20. OUTSIDE LAB?   $ CHARGES', C2 + 2, top + 2);
  s.check('YES', C2 + 10, top + 12, false);
  s.check('NO', C2 + 50, top + 12, true);
  top += R;

  // Box 21 (A–L), 22, 23.
  const dx = diagnosisLetters(claim);
  const D = 44;
  s.box(LEFT, top, C2, D);
  s.box(C2, top, RIGHT, D / 2);
  s.box(C2, top + D / 2, RIGHT, D / 2);
  s.label(
    '21. DIAGNOSIS OR NATURE OF ILLNESS OR INJURY Relate A-L to service line below (24E)   ICD Ind.',
    LEFT + 2,
    top + 2,
  );
  s.data('0', LEFT + 300, top + 9, 10, 7);
  for (let i = 0; i < 12; i++) {
    const x = LEFT + 6 + (i % 4) * 86;
    const baseline = top + 18 + Math.floor(i / 4) * 10;
    s.label(`${String.fromCharCode(65 + i)}.`, x, baseline - 6);
    s.data(dx.codes[i], x + 8, baseline + 2, 74, 8);
  }
  s.label('22. RESUBMISSION CODE   ORIGINAL REF. NO.', C2 + 2, top + 2);
  s.label('23. PRIOR AUTHORIZATION NUMBER', C2 + 2, top + D / 2 + 2);
  top += D;

  // Box 24: six service lines, each a shaded supplemental half over its data half.
  const cols = BOX24_COLUMNS;
  const H24 = 20;
  s.box(LEFT, top, RIGHT, H24);
  const xs = Object.values(cols);
  for (const x of xs.slice(1)) rule(s, x, top, top + H24);
  for (const { col, lines, size } of BOX24_HEADINGS)
    lines.forEach((text, i) => s.label(text, cols[col] + 1.5, top + 2 + i * (size + 1.8), size));
  top += H24;
  const LINE = 24;
  for (let n = 0; n < 6; n++) {
    const t = top + n * LINE;
    s.box(LEFT, t, RIGHT, LINE / 2, true);
    s.box(LEFT, t + LINE / 2, RIGHT, LINE / 2);
    for (const x of xs.slice(1)) rule(s, x, t + LINE / 2, t + LINE);
    s.label(String(n + 1), RIGHT + 3, t + LINE / 2 + 2, 7);
    const line = claim.services[n];
    if (!line) continue;
    const { procedure, modifiers, others } = procedureOf(line.codes);
    const base = t + LINE - 3;
    // The shaded half carries what the data half cannot: the line's other procedure codes.
    if (others.length)
      s.data(`Also: ${others.join(' ')}`, cols.d + 2, t + LINE / 2 - 3, cols.j - cols.d, 7);
    s.data(`${mdy(line.date, 6)}  ${mdy(line.date, 6)}`, cols.a + 2, base, cols.b - cols.a - 4);
    s.data('11', cols.b + 3, base, 16); // place of service 11: office
    s.data(procedure, cols.d + 2, base, 44);
    s.data(modifiers.join(' '), cols.d + 50, base, cols.e - cols.d - 52);
    s.data(dx.pointers[n], cols.e + 2, base, cols.f - cols.e - 4);
    s.data(amount(lineCharge(line)), cols.f + 2, base, cols.g - cols.f - 4);
    s.data(String(line.quantity), cols.g + 2, base, cols.h - cols.g - 4);
    if (provider) s.data(provider.npi, cols.j + 2, base, RIGHT - cols.j - 4);
  }
  top += 6 * LINE;

  // Boxes 25–30.
  const c = { b25: LEFT, b26: 176, b27: 290, b28: 366, b29: 450, b30: 530 };
  const edges = [c.b25, c.b26, c.b27, c.b28, c.b29, c.b30, RIGHT];
  edges.slice(1).forEach((x2, i) => s.box(edges[i], top, x2, R));
  s.label('25. FEDERAL TAX I.D. NUMBER   SSN EIN', c.b25 + 2, top + 2);
  if (provider?.taxId) {
    s.data(provider.taxId, c.b25 + 4, top + R - 4, 90);
    s.check('EIN', c.b25 + 110, top + 12, true);
  }
  s.label("26. PATIENT'S ACCOUNT NO.", c.b26 + 2, top + 2);
  s.data(patientAccountNumber(claim), c.b26 + 4, top + R - 4, c.b27 - c.b26 - 8);
  s.label('27. ACCEPT ASSIGNMENT?', c.b27 + 2, top + 2);
  s.check('YES', c.b27 + 6, top + 12, claim.accept_assignment);
  s.check('NO', c.b27 + 40, top + 12, !claim.accept_assignment);
  s.label('28. TOTAL CHARGE', c.b28 + 2, top + 2);
  s.data(`$ ${amount(claim.total_cost)}`, c.b28 + 4, top + R - 4, c.b29 - c.b28 - 8);
  s.label('29. AMOUNT PAID', c.b29 + 2, top + 2);
  s.data(`$ ${amount(claim.paid_amount)}`, c.b29 + 4, top + R - 4, c.b30 - c.b29 - 8);
  s.label('30. Rsvd for NUCC Use', c.b30 + 2, top + 2);
  top += R;

  // Boxes 31, 32 (service facility) and 33 (billing provider), with 32a/b and 33a/b.
  const B = 58;
  const x32 = 176;
  const x33 = 390;
  s.box(LEFT, top, x32, B + 14);
  s.box(x32, top, x33, B);
  s.box(x33, top, RIGHT, B);
  s.box(x32, top + B, x33, 14);
  s.box(x33, top + B, RIGHT, 14);
  s.label('31. SIGNATURE OF PHYSICIAN OR SUPPLIER', LEFT + 2, top + 2);
  s.label('INCLUDING DEGREES OR CREDENTIALS', LEFT + 2, top + 9);
  s.data('SIGNED ____________________', LEFT + 4, top + B - 4, x32 - LEFT - 8, 7.5);
  s.data(`DATE ${mdy(claim.created_at)}`, LEFT + 4, top + B + 10, x32 - LEFT - 8, 7.5);
  s.label('32. SERVICE FACILITY LOCATION INFORMATION', x32 + 2, top + 2);
  const place = (x1: number, x2: number, name: string, a: X837Address | null) => {
    const lines = [name, street(a), a ? `${a.city}, ${a.state} ${a.zipcode}` : ''];
    lines.forEach((l, i) => s.data(l, x1 + 4, top + 20 + i * 12, x2 - x1 - 8, 8));
  };
  place(x32, x33, facility.name, facility.address);
  s.label('a. NPI', x32 + 2, top + B + 2);
  s.data(provider?.npi, x32 + 24, top + B + 11, 90, 8);
  s.label('b.', x32 + 120, top + B + 2);
  s.label('33. BILLING PROVIDER INFO & PH #', x33 + 2, top + 2);
  place(
    x33,
    RIGHT,
    provider?.organizationName ?? facility.name,
    provider?.address ?? facility.address,
  );
  s.label('a. NPI', x33 + 2, top + B + 2);
  s.data(provider?.npi, x33 + 24, top + B + 11, 90, 8);
  s.label('b.', x33 + 120, top + B + 2);
  top += B + 14;

  s.label('NUCC Instruction Manual available at: www.nucc.org', LEFT, top + 4, 5.5);
  s.label('APPROVED OMB-0938-1197 FORM 1500 (02-12)', RIGHT - 140, top + 4, 5.5);
  if (input.payerId) s.label(`Payer id ${input.payerId}`, LEFT + 200, top + 4, 5.5);
}
