import { readDate, readDecimal } from './x12.elements';
import { readInterchange } from './x12.envelope';
import type { Segment } from './x12.segment';

export type ClaimStatusLine = ReturnType<typeof readStc>;

/** The status of one claim in a 277: the 2200 loop that echoes a 276's trace. */
interface ClaimStatus277 {
  /** TRN02 of the TRN*2 (the 276's trace echoed). */
  trace: string;
  /** REF*1K (payer's claim number) and REF*EJ (patient control number) when given. */
  payerClaimNumber: string | null;
  patientControlNumber: string | null;
  /** Every STC of the loop, the current status first. */
  statuses: ClaimStatusLine[];
}

/**
 * Reads the claim status loops of a 277 (005010X212): each TRN*2 opens a claim, the STC and REF
 * segments after it (up to the next HL or TRN) belong to it.
 */
export function read277(text: string): ClaimStatus277[] {
  const interchange = readInterchange(text);
  const claims: ClaimStatus277[] = [];
  for (const group of interchange.groups) {
    for (const set of group.transactions) {
      if (set.type !== '277') throw set.st.error(`transaction set ${set.type}: expected a 277`);
      let current: ClaimStatus277 | null = null;
      for (const s of set.segments) {
        if (s.id === 'HL' || (s.id === 'TRN' && s.el(1) !== '2')) current = null;
        else if (s.id === 'TRN') {
          current = {
            trace: s.required(2),
            payerClaimNumber: null,
            patientControlNumber: null,
            statuses: [],
          };
          claims.push(current);
        } else if (current && s.id === 'STC') current.statuses.push(readStc(s));
        else if (current && s.id === 'REF' && s.el(1) === '1K') current.payerClaimNumber = s.el(2);
        else if (current && s.id === 'REF' && s.el(1) === 'EJ')
          current.patientControlNumber = s.el(2);
      }
    }
  }
  return claims;
}

/** One STC: a claim's status as the payer (or the clearinghouse) states it. */
function readStc(s: Segment) {
  const [category = '', code = '', entity = ''] = s.components(1);
  if (category === '') throw s.error('STC01 needs a status category code');
  return {
    /** STC01-1: `A1` received, `A2` accepted, `A3`/`A6`/`A7` rejected, `P*` pending, `F1` paid, `F2` denied, ... */
    category,
    /** STC01-2: the status code (code list 508). */
    code,
    /** STC01-3: the entity the status is about (`PR` payer, `41` submitter, ...). */
    entity,
    /** STC02: when the status took effect, `YYYY-MM-DD` or null. */
    date: s.el(2) ? readDate(s, 2) : null,
    /** STC04 and STC05: total charge and payment amount, as sent. */
    totalCharge: readDecimal(s, 4),
    paymentAmount: readDecimal(s, 5),
    /** STC12: free-form text. */
    message: s.el(12),
  };
}
