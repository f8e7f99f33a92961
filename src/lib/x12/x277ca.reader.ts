import {
  CLAIM_STATUS_CATEGORIES,
  CLAIM_STATUS_CODES,
  describeCode,
  ENTITY_IDENTIFIERS,
} from './codes';
import { readDate, readDecimal } from './x12.elements';
import type { TransactionSet } from './x12.envelope';
import { pad2, type Segment } from './x12.segment';

type StatusInformation = ReturnType<typeof readStatus>;

/** The acknowledgement of one claim (loop 2200D of a 277CA). */
export interface ClaimAcknowledgment {
  /** TRN02: the patient control number we sent in CLM01 (our claim code). */
  patientControlNumber: string;
  /** REF*1K: the payer's claim control number; REF*D9: the clearinghouse trace number. */
  payerClaimNumber: string | null;
  clearinghouseTrace: string | null;
  statuses: StatusInformation[];
  /** The contract's reading (docs/api.md, Claim reports and remittances): `accepted`, `rejected`, or null (pending, ...). */
  outcome: 'accepted' | 'rejected' | null;
}

export interface ClaimAcknowledgmentReport {
  /** STCs of the information receiver and billing provider levels (the whole batch). */
  batchStatuses: StatusInformation[];
  claims: ClaimAcknowledgment[];
}

const ACCEPTED = new Set(['A1', 'A2', 'A5']);
const REJECTED = new Set(['A3', 'A4', 'A6', 'A7', 'A8']);

/**
 * Reads a 277CA (005010X214): HL levels 20 (information source), 21 (information receiver),
 * 19 (billing provider) and PT (patient, one claim per TRN*2). Service line loops (SVC) are
 * read for their statuses, which count towards the claim's outcome.
 */
export function read277ca(set: TransactionSet): ClaimAcknowledgmentReport {
  if (set.type !== '277') throw set.st.error(`transaction set ${set.type}: expected a 277`);
  const report: ClaimAcknowledgmentReport = { batchStatuses: [], claims: [] };
  let level = '';
  let claim: ClaimAcknowledgment | null = null;
  for (const s of set.segments) {
    if (s.id === 'HL') {
      level = s.required(3);
      if (!['20', '21', '19', 'PT', '22', '23'].includes(level))
        throw s.error(`HL03 ${JSON.stringify(level)}: a 277CA has levels 20, 21, 19 and PT`);
      claim = null;
    } else if (s.id === 'TRN' && level === 'PT') {
      claim = {
        patientControlNumber: s.required(2),
        payerClaimNumber: null,
        clearinghouseTrace: null,
        statuses: [],
        outcome: null,
      };
      report.claims.push(claim);
    } else if (s.id === 'STC') {
      if (level === 'PT') {
        if (!claim) throw s.error('STC at the patient level before the claim TRN*2');
        claim.statuses.push(readStatus(s));
      } else if (level === '21' || level === '19') report.batchStatuses.push(readStatus(s));
    } else if (s.id === 'REF' && claim) {
      if (s.el(1) === '1K') claim.payerClaimNumber = s.el(2);
      else if (s.el(1) === 'D9') claim.clearinghouseTrace = s.el(2);
    }
  }
  for (const c of report.claims) c.outcome = outcomeOf(c.statuses);
  return report;
}

/** A rejection anywhere in the claim's statuses wins over an acceptance. */
function outcomeOf(statuses: StatusInformation[]): 'accepted' | 'rejected' | null {
  const categories = statuses.flatMap((s) => s.reasons.map((r) => r.category));
  if (categories.some((c) => REJECTED.has(c))) return 'rejected';
  if (categories.some((c) => ACCEPTED.has(c))) return 'accepted';
  return null;
}

/** "A7 (Acknowledgement/Rejected for Invalid Information ...): 562 Entity's National ..." */
export function describeStatus(status: StatusInformation): string {
  return status.reasons
    .map(
      (r) =>
        `${r.category} ${r.categoryDescription}; ${r.code} ${r.codeDescription}${r.entity ? `; entity ${r.entity} ${r.entityDescription}` : ''}`,
    )
    .join(' / ');
}

function readStatus(s: Segment) {
  const reasons = [1, 10, 11]
    .filter((n) => s.el(n) !== '')
    .map((n) => {
      const [category = '', code = '', entity = ''] = s.components(n);
      if (!/^[A-Z][0-9A-Z]$/.test(category))
        throw s.error(
          `STC${pad2(n)}-1 ${JSON.stringify(category)} is not a claim status category code`,
        );
      if (code === '') throw s.error(`STC${pad2(n)}-2 (the claim status code) is required`);
      // One STC01 (or STC10/STC11) composite with the words of its codes.
      return {
        category,
        categoryDescription: describeCode(CLAIM_STATUS_CATEGORIES, category),
        code,
        codeDescription: describeCode(CLAIM_STATUS_CODES, code),
        /** STC01-3, '' when not sent. */
        entity,
        entityDescription: entity ? describeCode(ENTITY_IDENTIFIERS, entity) : '',
      };
    });
  if (reasons.length === 0 || s.el(1) === '') throw s.error('STC01 is required but empty');
  return {
    /** STC01, then STC10 and STC11 when sent. */
    reasons,
    /** STC02 as `YYYY-MM-DD`, or null. */
    date: s.el(2) ? readDate(s, 2) : null,
    /** STC03: `WQ` accept, `U` reject. */
    action: s.el(3),
    /** STC04: the total charge the status is about. */
    amount: readDecimal(s, 4),
    /** STC12: free text. */
    message: s.el(12),
    segment: s.position,
  };
}
