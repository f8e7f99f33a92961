import { X12ParseError } from './x12.errors';
import { Segment, Separators } from './x12.segment';
import { tokenize } from './x12.tokenizer';

export interface IsaHeader {
  senderQualifier: string;
  senderId: string;
  receiverQualifier: string;
  receiverId: string;
  /** ISA09 YYMMDD and ISA10 HHMM, as sent. */
  date: string;
  time: string;
  version: string;
  controlNumber: string;
  acknowledgmentRequested: string;
  /** ISA15: `T` test, `P` production. */
  usage: string;
}

export interface TransactionSet {
  /** ST01: `270`, `271`, `837`, ... */
  type: string;
  controlNumber: string;
  /** ST03: `005010X279A1`, ... */
  implementationReference: string;
  /** The segments between ST and SE. */
  segments: Segment[];
  st: Segment;
}

export interface FunctionalGroup {
  /** GS01: `HS` (270), `HB` (271), `HC` (837), ... */
  functionalId: string;
  senderId: string;
  receiverId: string;
  date: string;
  time: string;
  controlNumber: string;
  version: string;
  transactions: TransactionSet[];
}

export interface Interchange {
  separators: Separators;
  isa: IsaHeader;
  groups: FunctionalGroup[];
  /** Envelope slips read past in tolerant mode, in words (empty when strict or clean). */
  slips: string[];
}

export interface ReadOptions {
  /**
   * docs/api.md, Real insurers: payers' 271s carry envelope slips that say nothing about the answer (SE01
   * count, SE02 ≠ ST02, GE02 ≠ GS06, IEA02 ≠ ISA13, a TA1 between ISA and GS). Tolerant reading
   * records them in `slips` instead of refusing the interchange.
   */
  tolerant?: boolean;
}

/** Where a check that fails goes: thrown (strict) or recorded (tolerant). */
interface Slips {
  tolerant: boolean;
  list: string[];
}

/**
 * Reads an interchange and checks its envelopes: every GS closed by a GE, every ST by an SE,
 * SE01 / GE01 / IEA01 counts right, SE02 / GE02 / IEA02 equal to ST02 / GS06 / ISA13.
 */
export function readInterchange(text: string, options: ReadOptions = {}): Interchange {
  const { separators, segments } = tokenize(text);
  const slips: Slips = { tolerant: options.tolerant === true, list: [] };
  const [isaSegment, ...body] = segments;
  const rest = slips.tolerant ? skipTa1(body, slips) : body;
  const isa: IsaHeader = {
    senderQualifier: isaSegment.el(5),
    senderId: isaSegment.el(6),
    receiverQualifier: isaSegment.el(7),
    receiverId: isaSegment.el(8),
    date: isaSegment.el(9),
    time: isaSegment.el(10),
    version: isaSegment.el(12),
    controlNumber: isaSegment.el(13),
    acknowledgmentRequested: isaSegment.el(14),
    usage: isaSegment.el(15),
  };
  const groups: FunctionalGroup[] = [];
  let i = 0;
  while (i < rest.length && rest[i].id === 'GS') {
    const [group, next] = readGroup(rest, i, slips);
    groups.push(group);
    i = next;
  }
  const iea = rest[i];
  if (!iea) {
    const last = rest.at(-1) ?? isaSegment;
    throw new X12ParseError(
      `X12: truncated interchange: no IEA segment (the text ends after ${last.label})`,
    );
  }
  if (iea.id !== 'IEA') {
    throw iea.error('expected GS (a functional group) or IEA (the end of the interchange)');
  }
  if (i + 1 < rest.length)
    throw rest[i + 1].error('a segment after IEA, the end of the interchange');
  checkCount(iea, iea.required(1), groups.length, 'IEA01', 'functional groups');
  checkControl(iea, 'IEA02', iea.el(2), 'ISA13', isa.controlNumber, slips);
  if (groups.length === 0) throw iea.error('the interchange has no functional group');
  return { separators, isa, groups, slips: slips.list };
}

