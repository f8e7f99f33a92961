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
  gs: Segment;
  transactions: TransactionSet[];
}

export interface Interchange {
  separators: Separators;
  isa: IsaHeader;
  /** The ISA segment as read (a part of an 835 re-envelopes with it). */
  isaSegment: Segment;
  /** TA1 segments between ISA and the first GS (`report` mode only). */
  ta1: Segment[];
  groups: FunctionalGroup[];
  /** Envelope slips read past (`tolerant` and `report` modes), in words. */
  slips: string[];
}

interface ReadOptions {
  /**
   * `strict` (the default, for our own outbound files) refuses every slip. `tolerant`, for a
   * payer's 271 (docs/api.md, Real insurers): envelope slips that say nothing about the answer
   * (SE01 count, SE02 ≠ ST02, GE02 ≠ GS06, IEA02 ≠ ISA13, a TA1 between ISA and GS) are recorded
   * in `slips` instead of refusing the interchange. `report`, for a report a clearinghouse sends
   * back (999, TA1, 277CA, 835): TA1 segments between ISA and GS are kept (a TA1 may stand
   * alone), and every count and control number slip is a warning in `slips`: refusing a
   * remittance over a wrong SE01 would lose a payment record. What makes the content ambiguous
   * (an ST without SE, a segment outside any set, a missing IEA) is an error in every mode.
   */
  mode?: 'strict' | 'tolerant' | 'report';
}

const ENVELOPE_IDS = ['ST', 'GE', 'GS', 'IEA', 'ISA', 'TA1'];

/**
 * Reads an interchange and checks its envelopes: every GS closed by a GE, every ST by an SE,
 * SE01 / GE01 / IEA01 counts right, SE02 / GE02 / IEA02 equal to ST02 / GS06 / ISA13.
 */
export function readInterchange(text: string, { mode = 'strict' }: ReadOptions = {}): Interchange {
  const { separators, segments } = tokenize(text);
  const report = mode === 'report';
  const slips: string[] = [];
  /** A slip: thrown, unless the mode reads past it (`tolerated`: the tolerant mode does too). */
  const slip = (s: Segment, message: string, tolerated: boolean) => {
    if (report) slips.push(s.error(message).message);
    else if (tolerated && mode === 'tolerant') slips.push(`${s.label}: ${message}`);
    else throw s.error(message);
  };
  const count = (s: Segment, name: string, actual: number, what: string, tolerated = false) => {
    const declared = report ? s.el(1) : s.required(1);
    const digits = /^\d+$/.test(declared);
    if (report && (!digits || Number(declared) !== actual))
      slip(s, `${name} says ${JSON.stringify(declared)} ${what}, there are ${actual}`, true);
    else if (!report && !digits)
      slip(s, `${name} ${JSON.stringify(declared)} is not a count`, tolerated);
    else if (!report && Number(declared) !== actual)
      slip(
        s,
        `wrong count: ${name} says ${Number(declared)} ${what}, there are ${actual}`,
        tolerated,
      );
  };
  const echo = (s: Segment, name: string, otherName: string, other: string) => {
    const value = s.el(2);
    if (sameControlNumber(value, other)) return;
    const words = `${name} is ${JSON.stringify(value)}, ${otherName} is ${JSON.stringify(other)}`;
    slip(s, report ? words : `mismatched control numbers: ${words}`, true);
  };

  const isaSegment = segments[0];
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
  const ta1: Segment[] = [];
  let i = 1;
  for (; mode !== 'strict' && segments[i]?.id === 'TA1'; i++) {
    if (report) ta1.push(segments[i]);
    else slips.push(`${segments[i].label}: a TA1 between ISA and GS, read past`);
  }
  const groups: FunctionalGroup[] = [];
  while (segments[i]?.id === 'GS') {
    const gs = segments[i++];
    const group: FunctionalGroup = {
      functionalId: gs.required(1),
      senderId: gs.el(2),
      receiverId: gs.el(3),
      date: gs.el(4),
      time: gs.el(5),
      controlNumber: gs.required(6),
      version: gs.el(8),
      gs,
      transactions: [],
    };
    while (segments[i]?.id === 'ST') {
      const st = segments[i++];
      const set: TransactionSet = {
        type: st.required(1),
        controlNumber: st.required(2),
        implementationReference: st.el(3),
        segments: [],
        st,
      };
      for (; i < segments.length && segments[i].id !== 'SE'; i++) {
        const s = segments[i];
        if (ENVELOPE_IDS.includes(s.id) && (report || s.id !== 'TA1'))
          throw s.error(
            report
              ? `${s.id} inside the transaction set of ${st.label} (ST02 ${set.controlNumber}), which has no SE yet`
              : `${s.id} inside transaction set ${set.controlNumber} of ${st.label}, which has no SE yet`,
          );
        set.segments.push(s);
      }
      const se = segments[i++];
      if (!se)
        throw new X12ParseError(
          `X12: truncated interchange: the transaction set of ${st.label} (ST02 ${set.controlNumber}) has no SE segment`,
        );
      // SE01 counts the segments from ST to SE, both included.
      count(se, 'SE01', set.segments.length + 2, 'segments from ST to SE', true);
      echo(se, 'SE02', 'ST02', set.controlNumber);
      group.transactions.push(set);
    }
    const ge = segments[i++];
    if (!ge)
      throw new X12ParseError(
        `X12: truncated interchange: the functional group of ${gs.label} (GS06 ${group.controlNumber}) has no GE segment`,
      );
    if (ge.id !== 'GE')
      throw ge.error('expected ST (a transaction set) or GE (the end of the group)');
    count(ge, 'GE01', group.transactions.length, 'transaction sets');
    echo(ge, 'GE02', 'GS06', group.controlNumber);
    groups.push(group);
  }
  const iea = segments[i];
  if (!iea)
    throw new X12ParseError(
      `X12: truncated interchange: no IEA segment (the text ends after ${segments[i - 1].label})`,
    );
  const empty = groups.length === 0 && ta1.length === 0;
  if (iea.id !== 'IEA')
    throw iea.error(
      `expected ${report && empty ? 'TA1, ' : ''}GS (a functional group) or IEA (the end of the interchange)`,
    );
  if (i + 1 < segments.length)
    throw segments[i + 1].error('a segment after IEA, the end of the interchange');
  count(iea, 'IEA01', groups.length, 'functional groups');
  echo(iea, 'IEA02', 'ISA13', isa.controlNumber);
  if (empty)
    throw iea.error(
      report
        ? 'the interchange has neither a TA1 nor a functional group'
        : 'the interchange has no functional group',
    );
  return { separators, isa, isaSegment, ta1, groups, slips };
}

/** Control numbers compare as numbers when both are digits (`000001047` = `1047`). */
function sameControlNumber(a: string, b: string): boolean {
  return a === b || (/^\d+$/.test(a) && /^\d+$/.test(b) && Number(a) === Number(b));
}
