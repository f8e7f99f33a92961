import { X12ParseError } from './x12.errors';
import { Segment, Separators } from './x12.segment';
import { tokenize } from './x12.tokenizer';

/** A transaction set of a report: ST, its body and SE. */
export interface ReportSet {
  type: string;
  controlNumber: string;
  implementationReference: string;
  st: Segment;
  segments: Segment[];
}

export interface ReportGroup {
  functionalId: string;
  controlNumber: string;
  version: string;
  gs: Segment;
  sets: ReportSet[];
}

export interface ReportInterchange {
  separators: Separators;
  /** The ISA segment as read (a part of the interchange re-envelopes with it). */
  isa: Segment;
  /** ISA13. */
  controlNumber: string;
  /** ISA06 (trimmed): who sent the report. */
  senderId: string;
  /** ISA09/ISA10 as sent (YYMMDD, HHMM). */
  date: string;
  time: string;
  /** TA1 segments: between ISA and the first GS (X12 puts them there), or on their own. */
  ta1: Segment[];
  groups: ReportGroup[];
  /**
   * Envelope slips that do not change what the report says (a wrong SE01/GE01/IEA01 count, an
   * SE02/GE02/IEA02 that does not echo its header): a clearinghouse's report is read anyway, and
   * the slips are kept for the operator.
   */
  warnings: string[];
}

/**
 * Reads the envelope of a report a clearinghouse sends back (999, TA1, 277CA, 835). Unlike the
 * strict reader used for our own outbound files, it accepts TA1 segments between ISA and GS and
 * reports control-number and count slips as warnings: refusing a remittance over a wrong SE01
 * would lose a payment record. What makes the content ambiguous (an ST without SE, a segment
 * outside any set, a missing IEA) is still an error naming the segment.
 */
export function readReportInterchange(text: string): ReportInterchange {
  const { separators, segments } = tokenize(text);
  const isa = segments[0];
  const out: ReportInterchange = {
    separators,
    isa,
    controlNumber: isa.el(13),
    senderId: isa.el(6),
    date: isa.el(9),
    time: isa.el(10),
    ta1: [],
    groups: [],
    warnings: [],
  };
  let i = 1;
  while (i < segments.length && segments[i].id === 'TA1') out.ta1.push(segments[i++]);
  while (i < segments.length && segments[i].id === 'GS') {
    const gs = segments[i++];
    const group: ReportGroup = {
      functionalId: gs.required(1),
      controlNumber: gs.required(6),
      version: gs.el(8),
      gs,
      sets: [],
    };
    while (i < segments.length && segments[i].id === 'ST') {
      const st = segments[i++];
      const set: ReportSet = {
        type: st.required(1),
        controlNumber: st.required(2),
        implementationReference: st.el(3),
        st,
        segments: [],
      };
      while (i < segments.length && segments[i].id !== 'SE') {
        const s = segments[i];
        if (['ST', 'GS', 'GE', 'IEA', 'ISA', 'TA1'].includes(s.id))
          throw s.error(
            `${s.id} inside the transaction set of ${st.label} (ST02 ${set.controlNumber}), which has no SE yet`,
          );
        set.segments.push(s);
        i++;
      }
      const se = segments[i++];
      if (!se)
        throw new X12ParseError(
          `X12: truncated interchange: the transaction set of ${st.label} (ST02 ${set.controlNumber}) has no SE segment`,
        );
      slip(out, se, 'SE01', se.el(1), set.segments.length + 2, 'segments from ST to SE');
      echo(out, se, 'SE02', se.el(2), 'ST02', set.controlNumber);
      group.sets.push(set);
    }
    const ge = segments[i++];
    if (!ge)
      throw new X12ParseError(
        `X12: truncated interchange: the functional group of ${gs.label} (GS06 ${group.controlNumber}) has no GE segment`,
      );
    if (ge.id !== 'GE')
      throw ge.error('expected ST (a transaction set) or GE (the end of the group)');
    slip(out, ge, 'GE01', ge.el(1), group.sets.length, 'transaction sets');
    echo(out, ge, 'GE02', ge.el(2), 'GS06', group.controlNumber);
    out.groups.push(group);
  }
  const iea = segments[i];
  if (!iea)
    throw new X12ParseError(
      `X12: truncated interchange: no IEA segment (the text ends after ${segments[i - 1].label})`,
    );
  if (iea.id !== 'IEA')
    throw iea.error(
      out.groups.length === 0 && out.ta1.length === 0
        ? 'expected TA1, GS (a functional group) or IEA (the end of the interchange)'
        : 'expected GS (a functional group) or IEA (the end of the interchange)',
    );
  if (i + 1 < segments.length)
    throw segments[i + 1].error('a segment after IEA, the end of the interchange');
  slip(out, iea, 'IEA01', iea.el(1), out.groups.length, 'functional groups');
  echo(out, iea, 'IEA02', iea.el(2), 'ISA13', out.controlNumber);
  if (out.groups.length === 0 && out.ta1.length === 0)
    throw iea.error('the interchange has neither a TA1 nor a functional group');
  return out;
}

function slip(
  out: ReportInterchange,
  s: Segment,
  name: string,
  declared: string,
  actual: number,
  what: string,
) {
  if (!/^\d+$/.test(declared) || Number(declared) !== actual)
    out.warnings.push(
      `X12 ${s.label}: ${name} says ${JSON.stringify(declared)} ${what}, there are ${actual}`,
    );
}

function echo(
  out: ReportInterchange,
  s: Segment,
  name: string,
  value: string,
  otherName: string,
  other: string,
) {
  if (sameControlNumber(value, other)) return;
  out.warnings.push(
    `X12 ${s.label}: ${name} is ${JSON.stringify(value)}, ${otherName} is ${JSON.stringify(other)}`,
  );
}

/** Control numbers compare as numbers when both are digits (`000001047` = `1047`). */
export function sameControlNumber(a: string, b: string): boolean {
  return a === b || (/^\d+$/.test(a) && /^\d+$/.test(b) && Number(a) === Number(b));
}
