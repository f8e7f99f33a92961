import { fromMinor, toMinor } from '@/platform/kernel/decimal';
import { readDate } from './x12.elements';
import type { TransactionSet } from './x12.envelope';
import { describedCodes, RARC } from './codes';
import { amount, readCas, readClp, readPlb, readSvc } from './x835.segments';
import type { Adjustment, ProviderAdjustment } from './x835.segments';

export type { Adjustment, ProviderAdjustment } from './x835.segments';

export interface Remark {
  code: string;
  description: string;
}

export interface RemittanceServiceLine {
  /** SVC01-1 (`HC`) and the procedure code then its modifiers (SVC01-2..-6). */
  qualifier: string;
  codes: string[];
  charge: string;
  paid: string;
  /** SVC05: units paid (1 when not sent). */
  units: string;
  /** DTM*472 (or DTM*150) as `YYYY-MM-DD`. */
  serviceDate: string | null;
  /** AMT*B6: the allowed amount. */
  allowed: string | null;
  adjustments: Adjustment[];
  remarks: Remark[];
  segment: number;
}

export interface RemittanceClaim {
  /** CLP01: our patient control number (the claim code sent in CLM01). */
  patientControlNumber: string;
  /** CLP02: `1`/`2`/`3`/`19`-`21` processed, `4` denied, `22` reversal, `23` not our claim, `25` predetermination. */
  statusCode: string;
  charge: string;
  paid: string;
  /** CLP05, '0' when not sent. */
  patientResponsibility: string;
  /** CLP06 claim filing indicator, CLP07 the payer's claim control number. */
  filingIndicator: string;
  payerClaimControlNumber: string;
  /** NM1*QC: the patient's name as the payer has it (for an operator matching by hand). */
  patientName: string;
  /** DTM*232 / DTM*233: the claim's service period. */
  serviceFrom: string | null;
  serviceTo: string | null;
  /** Claim-level CAS (loop 2100). */
  adjustments: Adjustment[];
  /** MIA/MOA remark codes. */
  remarks: Remark[];
  serviceLines: RemittanceServiceLine[];
  segment: number;
}

export interface Remittance {
  setControlNumber: string;
  /** BPR01: `I` remittance with payment, `H` notification only, ... */
  handling: string;
  /** BPR02 and BPR03 (`C` credit, `D` debit). */
  paymentAmount: string;
  creditDebit: string;
  /** BPR04: `ACH`, `CHK`, `BOP`, `FWT`, `NON`. */
  paymentMethod: string;
  /** BPR16 (the payment's effective date), else DTM*405 (production date). */
  paidAt: string | null;
  productionDate: string | null;
  /** TRN02: the check or EFT trace number; TRN03: the payer's identifier. */
  traceNumber: string;
  originator: string;
  payerName: string;
  /** TRN03, else REF*2U, else N1*PR N104, else the payer's name: what makes (payer, TRN02) unique. */
  payerId: string;
  payeeName: string;
  payeeNpi: string;
  claims: RemittanceClaim[];
  providerAdjustments: ProviderAdjustment[];
  /** Arithmetic that does not balance (claim, line or payment), named by segment. */
  warnings: string[];
}

const METHODS = ['ACH', 'BOP', 'CHK', 'FWT', 'NON'];

/**
 * Reads an 835 (005010X221A1): header (BPR, TRN, DTM*405), 1000A payer (N1*PR, REF*2U),
 * 1000B payee (N1*PE), 2000 (LX), 2100 claims (CLP, CAS, NM1, MIA, MOA, REF, DTM, AMT), 2110
 * service lines (SVC, DTM, CAS, REF, AMT, LQ) and PLB provider adjustments.
 */
