import { ADJUSTMENT_GROUPS, CARC, describeCode } from './codes';
import { readDate, readDecimal } from './x12.elements';
import { pad2, type Segment } from './x12.segment';
import type { RemittanceClaim, RemittanceServiceLine } from './x835.reader';

/** The 835's segment readers: CLP, CAS, SVC and PLB, and required amounts. */

const CLAIM_STATUSES = ['1', '2', '3', '4', '19', '20', '21', '22', '23', '25'];
const GROUPS = Object.keys(ADJUSTMENT_GROUPS);

export function readClp(s: Segment): RemittanceClaim {
  const statusCode = s.required(2);
  if (!CLAIM_STATUSES.includes(statusCode))
    throw s.error(
      `CLP02 ${JSON.stringify(statusCode)} is not a claim status code (expected ${CLAIM_STATUSES.join(', ')})`,
    );
  return {
    patientControlNumber: s.required(1),
    statusCode,
    charge: amount(s, 3),
    paid: amount(s, 4),
    patientResponsibility: readDecimal(s, 5) ?? '0',
    filingIndicator: s.el(6),
    payerClaimControlNumber: s.el(7),
    patientName: '',
    serviceFrom: null,
    serviceTo: null,
    adjustments: [],
    remarks: [],
    serviceLines: [],
    segment: s.position,
  };
}

export type Adjustment = ReturnType<typeof readCas>[number];
export type ProviderAdjustment = ReturnType<typeof readPlb>[number];

/** CAS: a group code, then up to six (reason, amount, quantity) triplets. */
export function readCas(s: Segment) {
  const group = s.required(1);
  if (!GROUPS.includes(group))
    throw s.error(`CAS01 ${JSON.stringify(group)}: expected ${GROUPS.join(', ')}`);
  const out = [2, 5, 8, 11, 14, 17].flatMap((n) => {
    const reasonCode = s.el(n);
    if (reasonCode === '' && s.el(n + 1) !== '')
      throw s.error(`CAS${pad2(n + 1)} has an amount without a reason code`);
    if (reasonCode === '') return [];
    return {
      /** CAS01: `CO`, `CR`, `OA`, `PI`, `PR`. */
      group,
      /** CARC. */
      reasonCode,
      amount: amount(s, n + 1),
      quantity: readDecimal(s, n + 2),
      /** The CARC's words ("Unknown code X" for a code the shipped table lacks). */
      description: describeCode(CARC, reasonCode),
      segment: s.position,
    };
  });
  if (out.length === 0) throw s.error('CAS02 (the adjustment reason code) is required but empty');
  return out;
}

export function readSvc(s: Segment): RemittanceServiceLine {
  const [qualifier = '', ...rest] = s.components(1);
  const codes = rest.slice(0, 5).filter((c) => c !== '');
  if (codes.length === 0) throw s.error('SVC01-2 (the procedure code) is required but empty');
  return {
    qualifier,
    codes,
    charge: amount(s, 2),
    paid: amount(s, 3),
    units: readDecimal(s, 5) ?? '1',
    serviceDate: null,
    allowed: null,
    adjustments: [],
    remarks: [],
    segment: s.position,
  };
}

/** PLB: a provider, a date, then up to six (reason:reference, amount) pairs. */
export function readPlb(s: Segment) {
  const provider = s.required(1);
  const fiscalPeriodEnd = readDate(s, 2, s.required(2));
  const out = [3, 5, 7, 9, 11, 13].flatMap((n) => {
    if (s.el(n) === '') return [];
    const [reason = '', reference = ''] = s.components(n);
    return {
      /** PLB01 (provider id), PLB02 (fiscal period end, `YYYY-MM-DD`). */
      provider,
      fiscalPeriodEnd,
      /** PLB03-1 (`WO` overpayment recovery, `L6` interest, `FB` forwarding balance, ...), PLB03-2. */
      reason,
      reference,
      /** Positive reduces the payment, negative adds to it. */
      amount: amount(s, n + 1),
    };
  });
  if (out.length === 0) throw s.error('PLB03 (the adjustment reason) is required but empty');
  return out;
}

export function amount(s: Segment, n: number): string {
  const value = readDecimal(s, n);
  if (value === null) throw s.error(`${s.id}${pad2(n)} is required but empty`);
  return value;
}
