import { X12ParseError } from './x12.errors';
import { pad2, Segment, Separators } from './x12.segment';

/** ISA01..ISA16 widths: the ISA header is fixed-width, 106 characters with its terminator. */
const ISA_WIDTHS = [2, 10, 2, 10, 2, 15, 2, 15, 6, 4, 1, 5, 9, 1, 1, 1] as const;
const ISA_LENGTH = 3 + ISA_WIDTHS.length + ISA_WIDTHS.reduce((a, b) => a + b, 0) + 1;

const LINE_BREAKS = /^[\r\n]+|[\r\n]+$/g;
const SEGMENT_ID = /^[A-Z][A-Z0-9]{1,2}$/;

export interface Tokens {
  separators: Separators;
  /** Every segment, ISA first, in order. */
  segments: Segment[];
}

/**
 * Reads the separators the ISA header declares by position: the element separator is the
 * character after "ISA", the repetition separator ISA11, the component separator ISA16 and the
 * segment terminator the character after ISA16.
 */
function readSeparators(text: string): Separators {
  if (!text.startsWith('ISA')) {
    const start = JSON.stringify(text.slice(0, 10));
    throw new X12ParseError(`X12: an interchange starts with ISA, this text starts with ${start}`);
  }
  const element = text[3];
  if (element === undefined || /[A-Za-z0-9\s]/.test(element)) {
    throw new X12ParseError('X12: the ISA header has no element separator after "ISA"');
  }
  // Find each ISA element by the separators, so a wrong width is reported by element name.
  let start = 4;
  for (let i = 0; i < ISA_WIDTHS.length - 1; i++) {
    const end = text.indexOf(element, start);
    if (end === -1) {
      throw new X12ParseError(
        `X12: truncated ISA header: it ends inside ISA${pad2(i + 1)} (${text.length} characters, an ISA header has ${ISA_LENGTH})`,
      );
    }
    if (end - start !== ISA_WIDTHS[i]) {
      throw new X12ParseError(
        `X12: bad ISA length: ISA${pad2(i + 1)} is ${end - start} characters, the fixed-width ISA header needs ${ISA_WIDTHS[i]}`,
      );
    }
    start = end + 1;
  }
  if (text.length < ISA_LENGTH) {
    throw new X12ParseError(
      `X12: truncated ISA header: ${text.length} characters, an ISA header has ${ISA_LENGTH}`,
    );
  }
  const component = text[start];
  const segment = text[start + 1];
  const isa11 = text.slice(82, 83);
  const version = text.slice(84, 89);
  const repetition = version >= '00501' ? isa11 : null;
  const separators: Separators = { element, component, repetition, segment };
  const chars = [element, component, segment, ...(repetition ? [repetition] : [])];
  if (new Set(chars).size !== chars.length || chars.some((c) => /[A-Za-z0-9 ]/.test(c))) {
    throw new X12ParseError(
      `X12: the ISA header declares unusable separators (element ${show(element)}, repetition ${show(repetition ?? '')}, component ${show(component)}, segment ${show(segment)}): they must be distinct and not letters, digits or spaces`,
    );
  }
  return separators;
}

/**
 * The most segments an interchange may have. A segment costs about 250 bytes once read (its
 * object, its elements array and strings), so 100,000 of them stay near 25 MB; an 835 paying a
 * thousand claims has about 10,000. Without a cap, 10 MB of `AB~` was 3.3 million segment
 * objects, more than the process's heap.
 */
export const MAX_SEGMENTS = 100_000;

/**
 * How many segment terminators `text` holds, counting no further than `cap + 1`: a cheap look
 * (no string or object made) before any segment is read.
 */
export function countSegments(text: string, terminator: string, cap: number): number {
  let count = 0;
  for (let at = text.indexOf(terminator); at !== -1; at = text.indexOf(terminator, at + 1)) {
    if (++count > cap) break;
  }
  return count;
}

/**
 * Splits an interchange into segments. Line breaks after segment terminators (and a leading
 * byte-order mark or blank lines) are ignored, unless the line break is itself the terminator.
 * An interchange of more than `maxSegments` segments is refused before any is read.
 */
export function tokenize(input: string, maxSegments = MAX_SEGMENTS): Tokens {
  const text = input.replace(/^\uFEFF/, '').replace(/^\s+/, '');
  if (text === '') throw new X12ParseError('X12: the interchange is empty');
  const separators = readSeparators(text);
  if (countSegments(text, separators.segment, maxSegments) > maxSegments) {
    const most = maxSegments.toLocaleString('en-US');
    throw new X12ParseError(
      `X12: the interchange has more than ${most} segments, the most one interchange may have; split it`,
    );
  }
  const segments = [...readSegments(text, separators)];
  return { separators, segments };
}

/** The segments of `text` one at a time, each cut from the text only when it is reached. */
function* readSegments(text: string, separators: Separators): Generator<Segment> {
  let start = 0;
  let last: Segment | null = null;
  for (let end = text.indexOf(separators.segment); end !== -1;) {
    const raw = text.slice(start, end).replace(LINE_BREAKS, '');
    const position: number = (last?.position ?? 0) + 1;
    if (raw === '') {
      throw new X12ParseError(
        `X12: segment ${position} is empty (two segment terminators ${show(separators.segment)} in a row)`,
      );
    }
    const elements = raw.split(separators.element);
    const id = elements[0];
    if (!SEGMENT_ID.test(id)) {
      throw new X12ParseError(
        `X12: segment ${position} has no valid segment id: it starts ${JSON.stringify(raw.slice(0, 20))}`,
      );
    }
    last = new Segment(id, elements, position, separators);
    yield last;
    start = end + 1;
    end = text.indexOf(separators.segment, start);
  }
  const tail = text.slice(start);
  if (tail.replace(/\s+/g, '') !== '') {
    throw new X12ParseError(
      `X12: truncated interchange: the text ends inside segment ${(last?.position ?? 0) + 1} ${JSON.stringify(tail.slice(0, 30))}, which has no segment terminator ${show(separators.segment)}${last ? ` (the last complete segment is ${last.label})` : ''}`,
    );
  }
}

function show(c: string): string {
  return JSON.stringify(c);
}