export function read835(set: TransactionSet): Remittance {
  if (set.type !== '835') throw set.st.error(`transaction set ${set.type}: expected an 835`);
  const bpr = set.segments[0];
  if (!bpr || bpr.id !== 'BPR')
    throw (bpr ?? set.st).error('an 835 starts with BPR (financial information) after ST');
  const method = bpr.required(4);
  if (!METHODS.includes(method))
    throw bpr.error(`BPR04 ${JSON.stringify(method)}: expected ${METHODS.join(', ')}`);
  const r: Remittance = {
    setControlNumber: set.controlNumber,
    handling: bpr.required(1),
    paymentAmount: amount(bpr, 2),
    creditDebit: bpr.required(3),
    paymentMethod: method,
    paidAt: bpr.el(16) ? readDate(bpr, 16) : null,
    productionDate: null,
    traceNumber: '',
    originator: '',
    payerName: '',
    payerId: '',
    payeeName: '',
    payeeNpi: '',
    claims: [],
    providerAdjustments: [],
    warnings: [],
  };
  let n1 = '';
  let payerRef = '';
  let payerN104 = '';
  let claim: RemittanceClaim | null = null;
  let line: RemittanceServiceLine | null = null;
  for (const s of set.segments.slice(1)) {
    switch (s.id) {
      case 'TRN':
        if (r.traceNumber) throw s.error('a second TRN: an 835 has one trace number');
        r.traceNumber = s.required(2);
        r.originator = s.el(3);
        break;
      case 'DTM':
        if (line) {
          if (['472', '150'].includes(s.el(1))) line.serviceDate = readDate(s, 2);
        } else if (claim) {
          if (s.el(1) === '232') claim.serviceFrom = readDate(s, 2);
          else if (s.el(1) === '233') claim.serviceTo = readDate(s, 2);
        } else if (s.el(1) === '405') r.productionDate = readDate(s, 2);
        break;
      case 'N1':
        n1 = s.required(1);
        if (n1 === 'PR') {
          r.payerName = s.el(2);
          payerN104 = s.el(4);
        } else if (n1 === 'PE') {
          r.payeeName = s.el(2);
          if (s.el(3) === 'XX') r.payeeNpi = s.el(4);
        }
        break;
      case 'REF':
        if (!claim && n1 === 'PR' && s.el(1) === '2U') payerRef = s.el(2);
        break;
      case 'CLP':
        line = null;
        claim = readClp(s);
        r.claims.push(claim);
        break;
      case 'CAS':
        if (!claim) throw s.error('CAS before any CLP: an adjustment belongs to a claim or a line');
        (line ?? claim).adjustments.push(...readCas(s));
        break;
      case 'NM1':
        if (claim && !line && s.el(1) === 'QC')
          claim.patientName = [s.el(4), s.el(3)].filter(Boolean).join(' ');
        break;
      case 'MIA':
        if (!claim) throw s.error('MIA before any CLP');
        claim.remarks.push(...describedCodes(s, [5, 20, 21, 22, 23], RARC));
        break;
      case 'MOA':
        if (!claim) throw s.error('MOA before any CLP');
        claim.remarks.push(...describedCodes(s, [3, 4, 5, 6, 7], RARC));
        break;
      case 'SVC':
        if (!claim) throw s.error('SVC before any CLP: a service line belongs to a claim');
        line = readSvc(s);
        claim.serviceLines.push(line);
        break;
      case 'AMT':
        if (line && s.el(1) === 'B6') line.allowed = amount(s, 2);
        break;
      case 'LQ':
        if (!line) throw s.error('LQ outside a service line (loop 2110)');
        if (s.el(1) === 'HE') line.remarks.push(...describedCodes(s, [2], RARC));
        break;
      case 'PLB':
        claim = null;
        line = null;
        r.providerAdjustments.push(...readPlb(s));
        break;
      case 'LX':
        claim = null;
        line = null;
        break;
      default:
        break;
    }
  }
  if (!r.traceNumber) throw set.st.error('the 835 has no TRN (reassociation trace number)');
  if (!r.payerName && !payerN104) throw set.st.error('the 835 has no N1*PR (payer identification)');
  r.payerId = r.originator || payerRef || payerN104 || r.payerName;
  r.paidAt = r.paidAt ?? r.productionDate;
  balance(r);
  return r;
}

const minor = (v: string) => toMinor(v);
const sum = (values: string[]) => values.reduce((a, v) => a + minor(v), 0n);

/**
 * The 835's balancing rules: a line's charge less its adjustments is its payment; a claim's
 * charge less every adjustment (claim and lines) is its payment; the claims' payments less the
 * provider adjustments are BPR02. A payer's slip is kept as a warning, not a refusal: the money
 * moved whatever the arithmetic says.
 */
function balance(r: Remittance) {
  for (const c of r.claims) {
    for (const l of c.serviceLines) {
      const left = minor(l.charge) - sum(l.adjustments.map((a) => a.amount));
      if (left !== minor(l.paid))
        r.warnings.push(
          `X12 segment ${l.segment} (SVC): charge ${l.charge} less adjustments is ${fromMinor(left)}, SVC03 paid is ${l.paid}`,
        );
    }
    const adjusted =
      sum(c.adjustments.map((a) => a.amount)) +
      sum(c.serviceLines.flatMap((l) => l.adjustments.map((a) => a.amount)));
    if (minor(c.charge) - adjusted !== minor(c.paid))
      r.warnings.push(
        `X12 segment ${c.segment} (CLP): charge ${c.charge} less adjustments is ${fromMinor(minor(c.charge) - adjusted)}, CLP04 paid is ${c.paid}`,
      );
  }
  const total = sum(r.claims.map((c) => c.paid)) - sum(r.providerAdjustments.map((p) => p.amount));
  if (total !== minor(r.paymentAmount))
    r.warnings.push(
      `X12 BPR02 is ${r.paymentAmount}, the claims' payments less provider adjustments are ${fromMinor(total)}`,
    );
}
