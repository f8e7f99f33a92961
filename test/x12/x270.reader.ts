/**
 * A test-side reader (the fake clearinghouses and the writer specs read what the service sends);
 * the service itself never reads a 270 or an 837P.
 */
import { readDmg, readDtp, readNm1, readRef, readTrn } from '@/lib/x12/x12.elements';
import type { DatePeriod, Demographics, Nm1, Reference, Trace } from '@/lib/x12/x12.elements';
import { readInterchange } from '@/lib/x12/x12.envelope';
import type { IsaHeader, FunctionalGroup } from '@/lib/x12/x12.envelope';
import { HierarchyLevel, HL_PARENTS, walkHierarchy } from '@/lib/x12/x12.hierarchy';

/** A 270 as read back: what a clearinghouse (or a test's fake one) sees of an inquiry. */
export interface Inquiry270 {
  isa: IsaHeader;
  group: Omit<FunctionalGroup, 'transactions'>;
  controlNumber: string;
  implementationReference: string;
  /** BHT01, BHT02, BHT03. */
  structure: string;
  purpose: string;
  reference: string;
  payer: Nm1;
  provider: Nm1;
  providerReferences: Reference[];
  subscriber: InquiredPerson;
  /** 2000D: the patient when they are the subscriber's dependent (docs/api.md, Real insurers), else null. */
  dependent: InquiredPerson | null;
  /** SE01 as sent (checked against the real count by the envelope reader). */
  segmentCount: number;
}

export interface InquiredPerson {
  traces: Trace[];
  name: Nm1;
  references: Reference[];
  demographics: Demographics | null;
  dates: DatePeriod[];
  /** EQ01 of each 2110 loop, repetitions split. */
  serviceTypes: string[][];
}

/** Reads a 270 holding one inquiry (one payer, one provider, one subscriber), as this service sends. */
export function read270(text: string): Inquiry270 {
  const interchange = readInterchange(text);
  const [group] = interchange.groups;
  const [set] = group.transactions;
  if (interchange.groups.length !== 1 || group.transactions.length !== 1) {
    throw set.st.error('expected one functional group with one 270');
  }
  if (set.type !== '270') throw set.st.error(`transaction set ${set.type}: expected a 270`);
  const [bht, ...body] = set.segments;
  if (bht?.id !== 'BHT') throw set.st.error('a 270 starts with BHT after ST');
  const levels = walkHierarchy(body, set.st, HL_PARENTS, 'EQ');
  const level = (code: string) => {
    const found = levels.filter((l) => l.code === code);
    if (found.length !== 1)
      throw set.st.error(`expected one HL of level ${code}, found ${found.length}`);
    return found[0];
  };
  const payer = level('20');
  const provider = level('21');
  const subscriber = level('22');
  const dependents = levels.filter((l) => l.code === '23');
  if (dependents.length > 1) throw set.st.error(`expected at most one HL of level 23`);
  const { transactions: _t, ...groupHeader } = group;
  return {
    isa: interchange.isa,
    group: groupHeader,
    controlNumber: set.controlNumber,
    implementationReference: set.implementationReference,
    structure: bht.el(1),
    purpose: bht.el(2),
    reference: bht.el(3),
    payer: readNm1(payer.name[0]),
    provider: readNm1(provider.name[0]),
    providerReferences: provider.name.filter((s) => s.id === 'REF').map(readRef),
    subscriber: inquired(subscriber),
    dependent: dependents.length === 1 ? inquired(dependents[0]) : null,
    segmentCount: set.segments.length + 2,
  };
}

function inquired(level: HierarchyLevel): InquiredPerson {
  return {
    traces: level.head.filter((s) => s.id === 'TRN').map(readTrn),
    name: readNm1(level.name[0]),
    references: level.name.filter((s) => s.id === 'REF').map(readRef),
    demographics:
      level.name
        .filter((s) => s.id === 'DMG')
        .map(readDmg)
        .at(0) ?? null,
    dates: [
      ...level.name.filter((s) => s.id === 'DTP'),
      ...level.details.flatMap((d) => d.rest.filter((s) => s.id === 'DTP')),
    ].map(readDtp),
    serviceTypes: level.details.map((d) => d.first.repeats(1)),
  };
}
