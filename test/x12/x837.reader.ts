/**
 * A test-side reader (the fake clearinghouses and the writer specs read what the service sends);
 * the service itself never reads a 270 or an 837P.
 */
import { readDmg, readDtp, readNm1, readRef } from '@/lib/x12/x12.elements';
import type { DatePeriod, Demographics, Nm1, Reference } from '@/lib/x12/x12.elements';
import { readInterchange } from '@/lib/x12/x12.envelope';
import type { FunctionalGroup, IsaHeader } from '@/lib/x12/x12.envelope';
import { HierarchyLevel, walkHierarchy } from '@/lib/x12/x12.hierarchy';
import type { Segment } from '@/lib/x12/x12.segment';

/** 837P levels: billing provider (20), subscriber (22), patient (23). */
const PARENTS_837 = { '20': null, '22': '20', '23': '22' } as const;

export interface ServiceLine837 {
  lineNumber: string;
  /** SV101 components: `HC`, the procedure, modifiers. */
  procedure: string[];
  charge: string;
  unit: string;
  quantity: string;
  /** SV107 pointers into `diagnoses` (1-based). */
  pointers: number[];
  dates: DatePeriod[];
}

/** An 837P as read back: what a clearinghouse (or a test's fake one) sees of a claim. */
export interface Claim837 {
  isa: IsaHeader;
  group: Omit<FunctionalGroup, 'transactions'>;
  controlNumber: string;
  implementationReference: string;
  /** BHT03: the originator's reference (this service sends the claim code). */
  reference: string;
  submitter: Nm1;
  receiver: Nm1;
  billingProvider: Nm1;
  billingProviderReferences: Reference[];
  /** SBR02: `18` when the subscriber is the patient, '' otherwise. */
  subscriberRelationship: string;
  subscriber: Nm1;
  subscriberDemographics: Demographics | null;
  payer: Nm1;
  /** The 2000C loop, present only when the patient is not the subscriber. */
  patient: { relationship: string; name: Nm1; demographics: Demographics | null } | null;
  /** CLM01 and CLM02. */
  patientControlNumber: string;
  totalCharge: string;
  /** HI codes in order (the principal first), qualifiers dropped. */
  diagnoses: string[];
  diagnosisQualifiers: string[];
  services: ServiceLine837[];
  /** Segment ids from ST to SE, in order. */
  segmentIds: string[];
  /** SE01 as sent (checked against the real count by the envelope reader). */
  segmentCount: number;
}

/** Reads an 837P holding one claim, as this service sends it. */
export function read837(text: string): Claim837 {
  const interchange = readInterchange(text);
  const [group] = interchange.groups;
  const [set] = group.transactions;
  if (interchange.groups.length !== 1 || group.transactions.length !== 1)
    throw set.st.error('expected one functional group with one 837');
  if (set.type !== '837') throw set.st.error(`transaction set ${set.type}: expected an 837`);
  const [bht, ...body] = set.segments;
  if (bht?.id !== 'BHT') throw set.st.error('an 837 starts with BHT after ST');
  const firstHl = body.findIndex((s) => s.id === 'HL');
  const header = body.slice(0, firstHl);
  const levels = walkHierarchy(body.slice(firstHl), set.st, PARENTS_837, 'LX');
  const one = (code: string): HierarchyLevel | null => {
    const found = levels.filter((l) => l.code === code);
    if (found.length > 1) throw set.st.error(`expected one HL of level ${code}`);
    return found[0] ?? null;
  };
  const provider = one('20');
  const subscriber = one('22');
  if (!provider || !subscriber) throw set.st.error('an 837 needs levels 20 and 22');
  const patient = one('23');
  const claimLevel = patient ?? subscriber;
  const nm1 = (segments: Segment[], entity: string) => {
    const found = segments.find((s) => s.id === 'NM1' && s.el(1) === entity);
    if (!found) throw set.st.error(`no NM1*${entity}`);
    return readNm1(found);
  };
  const clm = claimLevel.name.find((s) => s.id === 'CLM');
  if (!clm) throw claimLevel.hl.error('no CLM in the claim level');
  const hi = claimLevel.name.find((s) => s.id === 'HI');
  const hiParts = hi ? hi.elements.slice(1).map((_, i) => hi.components(i + 1)) : [];
  const { transactions: _t, ...groupHeader } = group;
  const dmg = (segments: Segment[]) =>
    segments.filter((s) => s.id === 'DMG').map(readDmg)[0] ?? null;
  // The 2010BB payer loop follows the subscriber's own segments: read the subscriber's DMG before it.
  const payerAt = subscriber.name.findIndex((s) => s.id === 'NM1' && s.el(1) === 'PR');
  return {
    isa: interchange.isa,
    group: groupHeader,
    controlNumber: set.controlNumber,
    implementationReference: set.implementationReference,
    reference: bht.el(3),
    submitter: nm1(header, '41'),
    receiver: nm1(header, '40'),
    billingProvider: nm1(provider.name, '85'),
    billingProviderReferences: provider.name.filter((s) => s.id === 'REF').map(readRef),
    subscriberRelationship: subscriber.head.find((s) => s.id === 'SBR')?.el(2) ?? '',
    subscriber: nm1(subscriber.name, 'IL'),
    subscriberDemographics: dmg(subscriber.name.slice(0, payerAt === -1 ? undefined : payerAt)),
    payer: nm1(subscriber.name, 'PR'),
    patient: patient
      ? {
          relationship: patient.head.find((s) => s.id === 'PAT')?.el(1) ?? '',
          name: nm1(patient.name, 'QC'),
          demographics: dmg(patient.name),
        }
      : null,
    patientControlNumber: clm.el(1),
    totalCharge: clm.el(2),
    diagnoses: hiParts.map((p) => p[1] ?? ''),
    diagnosisQualifiers: hiParts.map((p) => p[0] ?? ''),
    services: claimLevel.details.map((d) => {
      const sv1 = d.rest.find((s) => s.id === 'SV1');
      if (!sv1) throw d.first.error('an LX without SV1');
      return {
        lineNumber: d.first.el(1),
        procedure: sv1.components(1),
        charge: sv1.el(2),
        unit: sv1.el(3),
        quantity: sv1.el(4),
        pointers: sv1.components(7).map(Number),
        dates: d.rest.filter((s) => s.id === 'DTP').map(readDtp),
      };
    }),
    segmentIds: [set.st.id, ...set.segments.map((s) => s.id), 'SE'],
    segmentCount: set.segments.length + 2,
  };
}