/** TA1 (an interchange acknowledgment) may stand between ISA and the first GS. */
function skipTa1(segments: Segment[], slips: Slips): Segment[] {
  let i = 0;
  while (segments[i]?.id === 'TA1') {
    slips.list.push(`${segments[i].label}: a TA1 between ISA and GS, read past`);
    i++;
  }
  return segments.slice(i);
}

function readGroup(segments: Segment[], start: number, slips: Slips): [FunctionalGroup, number] {
  const gs = segments[start];
  const group: FunctionalGroup = {
    functionalId: gs.required(1),
    senderId: gs.el(2),
    receiverId: gs.el(3),
    date: gs.el(4),
    time: gs.el(5),
    controlNumber: gs.required(6),
    version: gs.el(8),
    transactions: [],
  };
  let i = start + 1;
  while (i < segments.length && segments[i].id === 'ST') {
    const [transaction, next] = readTransaction(segments, i, slips);
    group.transactions.push(transaction);
    i = next;
  }
  const ge = segments[i];
  if (!ge) {
    throw new X12ParseError(
      `X12: truncated interchange: the functional group of ${gs.label} (GS06 ${group.controlNumber}) has no GE segment`,
    );
  }
  if (ge.id !== 'GE')
    throw ge.error('expected ST (a transaction set) or GE (the end of the group)');
  checkCount(ge, ge.required(1), group.transactions.length, 'GE01', 'transaction sets');
  checkControl(ge, 'GE02', ge.el(2), 'GS06', group.controlNumber, slips);
  return [group, i + 1];
}

function readTransaction(
  segments: Segment[],
  start: number,
  slips: Slips,
): [TransactionSet, number] {
  const st = segments[start];
  const transaction: TransactionSet = {
    type: st.required(1),
    controlNumber: st.required(2),
    implementationReference: st.el(3),
    segments: [],
    st,
  };
  let i = start + 1;
  for (; i < segments.length; i++) {
    const segment = segments[i];
    if (segment.id === 'SE') break;
    if (['ST', 'GE', 'GS', 'IEA', 'ISA'].includes(segment.id)) {
      throw segment.error(
        `${segment.id} inside transaction set ${transaction.controlNumber} of ${st.label}, which has no SE yet`,
      );
    }
    transaction.segments.push(segment);
  }
  const se = segments[i];
  if (!se) {
    throw new X12ParseError(
      `X12: truncated interchange: the transaction set of ${st.label} (ST02 ${transaction.controlNumber}) has no SE segment`,
    );
  }
  // SE01 counts the segments from ST to SE, both included.
  checkCount(
    se,
    se.required(1),
    transaction.segments.length + 2,
    'SE01',
    'segments from ST to SE',
    slips,
  );
  checkControl(se, 'SE02', se.el(2), 'ST02', transaction.controlNumber, slips);
  return [transaction, i + 1];
}

function checkCount(
  segment: Segment,
  declared: string,
  actual: number,
  name: string,
  what: string,
  slips?: Slips,
) {
  if (!/^\d+$/.test(declared))
    return fail(segment, `${name} ${JSON.stringify(declared)} is not a count`, slips);
  if (Number(declared) !== actual) {
    fail(
      segment,
      `wrong count: ${name} says ${Number(declared)} ${what}, there are ${actual}`,
      slips,
    );
  }
}

function fail(segment: Segment, message: string, slips: Slips | undefined): void {
  if (!slips?.tolerant) throw segment.error(message);
  slips.list.push(`${segment.label}: ${message}`);
}

function checkControl(
  segment: Segment,
  name: string,
  value: string,
  otherName: string,
  other: string,
  slips: Slips,
) {
  const same =
    value === other ||
    (/^\d+$/.test(value) && /^\d+$/.test(other) && Number(value) === Number(other));
  if (!same) {
    fail(
      segment,
      `mismatched control numbers: ${name} is ${JSON.stringify(value)}, ${otherName} is ${JSON.stringify(other)}`,
      slips,
    );
  }
}
