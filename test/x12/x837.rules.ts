import type { Segment } from '@/lib/x12/x12.segment';

/** The vocabulary of the 837P usage table: rule shapes and the builders the table is written with. */

/** What the text alone cannot tell: facts about the claim the file was written from. */
export interface ClaimFacts {
  /** The patient paid something: 2300 AMT*F5 is then required, otherwise not sent. */
  patientPaid?: boolean;
}

/** Facts read from the file itself while it is walked. */
export interface FileFacts extends ClaimFacts {
  /** SBR02 `18`: the patient is the subscriber (no 2000C loop). */
  patientIsSubscriber: boolean;
  /** NM102 of 2010AA: `2` an organisation (then 2310B is required). */
  billingProviderIsOrganisation: boolean;
}

export type Usage =
  | { kind: 'required' }
  /** Required when `when` holds; when it does not, sent only if `sendOtherwise` (else: do not send). */
  | {
      kind: 'situational';
      condition: string;
      when: (f: FileFacts) => boolean | undefined;
      sendOtherwise: boolean;
    };

export interface SegmentRule {
  id: string;
  /** Element 1's values that select this rule (`NM1` `85`, `REF` `EI`), when it has any. */
  qualifier?: readonly string[];
  name: string;
  usage: Usage;
  max: number;
  /** Element checks the guide states for this segment in this loop. */
  check?: (s: Segment) => string | null;
}

export interface LoopRule {
  id: string;
  name: string;
  usage: Usage;
  max: number;
  /** The first segment rule is the loop's trigger. */
  segments: readonly SegmentRule[];
  children: readonly LoopRule[];
}

/** A loop without child loops. */
export const leaf = (
  id: string,
  name: string,
  usage: Usage,
  max: number,
  segments: readonly SegmentRule[],
): LoopRule => ({ id, name, usage, max, segments, children: [] });

export const R: Usage = { kind: 'required' };
/** Situational: the guide leaves it to the sender (may be sent). */
export const MAY = (condition: string): Usage => ({
  kind: 'situational',
  condition,
  when: () => false,
  sendOtherwise: true,
});
export const WHEN = (
  condition: string,
  when: (f: FileFacts) => boolean | undefined,
  sendOtherwise = false,
): Usage => ({ kind: 'situational', condition, when, sendOtherwise });

export const seg = (
  id: string,
  name: string,
  usage: Usage,
  max = 1,
  qualifier?: readonly string[],
  check?: (s: Segment) => string | null,
): SegmentRule => ({ id, name, usage, max, qualifier, check });

export const hl = (level: string, top: boolean) =>
  seg('HL', `Hierarchical level ${level}`, R, 1, undefined, (s) =>
    top !== (s.el(2) === '')
      ? top
        ? 'HL02 must be empty at the top level'
        : 'HL02 must point to the parent HL'
      : ['0', '1'].includes(s.el(4))
        ? null
        : 'HL04 must be 0 or 1',
  );

export const nm1 = (
  entity: string,
  name: string,
  entityType: string | null,
  idQualifier: string | null,
) =>
  seg('NM1', name, R, 1, [entity], (s) => {
    if (entityType && s.el(2) !== entityType) return `NM102 must be ${entityType}`;
    if (idQualifier && s.el(8) !== idQualifier) return `NM108 must be ${idQualifier}`;
    if (idQualifier === 'XX' && !/^\d{10}$/.test(s.el(9))) return 'NM109 must be a 10-digit NPI';
    if (s.el(3) === '') return 'NM103 (the name) is required';
    return null;
  });

export const n4 = (usage: Usage, zip9 = false) =>
  seg('N4', 'City, state, ZIP code', usage, 1, undefined, (s) =>
    s.el(1) === '' || !/^[A-Z]{2}$/.test(s.el(2))
      ? 'N401 city and N402 state are required'
      : zip9
        ? /^\d{9}$/.test(s.el(3))
          ? null
          : 'N403 must be the 9-digit ZIP+4 for the billing provider'
        : /^\d{5}(\d{4})?$/.test(s.el(3))
          ? null
          : 'N403 must be a 5- or 9-digit ZIP code',
  );

export const dmg = (usage: Usage) =>
  seg('DMG', 'Demographic information', usage, 1, undefined, (s) =>
    s.el(1) !== 'D8' || !/^\d{8}$/.test(s.el(2))
      ? 'DMG01 D8 and DMG02 the birth date are required'
      : ['F', 'M', 'U'].includes(s.el(3))
        ? null
        : 'DMG03 must be F, M or U',
  );

export const prv = (code: string, name: string, usage: Usage) =>
  seg('PRV', name, usage, 1, [code], (s) =>
    s.el(2) === 'PXC' && /^[0-9A-Z]{9}X$/.test(s.el(3))
      ? null
      : 'PRV02 must be PXC and PRV03 a 10-character taxonomy code',
  );
