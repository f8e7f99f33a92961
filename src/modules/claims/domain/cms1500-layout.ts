import type { ClaimFormInput } from './claim-form.pdf';
import {
  FORM,
  HEIGHT,
  LEFT,
  RELATIONSHIPS,
  RIGHT,
  fullName,
  mdy,
  relationshipOf,
  street,
} from './claim-form-text';
import type { Sheet } from './claim-form-text';
import type { ClaimPersonResponse } from '../api/dto/claim-parts.response';

// The CMS-1500 (02/12) layout: the form's boxes in drop-out red, each value where it belongs.
export const C1 = 228; // left | middle column
export const C2 = 366; // middle | insured column
export const R = 23; // a row's height

/** One row of the left, middle and insured columns: their boxes, each with its label. */
export function drawLabelledRow(s: Sheet, top: number, a: string, b: string, c: string): void {
  s.box(LEFT, top, C1, R);
  s.box(C1, top, C2, R);
  s.box(C2, top, RIGHT, R);
  s.label(a, LEFT + 2, top + 2);
  s.label(b, C1 + 2, top + 2);
  s.label(c, C2 + 2, top + 2);
}

export function drawFormHeading(s: Sheet, input: ClaimFormInput): void {
  const { claim } = input;
  const { page } = s;
  // Above the form: where it goes, then the carrier block (payer's name and address).
  const mailTo = input.mailTo.length ? input.mailTo : [input.insurerName];
  s.data(`Mail this form to ${mailTo.join(', ')}.`, LEFT, 16, 330, 8);
  s.data(
    'Sign boxes 12 and 13, and enclose the itemized receipts. Claim ' + claim.code + '.',
    LEFT,
    28,
    330,
    7.5,
  );
  mailTo.forEach((line, i) => s.data(line, 370, 16 + i * 11, RIGHT - 370, 9));
  page.drawText('HEALTH INSURANCE CLAIM FORM', {
    x: LEFT,
    y: HEIGHT - 78,
    size: 12,
    font: s.bold,
    color: FORM,
  });
  s.label('APPROVED BY NATIONAL UNIFORM CLAIM COMMITTEE (NUCC) 02/12', LEFT, 82, 5.5);
  s.label('PICA', LEFT, 91, 5.5);
  s.label('PICA', RIGHT - 16, 91, 5.5);
}

