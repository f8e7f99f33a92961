import {
  ACKNOWLEDGMENT_CODES,
  describeCode,
  describedCodes,
  ELEMENT_ERRORS,
  GROUP_SYNTAX_ERRORS,
  INTERCHANGE_NOTES,
  SEGMENT_ERRORS,
  SET_SYNTAX_ERRORS,
} from './codes';
import type { TransactionSet } from './x12.envelope';
import { pad2, type Segment } from './x12.segment';

/** A coded reason with its words from the shipped tables. */
interface CodedReason {
  code: string;
  description: string;
}

/** IK4: one element in error inside the segment an IK3 names. */
interface ElementError extends CodedReason {
  /** IK401-1/-2/-3: element position in the segment, component, repetition. */
  position: number;
  component: number | null;
  repetition: number | null;
  /** IK402: the data element reference number (e.g. 67 for NM109). */
  reference: string;
  /** IK404: a copy of the bad data, when sent. */
  badData: string;
}

/** IK3: one segment of the acknowledged set in error. */
interface SegmentError extends CodedReason {
  /** IK301: the segment id (NM1). */
  segmentId: string;
  /** IK302: its position in the acknowledged set, ST = 1. */
  position: number;
  /** IK303: the loop it sits in (2010), '' when not sent. */
  loop: string;
  /** CTX business unit context, e.g. `CLM01:CLM-3001`, when sent. */
  context: string[];
  elements: ElementError[];
}

/** AK2/IK5: the acknowledgement of one transaction set of ours. */
export interface SetAcknowledgment {
  /** AK201 and AK202: the acknowledged set's type and ST02. */
  setType: string;
  setControlNumber: string;
  /** IK501 (`A`, `E`, `R`, ...). */
  status: CodedReason;
  /** IK502-IK506. */
  syntaxErrors: CodedReason[];
  segmentErrors: SegmentError[];
}

/** AK1..AK9: the acknowledgement of one functional group of ours. */
export interface GroupAcknowledgment {
  /** AK101 (`HC` for an 837) and AK102 (our GS06). */
  functionalId: string;
  groupControlNumber: string;
  /** AK901 (`A`, `E`, `P`, `R`). */
  status: CodedReason;
  /** AK902..AK904: sets included, received, accepted. */
  included: number;
  received: number;
  accepted: number;
  syntaxErrors: CodedReason[];
  sets: SetAcknowledgment[];
}

export type InterchangeAcknowledgment = ReturnType<typeof readTa1>;

