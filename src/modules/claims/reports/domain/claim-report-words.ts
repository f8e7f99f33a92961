import { formatDecimal4 } from '@/platform/kernel/decimal';
import {
  type ClaimAcknowledgment,
  describeSegmentError,
  describeStatus,
  type InterchangeAcknowledgment,
  type Remittance as Remittance835,
  type RemittanceClaim,
  type SetAcknowledgment,
} from '@/lib/x12';
import type { ClaimRemittance, ClaimStatus, RemittanceAdjustment } from '../../store/claim.entity';
import type { RemittanceClaimEntry } from '../store/remittance.entity';

/** status_history details stay readable: the words of every code, within this length. */
const MAX_DETAIL = 1000;

const money = (v: string) => formatDecimal4(v)!;
const clip = (text: string) =>
  text.length > MAX_DETAIL ? `${text.slice(0, MAX_DETAIL - 1)}…` : text;

/** docs/api.md, Claim reports and remittances: CLP02 → the claim's state; null for 23 (not ours) and 25 (predetermination). */
export function statusFromClp(statusCode: string): ClaimStatus | null {
  if (['1', '2', '3', '19', '20', '21'].includes(statusCode)) return 'paid';
  if (statusCode === '4') return 'denied';
  if (statusCode === '22') return 'reversed';
  return null;
}

export function adjustmentsOf(list: RemittanceClaim['adjustments']): RemittanceAdjustment[] {
  return list.map((a) => ({
    group: a.group,
    reason_code: a.reasonCode,
    amount: money(a.amount),
    description: a.description,
  }));
}

/** The CLP as a remittance's detail lists it. */
export function remittanceEntry(
  c: RemittanceClaim,
  claimCode: string | null,
): RemittanceClaimEntry {
  return {
    claim_code: claimCode,
    patient_control_number: c.patientControlNumber,
    status_code: c.statusCode,
    charge: money(c.charge),
    paid_amount: money(c.paid),
    patient_responsibility: money(c.patientResponsibility),
    payer_claim_control_number: c.payerClaimControlNumber || null,
    patient_name: c.patientName,
    adjustments: adjustmentsOf(c.adjustments),
    remarks: remarksOf(c),
    service_lines: c.serviceLines.map((l) => ({
      codes: l.codes,
      charge: money(l.charge),
      paid: money(l.paid),
      adjustments: adjustmentsOf(l.adjustments),
    })),
  };
}

/** The claim's `remittance` (docs/api.md, Claim reports and remittances). */
export function claimRemittance(
  remittanceId: string,
  r: Remittance835,
  c: RemittanceClaim,
): ClaimRemittance {
  const entry = remittanceEntry(c, null);
  return {
    remittance_id: remittanceId,
    status_code: c.statusCode,
    charge: entry.charge,
    paid_amount: entry.paid_amount,
    patient_responsibility: entry.patient_responsibility,
    payer_claim_control_number: entry.payer_claim_control_number,
    paid_at: r.paidAt,
    payment_method: r.paymentMethod,
    trace_number: r.traceNumber,
    adjustments: entry.adjustments,
    remarks: entry.remarks,
    service_lines: entry.service_lines,
  };
}

/** Claim remarks (MIA/MOA) then the lines' LQ remarks, each code once. */
function remarksOf(c: RemittanceClaim) {
  const all = [...c.remarks, ...c.serviceLines.flatMap((l) => l.remarks)];
  return all.filter((m, i) => all.findIndex((x) => x.code === m.code) === i);
}

/** "835 EFT20260115A from VISION BENEFITS PLAN: paid 180.0000 of 250.0000; ..." */
export function describeClp(r: Remittance835, c: RemittanceClaim): string {
  const from = `835 ${r.traceNumber} from ${r.payerName || r.payerId}`;
  const all = [...c.adjustments, ...c.serviceLines.flatMap((l) => l.adjustments)];
  const adjustments = all.map(
    (a) => `${a.group}-${a.reasonCode} ${money(a.amount)} ${a.description}`,
  );
  const remarks = remarksOf(c).map((m) => `${m.code} ${m.description}`);
  const what =
    c.statusCode === '22'
      ? `reversal of the payment of claim ${c.payerClaimControlNumber || c.patientControlNumber}: ${money(c.paid)} taken back`
      : c.statusCode === '4'
        ? `denied, charge ${money(c.charge)}`
        : `paid ${money(c.paid)} of ${money(c.charge)}; patient responsibility ${money(c.patientResponsibility)}`;
  const parts = [`${from}: ${what}.`];
  if (adjustments.length > 0) parts.push(`Adjustments: ${adjustments.join('; ')}.`);
  if (remarks.length > 0) parts.push(`Remarks: ${remarks.join('; ')}.`);
  return clip(parts.join(' '));
}

export function describe999(set: SetAcknowledgment, groupRejected: boolean): string {
  const errors = [
    ...set.syntaxErrors.map((e) => `${e.description} (${e.code})`),
    ...set.segmentErrors.map(describeSegmentError),
  ];
  const head = `999: the 837P (ST02 ${set.setControlNumber}) was rejected${groupRejected && set.status.code === '' ? ' with its functional group' : ''}: ${set.status.description} (${set.status.code})`;
  return clip(errors.length > 0 ? `${head}. ${errors.join('. ')}.` : `${head}.`);
}

export function describeTa1(ta1: InterchangeAcknowledgment): string {
  return clip(
    `TA1: the interchange ${ta1.controlNumber} was rejected: ${ta1.note.description} (${ta1.note.code}).`,
  );
}

export function describe277ca(claim: ClaimAcknowledgment): string {
  const verb = claim.outcome === 'rejected' ? 'rejected' : 'accepted';
  return clip(`277CA: ${verb}. ${claim.statuses.map(describeStatus).join('. ')}.`);
}