/** Boxes 1–13 (patient and insured), from `top`; returns the top of box 14. */
export function drawPatientAndInsured(s: Sheet, input: ClaimFormInput, start: number): number {
  const { claim } = input;
  const patient = claim.patient;
  const insured = claim.primary_member;
  let top = start;
  // Box 1 and 1a.
  s.box(LEFT, top, C2, R);
  s.box(C2, top, RIGHT, R);
  s.label('1.', LEFT + 2, top + 2);
  [
    'MEDICARE',
    'MEDICAID',
    'TRICARE',
    'CHAMPVA',
    'GROUP HEALTH PLAN',
    'FECA BLK LUNG',
    'OTHER',
  ].forEach((c, i) =>
    s.check(c, LEFT + 8 + [0, 44, 88, 132, 176, 246, 306][i], top + 11, c === 'GROUP HEALTH PLAN'),
  );
  s.label("1a. INSURED'S I.D. NUMBER (For Program in Item 1)", C2 + 2, top + 2);
  s.data(insured.member_id, C2 + 4, top + R - 4, RIGHT - C2 - 8);
  top += R;

  // Boxes 2, 3, 4.
  s.box(LEFT, top, C1, R);
  s.box(C1, top, C2, R);
  s.box(C2, top, RIGHT, R);
  s.label("2. PATIENT'S NAME (Last Name, First Name, Middle Initial)", LEFT + 2, top + 2);
  s.data(fullName(patient), LEFT + 4, top + R - 4, C1 - LEFT - 8);
  s.label("3. PATIENT'S BIRTH DATE (MM DD YYYY)   SEX", C1 + 2, top + 2);
  s.data(mdy(patient.dob), C1 + 4, top + R - 4, 60);
  s.check('M', C1 + 78, top + 12, patient.sex === 'male');
  s.check('F', C1 + 104, top + 12, patient.sex === 'female');
  s.label("4. INSURED'S NAME (Last Name, First Name, Middle Initial)", C2 + 2, top + 2);
  s.data(fullName(insured), C2 + 4, top + R - 4, RIGHT - C2 - 8);
  top += R;

  // Boxes 5, 6, 7: addresses over three rows (street; city and state; ZIP and telephone).
  const relationship = relationshipOf(patient.type);
  const addressRows = (x1: number, x2: number, p: ClaimPersonResponse, title: string) => {
    const a = p.address;
    s.box(x1, top, x2, R);
    s.label(`${title} (No., Street)`, x1 + 2, top + 2);
    s.data(street(a), x1 + 4, top + R - 4, x2 - x1 - 8);
    const split = x2 - 42;
    s.box(x1, top + R, split, R);
    s.box(split, top + R, x2, R);
    s.label('CITY', x1 + 2, top + R + 2);
    s.data(a?.city, x1 + 4, top + 2 * R - 4, split - x1 - 8);
    s.label('STATE', split + 2, top + R + 2);
    s.data(a?.state, split + 4, top + 2 * R - 4, 34);
    const mid = x1 + (x2 - x1) * 0.42;
    s.box(x1, top + 2 * R, mid, R);
    s.box(mid, top + 2 * R, x2, R);
    s.label('ZIP CODE', x1 + 2, top + 2 * R + 2);
    s.data(a?.zipcode, x1 + 4, top + 3 * R - 4, mid - x1 - 8);
    s.label('TELEPHONE (Include Area Code)', mid + 2, top + 2 * R + 2);
    s.data(p.phone, mid + 4, top + 3 * R - 4, x2 - mid - 8);
  };
  addressRows(LEFT, C1, patient, "5. PATIENT'S ADDRESS");
  s.box(C1, top, C2, R);
  s.label('6. PATIENT RELATIONSHIP TO INSURED', C1 + 2, top + 2);
  RELATIONSHIPS.forEach((r, i) => s.check(r, C1 + 6 + i * 33, top + 12, r === relationship));
  s.box(C1, top + R, C2, 2 * R);
  s.label('8. RESERVED FOR NUCC USE', C1 + 2, top + R + 2);
  addressRows(C2, RIGHT, insured, "7. INSURED'S ADDRESS");
  top += 3 * R;

  // Boxes 9–11d. `noBox`: the YES/NO pair of a question, NO checked.
  const noBox = (x: number) => {
    s.check('YES', x + 10, top + 12, false);
    s.check('NO', x + 50, top + 12, true);
  };
  const rows9to11: [string, string, string, () => void][] = [
    [
      "9. OTHER INSURED'S NAME (Last Name, First Name, Middle Initial)",
      "10. IS PATIENT'S CONDITION RELATED TO:",
      "11. INSURED'S POLICY GROUP OR FECA NUMBER",
      () => s.data('NONE', C2 + 4, top + R - 4, RIGHT - C2 - 8),
    ],
    [
      "a. OTHER INSURED'S POLICY OR GROUP NUMBER",
      'a. EMPLOYMENT? (Current or Previous)',
      "a. INSURED'S DATE OF BIRTH (MM DD YYYY)   SEX",
      () => {
        noBox(C1);
        s.data(mdy(insured.dob), C2 + 4, top + R - 4, 60);
        s.check('M', C2 + 110, top + 12, insured.sex === 'male');
        s.check('F', C2 + 140, top + 12, insured.sex === 'female');
      },
    ],
    [
      'b. RESERVED FOR NUCC USE',
      'b. AUTO ACCIDENT?   PLACE (State)',
      'b. OTHER CLAIM ID (Designated by NUCC)',
      () => noBox(C1),
    ],
    [
      'c. RESERVED FOR NUCC USE',
      'c. OTHER ACCIDENT?',
      'c. INSURANCE PLAN NAME OR PROGRAM NAME',
      () => {
        noBox(C1);
        s.data(input.insurerName, C2 + 4, top + R - 4, RIGHT - C2 - 8);
      },
    ],
    [
      'd. INSURANCE PLAN NAME OR PROGRAM NAME',
      '10d. CLAIM CODES (Designated by NUCC)',
      'd. IS THERE ANOTHER HEALTH BENEFIT PLAN?',
      () => noBox(C2),
    ],
  ];
  for (const [a, b, c, fill] of rows9to11) {
    drawLabelledRow(s, top, a, b, c);
    fill();
    top += R;
  }

  // Boxes 12 and 13: the patient's and the insured's signatures, left for them to sign.
  const SIG = 34;
  s.box(LEFT, top, C2, SIG);
  s.box(C2, top, RIGHT, SIG);
  s.label('READ BACK OF FORM BEFORE COMPLETING & SIGNING THIS FORM.', LEFT + 60, top + 2);
  s.label(
    "12. PATIENT'S OR AUTHORIZED PERSON'S SIGNATURE I authorize the release of any medical or other information necessary",
    LEFT + 2,
    top + 9,
    4.8,
  );
  s.label('to process this claim.', LEFT + 2, top + 15, 4.8);
  s.data('SIGNED ______________________________', LEFT + 4, top + SIG - 4, 200, 7.5);
  s.data('DATE ____________', LEFT + 230, top + SIG - 4, 110, 7.5);
  s.label(
    "13. INSURED'S OR AUTHORIZED PERSON'S SIGNATURE I authorize payment of medical benefits",
    C2 + 2,
    top + 9,
    4.8,
  );
  s.label(
    'to the undersigned physician or supplier for services described below.',
    C2 + 2,
    top + 15,
    4.8,
  );
  s.data(
    claim.accept_assignment
      ? 'SIGNED ___________________________'
      : 'Not assigned: pay the insured',
    C2 + 4,
    top + SIG - 4,
    RIGHT - C2 - 8,
    7.5,
  );
  top += SIG;
  return top;
}
