import { X12ParseError } from './x12.errors';
import { Segment } from './x12.segment';

/** One HL level of a 270/271: its HL, the segments before its name, its 2100 and 2110 loops. */
export interface HierarchyLevel {
  /** HL01, HL02 and HL03. */
  id: string;
  parent: string;
  code: string;
  hl: Segment;
  /** Between HL and NM1 (TRN, AAA). */
  head: Segment[];
  /** The 2100 loop: NM1 and what follows it up to the first detail segment. */
  name: Segment[];
  /** Detail loops: each starts with the detail segment (EB in a 271, EQ in a 270, LX in an 837). */
  details: { first: Segment; rest: Segment[]; loop: string }[];
}

/** HL03 → the HL03 of its parent in a 270/271: payer, provider, subscriber, dependent. */
export const HL_PARENTS = { '20': null, '21': '20', '22': '21', '23': '22' } as const;

/** HL03 → the letter of its loops in a 270/271 (2000A, 2100B, 2110C, ...). */
export const LOOP_LETTER: Readonly<Record<string, string>> = {
  '20': 'A',
  '21': 'B',
  '22': 'C',
  '23': 'D',
};

/**
 * Splits the body of a 270/271 (the segments after BHT) into HL levels, checking that each HL's
 * parent exists and has the level the guide puts above it (`parents`: HL03 → the parent's HL03).
 */
export function walkHierarchy(
  segments: readonly Segment[],
  st: Segment,
  parents: Readonly<Record<string, string | null>>,
  detailId: 'EB' | 'EQ' | 'LX',
): HierarchyLevel[] {
  const levels: HierarchyLevel[] = [];
  const codes = new Map<string, string>();
  let current: HierarchyLevel | null = null;
  const close = (level: HierarchyLevel | null) => {
    if (level && level.name.length === 0) {
      throw level.hl.error(`HL ${level.id} (level ${level.code}) has no NM1 name segment`);
    }
  };
  for (const s of segments) {
    if (s.id === 'HL') {
      close(current);
      current = openLevel(s, codes, parents);
      levels.push(current);
      continue;
    }
    if (!current) throw s.error('expected HL (the first hierarchical level) after BHT');
    if (s.id === detailId) {
      if (current.name.length === 0)
        throw s.error(`${detailId} before the NM1 of HL ${current.id}`);
      const loop = detailId === 'LX' ? '2400' : `2110${LOOP_LETTER[current.code]}`;
      current.details.push({ first: s, rest: [], loop });
    } else if (current.details.length > 0) {
      current.details[current.details.length - 1].rest.push(s);
    } else if (s.id === 'NM1' || current.name.length > 0) {
      current.name.push(s);
    } else {
      current.head.push(s);
    }
  }
  close(current);
  if (levels.length === 0)
    throw new X12ParseError(`X12 ${st.label}: the transaction set has no HL`);
  return levels;
}

function openLevel(
  hl: Segment,
  codes: Map<string, string>,
  parents: Readonly<Record<string, string | null>>,
): HierarchyLevel {
  const id = hl.required(1);
  const parent = hl.el(2);
  const code = hl.required(3);
  if (!(code in parents)) {
    throw hl.error(
      `HL03 ${JSON.stringify(code)} is not a level of this transaction (${Object.keys(parents).join(', ')})`,
    );
  }
  if (codes.has(id)) throw hl.error(`HL01 ${id} is used twice`);
  const expected = parents[code];
  if (expected === null) {
    if (parent !== '') throw hl.error(`a level ${code} HL has no parent, HL02 is ${parent}`);
  } else if (codes.get(parent) !== expected) {
    throw hl.error(
      parent === ''
        ? `a level ${code} HL needs a parent of level ${expected}, HL02 is empty`
        : `HL02 ${parent} is not an earlier HL of level ${expected}, which a level ${code} HL belongs to`,
    );
  }
  codes.set(id, code);
  return { id, parent, code, hl, head: [], name: [], details: [] };
}
