import { formatInstant } from '@/platform/kernel/time';
import { X12WriteError } from './x12.errors';
import { DEFAULT_SEPARATORS, pad2, Separators } from './x12.segment';

/** A component list (`HC:V2020` is `['HC', 'V2020']`). */
type Composite = readonly string[];
/** A repeated element (`EQ*30^AL` is `{ repeat: ['30', 'AL'] }`). */
interface Repeated {
  readonly repeat: readonly (string | Composite)[];
}
type ElementValue = string | Composite | Repeated;
/** A segment to write: its id, then its elements from 01 on ('' for an empty one). */
export type SegmentData = readonly [string, ...ElementValue[]];

/** Any transaction set: the segments between ST and SE (the writer adds ST and SE). */
interface TransactionSetInput {
  type: string;
  controlNumber: string;
  implementationReference: string;
  segments: readonly SegmentData[];
}

interface FunctionalGroupInput {
  /** GS01: `HS` for a 270, `HC` for an 837. */
  functionalId: string;
  /** GS08, the version and implementation guide: `005010X279A1`. */
  version: string;
  controlNumber: string;
  transactions: readonly TransactionSetInput[];
}

interface InterchangeInput {
  /** ISA06 / GS02 and ISA08 / GS03 (qualifier `ZZ`, mutually defined, unless given). */
  senderId: string;
  receiverId: string;
  senderQualifier?: string;
  receiverQualifier?: string;
  /** ISA13, 1..999999999. */
  controlNumber: number;
  usage: 'T' | 'P';
  /** ISA09/ISA10 and GS04/GS05, in UTC. */
  createdAt: Date;
  groups: readonly FunctionalGroupInput[];
}

interface WriteOptions {
  separators?: Separators;
  /** A line break after every segment terminator (easier to read; clearinghouses accept both). */
  lineBreaks?: boolean;
}

/**
 * Writes an interchange of any transaction sets (270 now, 837P later), computing SE01, GE01 and
 * IEA01 and repeating the control numbers in SE02, GE02 and IEA02. Values holding a separator are
 * refused rather than escaped: X12 has no escape character.
 */
export function writeInterchange(input: InterchangeInput, options: WriteOptions = {}): string {
  const separators = options.separators ?? DEFAULT_SEPARATORS;
  if (!separators.repetition) throw new X12WriteError('X12 005010 needs a repetition separator');
  const terminator = separators.segment + (options.lineBreaks ? '\n' : '');
  if (
    !Number.isInteger(input.controlNumber) ||
    input.controlNumber < 1 ||
    input.controlNumber > 999_999_999
  ) {
    throw new X12WriteError(
      `ISA13 must be an integer from 1 to 999999999 (got ${input.controlNumber})`,
    );
  }
  const stamp = formatInstant(input.createdAt, 'utc');
  const ccyymmdd = stamp.slice(0, 10).replaceAll('-', '');
  const hhmm = stamp.slice(11, 16).replace(':', '');
  const isa13 = String(input.controlNumber).padStart(9, '0');
  const isa = [
    'ISA',
    '00',
    ' '.repeat(10),
    '00',
    ' '.repeat(10),
    fixed('ISA05', input.senderQualifier ?? 'ZZ', 2),
    fixed('ISA06', input.senderId, 15),
    fixed('ISA07', input.receiverQualifier ?? 'ZZ', 2),
    fixed('ISA08', input.receiverId, 15),
    ccyymmdd.slice(2),
    hhmm,
    separators.repetition,
    '00501',
    isa13,
    '0',
    input.usage,
    separators.component,
  ].join(separators.element);
  for (const value of [input.senderId, input.receiverId]) checkValue('ISA', value, separators);

  const write = (segment: SegmentData) => writeSegment(segment, separators);
  const gs02to05 = [input.senderId, input.receiverId, ccyymmdd, hhmm];
  const out: string[] = [isa];
  for (const { functionalId, controlNumber, version, transactions } of input.groups) {
    out.push(write(['GS', functionalId, ...gs02to05, controlNumber, 'X', version]));
    for (const set of transactions) {
      const body = [
        write(['ST', set.type, set.controlNumber, set.implementationReference]),
        ...set.segments.map(write),
      ];
      out.push(...body, write(['SE', String(body.length + 1), set.controlNumber]));
    }
    out.push(write(['GE', String(transactions.length), controlNumber]));
  }
  out.push(write(['IEA', String(input.groups.length), isa13]));
  return out.join(terminator) + terminator;
}

