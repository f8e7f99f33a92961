import { toMinor } from '@/platform/kernel/decimal';
import type { RetryPolicy } from '@/platform/kernel/retry';
import {
  CLAIM_STATUS_CATEGORIES,
  CLAIM_STATUS_CODES,
  type ClaimStatusLine,
  describeCode,
} from '@/lib/x12';
import type { ClaimStatus } from '../store/claim.entity';

/** States the payer's decision ends in: no further status checks. */
export const FINAL_STATUSES: readonly ClaimStatus[] = ['rejected', 'paid', 'denied'];

/** the Claim lifecycle section's (docs/api.md) arrows: where a claim may go from each state. */
const NEXT: Readonly<Record<ClaimStatus, readonly ClaimStatus[]>> = {
  ready: ['ready_to_mail', 'submitted', 'submission_failed'],
  // docs/api.md, Errors: the paper form waits for the patient (or the practice) to mail it.
  ready_to_mail: ['submitted'],
  submission_failed: ['submitted', 'submission_failed'],
  submitted: ['accepted', 'rejected', 'paid', 'denied'],
  // docs/api.md, Claim reports and remittances: the clearinghouse's 277CA accepts (A1), the payer's may still reject (A3).
  accepted: ['rejected', 'paid', 'denied'],
  rejected: [],
  // docs/api.md, Claim reports and remittances: an 835 reversal (CLP02 22) takes back a decision; a later 835 decides again.
  paid: ['reversed'],
  denied: ['reversed'],
  reversed: ['paid', 'denied'],
};

export function canMove(from: ClaimStatus, to: ClaimStatus): boolean {
  return NEXT[from].includes(to);
}

/** Transient submission failures: base × 1, 2, 4, ... up to CLAIM_SUBMIT_MAX_ATTEMPTS in all. */
export const submitRetries = (config: { submitRetryBaseMs: number; submitMaxAttempts: number }) =>
  ({
    doublingFromMs: config.submitRetryBaseMs,
    maxAttempts: config.submitMaxAttempts,
  }) satisfies RetryPolicy;

/**
 * What a 277 status (STC01-1, the claim status category of code list 507) means for the claim:
 * A2/A5 (accepted into adjudication), P* (pending) and R* (more information requested) → accepted;
 * A3/A6/A7/A8 (returned, rejected) → rejected; F1 → paid; F2/F4 → denied; F0/F3 (finalized) →
 * paid when an amount was paid, else denied. A0/A1 (received), A4 (not found) and E* (the
 * payer's system) change nothing: the next check asks again.
 */
export function statusFrom277(line: ClaimStatusLine): ClaimStatus | null {
  const c = line.category.toUpperCase();
  if (c === 'A2' || c === 'A5' || /^P\d$/.test(c) || /^R\d+$/.test(c)) return 'accepted';
  if (['A3', 'A6', 'A7', 'A8'].includes(c)) return 'rejected';
  if (c === 'F1') return 'paid';
  if (c === 'F2' || c === 'F4') return 'denied';
  if (c === 'F0' || c === 'F3') {
    const paid = line.paymentAmount ? toMinor(line.paymentAmount) > 0n : false;
    return paid ? 'paid' : 'denied';
  }
  return null;
}

/**
 * The 277's words for the history (docs/api.md, Claim reports and remittances: details in words): `277 F1:65 (Finalized/
 * Payment-...; Claim/line has been paid.), paid 250.00: <payer's message>`.
 */
export function describe277(line: ClaimStatusLine): string {
  const words = [
    describeCode(CLAIM_STATUS_CATEGORIES, line.category.toUpperCase()),
    ...(line.code ? [describeCode(CLAIM_STATUS_CODES, line.code)] : []),
  ].join('; ');
  const parts = [`277 ${[line.category, line.code].filter(Boolean).join(':')} (${words})`];
  if (line.paymentAmount !== null) parts.push(`paid ${line.paymentAmount}`);
  const text = parts.join(', ');
  return (line.message ? `${text}: ${line.message}` : text).slice(0, 1000);
}