/** Reads a 999 (005010X231A1) transaction set. */
export function read999(set: TransactionSet): GroupAcknowledgment[] {
  const groups: GroupAcknowledgment[] = [];
  let group: GroupAcknowledgment | null = null;
  let current: SetAcknowledgment | null = null;
  let segment: SegmentError | null = null;
  for (const s of set.segments) {
    switch (s.id) {
      case 'AK1':
        group = {
          functionalId: s.required(1),
          groupControlNumber: s.required(2),
          status: { code: '', description: '' },
          included: 0,
          received: 0,
          accepted: 0,
          syntaxErrors: [],
          sets: [],
        };
        groups.push(group);
        current = null;
        segment = null;
        break;
      case 'AK2':
        if (!group) throw s.error('AK2 before AK1: a set acknowledgement needs its group');
        current = {
          setType: s.required(1),
          setControlNumber: s.required(2),
          status: { code: '', description: '' },
          syntaxErrors: [],
          segmentErrors: [],
        };
        group.sets.push(current);
        segment = null;
        break;
      case 'IK3':
        if (!current) throw s.error('IK3 outside an AK2 loop: a segment error needs its set');
        segment = {
          segmentId: s.required(1),
          position: count(s, 2),
          loop: s.el(3),
          ...coded(s, 4, SEGMENT_ERRORS),
          context: [],
          elements: [],
        };
        current.segmentErrors.push(segment);
        break;
      case 'CTX':
        if (segment) segment.context.push(s.el(1));
        break;
      case 'IK4': {
        if (!segment) throw s.error('IK4 outside an IK3 loop: an element error needs its segment');
        const [position = '', component = '', repetition = ''] = s.components(1);
        segment.elements.push({
          position: positive(s, 1, position),
          component: component ? positive(s, 1, component) : null,
          repetition: repetition ? positive(s, 1, repetition) : null,
          reference: s.el(2),
          ...coded(s, 3, ELEMENT_ERRORS),
          badData: s.el(4),
        });
        break;
      }
      case 'IK5':
        if (!current) throw s.error('IK5 outside an AK2 loop');
        current.status = coded(s, 1, ACKNOWLEDGMENT_CODES);
        current.syntaxErrors = describedCodes(s, [2, 3, 4, 5, 6], SET_SYNTAX_ERRORS);
        current = null;
        segment = null;
        break;
      case 'AK9':
        if (!group) throw s.error('AK9 before AK1');
        group.status = coded(s, 1, ACKNOWLEDGMENT_CODES);
        group.included = count(s, 2);
        group.received = count(s, 3);
        group.accepted = count(s, 4);
        group.syntaxErrors = describedCodes(s, [5, 6, 7, 8, 9], GROUP_SYNTAX_ERRORS);
        group = null;
        break;
      default:
        throw s.error(`unexpected ${s.id} in a 999 (expected AK1, AK2, IK3, CTX, IK4, IK5, AK9)`);
    }
  }
  for (const g of groups) {
    if (g.status.code === '')
      throw set.st.error(`the 999 acknowledges group ${g.groupControlNumber} without an AK9`);
    for (const a of g.sets)
      if (a.status.code === '')
        throw set.st.error(`the 999 acknowledges set ${a.setControlNumber} without an IK5`);
  }
  if (groups.length === 0) throw set.st.error('the 999 has no AK1 (no group acknowledged)');
  return groups;
}

/** TA1: the acknowledgement of one interchange of ours. */
export function readTa1(s: Segment) {
  const status = coded(s, 4, { A: 'Accepted', E: 'Accepted With Errors', R: 'Rejected' });
  if (!['A', 'E', 'R'].includes(status.code))
    throw s.error(`TA104 ${JSON.stringify(status.code)}: expected A, E or R`);
  // TA101 (our ISA13), TA104 (`A`, `E` or `R`) and TA105 (the note code).
  return { controlNumber: s.required(1), status, note: coded(s, 5, INTERCHANGE_NOTES) };
}

/** A 999 set or group is rejected by `R`, `M`, `W` or `X`; `A`, `E` and `P` let sets through. */
export function isRejection(code: string): boolean {
  return ['R', 'M', 'W', 'X'].includes(code);
}

/** Words for a segment error, e.g. for a claim's status history. */
export function describeSegmentError(e: SegmentError): string {
  const where = `${e.segmentId} at segment ${e.position}${e.loop ? ` (loop ${e.loop})` : ''}`;
  const elements = e.elements.map(
    (x) =>
      `element ${e.segmentId}${pad2(x.position)}${x.component ? `-${x.component}` : ''}: ${x.description} (${x.code})${x.badData ? ` in ${JSON.stringify(x.badData)}` : ''}`,
  );
  return [`${where}: ${e.description} (${e.code})`, ...elements].join('; ');
}

function coded(s: Segment, n: number, table: Readonly<Record<string, string>>): CodedReason {
  const code = s.required(n);
  return { code, description: describeCode(table, code) };
}

function count(s: Segment, n: number): number {
  return positive(s, n, s.required(n), true);
}

function positive(s: Segment, n: number, value: string, zero = false): number {
  if (!/^\d+$/.test(value) || (!zero && Number(value) === 0))
    throw s.error(
      `${s.id}${pad2(n)} ${JSON.stringify(value)} is not a ${zero ? 'count' : 'position'}`,
    );
  return Number(value);
}