/** One segment without its terminator; trailing empty elements and components are left out. */
export function writeSegment(
  segment: SegmentData,
  separators: Separators = DEFAULT_SEPARATORS,
): string {
  const [id, ...elements] = segment;
  const texts = elements.map((value, i) => element(id, i + 1, value, separators));
  while (texts.length > 0 && texts[texts.length - 1] === '') texts.pop();
  return [id, ...texts].join(separators.element);
}

function element(id: string, n: number, value: ElementValue, separators: Separators): string {
  const name = `${id}${pad2(n)}`;
  if (typeof value === 'string') return checkValue(name, value, separators);
  if (isRepeated(value)) {
    if (!separators.repetition) throw new X12WriteError(`${name}: no repetition separator`);
    return value.repeat
      .map((r) =>
        typeof r === 'string' ? checkValue(name, r, separators) : composite(name, r, separators),
      )
      .join(separators.repetition);
  }
  return composite(name, value, separators);
}

function composite(name: string, parts: Composite, separators: Separators): string {
  const texts = parts.map((p) => checkValue(name, p, separators));
  while (texts.length > 0 && texts[texts.length - 1] === '') texts.pop();
  return texts.join(separators.component);
}

function isRepeated(value: Composite | Repeated): value is Repeated {
  return !Array.isArray(value);
}

function checkValue(name: string, value: string, separators: Separators): string {
  for (const [what, c] of Object.entries(separators)) {
    if (c && value.includes(c)) {
      throw new X12WriteError(
        `${name}: the value holds the ${what} separator ${JSON.stringify(c)}`,
      );
    }
  }
  if (/[\r\n]/.test(value)) throw new X12WriteError(`${name}: the value holds a line break`);
  return value;
}

function fixed(name: string, value: string, width: number): string {
  if (value.length > width) {
    throw new X12WriteError(`${name}: ${JSON.stringify(value)} is longer than ${width} characters`);
  }
  return value.padEnd(width, ' ');
}

/** The interchange settings of one outgoing file (ISA/GS/ST headers). */
export interface EnvelopeSettings {
  senderId: string;
  receiverId: string;
  usage: 'T' | 'P';
  /** ISA13 (and GS06, ST02 derive from it). */
  controlNumber: number;
  createdAt: Date;
  separators?: Separators;
  lineBreaks?: boolean;
}

/**
 * The writer of one kind of outgoing file: its transaction set (the segments `build` makes)
 * alone in an interchange, as every file this service sends is (270, 276, 837P): GS06 is the ISA
 * control number, ST02 the same, zero-padded.
 */
export function singleTransactionWriter<T>(
  set: { type: string; functionalId: string; version: string },
  build: (input: T, createdAt: Date, separators?: Separators) => SegmentData[],
): (input: T, envelope: EnvelopeSettings) => string {
  const { type, functionalId, version } = set;
  return (input, { controlNumber, createdAt, separators, lineBreaks, ...ids }) => {
    const control = String(controlNumber);
    const transaction: TransactionSetInput = {
      type,
      controlNumber: control.padStart(4, '0'),
      implementationReference: version,
      segments: build(input, createdAt, separators),
    };
    const groups = [{ functionalId, version, controlNumber: control, transactions: [transaction] }];
    return writeInterchange(
      { ...ids, controlNumber, createdAt, groups },
      { separators, lineBreaks },
    );
  };
}

/**
 * An NM1 that names its entity by an id: NM101 the entity, NM102 `1` a person or `2` an
 * organisation, the last (or organisation) and first names, NM105-NM107 empty, NM108 the id's
 * qualifier and NM109 the id.
 */
export function nm1Segment(
  entity: string,
  type: '1' | '2',
  last: string,
  first: string,
  qualifier: string,
  id: string,
): SegmentData {
  return ['NM1', entity, type, last, first, '', '', '', qualifier, id];
}

/** An NM1 naming an organisation (NM102 `2`, no first name) by an id. */
export function organisationNm1(entity: string, name: string, qualifier: string, id: string) {
  return nm1Segment(entity, '2', name, '', qualifier, id);
}
