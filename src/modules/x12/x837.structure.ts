import { fromMinor, toMinor } from '@/common/decimal';
import { readInterchange } from './x12.envelope';
import type { Segment } from './x12.segment';

/**
 * An in-project check of an 837P against the loop and segment usage of the 005010X222A1
 * implementation guide: each segment in the loop the guide puts it in, in the guide's order, not
 * repeated more than the guide allows; required segments and loops present; situational ones
 * checked against their condition ("required when ..., otherwise do not send"); anything the
 * guide does not use in a loop is an error. Covers the loops and segments a vision practice's
 * claim uses (and those around them); the independent validator (pyx12) checks the rest.
 */

/** What the text alone cannot tell: facts about the claim the file was written from. */
export interface ClaimFacts {
  /** The patient paid something: 2300 AMT*F5 is then required, otherwise not sent. */
  patientPaid?: boolean;
}

/** Facts read from the file itself while it is walked. */
interface FileFacts extends ClaimFacts {
  /** SBR02 `18`: the patient is the subscriber (no 2000C loop). */
  patientIsSubscriber: boolean;
  /** NM102 of 2010AA: `2` an organisation (then 2310B is required, §15). */
  billingProviderIsOrganisation: boolean;
}

type Usage =
  | { kind: 'required' }
  /** Required when `when` holds; when it does not, sent only if `sendOtherwise` (else: do not send). */
  | {
      kind: 'situational';
      condition: string;
      when: (f: FileFacts) => boolean | undefined;
      sendOtherwise: boolean;
    };

interface SegmentRule {
  id: string;
  /** Element 1's values that select this rule (`NM1` `85`, `REF` `EI`), when it has any. */
  qualifier?: readonly string[];
  name: string;
  usage: Usage;
  max: number;
  /** Element checks the guide states for this segment in this loop. */
  check?: (s: Segment) => string | null;
}

interface LoopRule {
  id: string;
  name: string;
  usage: Usage;
  max: number;
  /** The first segment rule is the loop's trigger. */
  segments: readonly SegmentRule[];
  children: readonly LoopRule[];
}

const R: Usage = { kind: 'required' };
/** Situational: the guide leaves it to the sender (may be sent). */
const MAY = (condition: string): Usage => ({
  kind: 'situational',
  condition,
  when: () => false,
  sendOtherwise: true,
});
const WHEN = (
  condition: string,
  when: (f: FileFacts) => boolean | undefined,
  sendOtherwise = false,
): Usage => ({ kind: 'situational', condition, when, sendOtherwise });

const seg = (
  id: string,
  name: string,
  usage: Usage,
  max = 1,
  qualifier?: readonly string[],
  check?: (s: Segment) => string | null,
): SegmentRule => ({ id, name, usage, max, qualifier, check });

const hl = (level: string, top: boolean) =>
  seg('HL', `Hierarchical level ${level}`, R, 1, undefined, (s) =>
    top !== (s.el(2) === '')
      ? top
        ? 'HL02 must be empty at the top level'
        : 'HL02 must point to the parent HL'
      : ['0', '1'].includes(s.el(4))
        ? null
        : 'HL04 must be 0 or 1',
  );

const nm1 = (entity: string, name: string, entityType: string | null, idQualifier: string | null) =>
  seg('NM1', name, R, 1, [entity], (s) => {
    if (entityType && s.el(2) !== entityType) return `NM102 must be ${entityType}`;
    if (idQualifier && s.el(8) !== idQualifier) return `NM108 must be ${idQualifier}`;
    if (idQualifier === 'XX' && !/^\d{10}$/.test(s.el(9))) return 'NM109 must be a 10-digit NPI';
    if (s.el(3) === '') return 'NM103 (the name) is required';
    return null;
  });

const n4 = (usage: Usage, zip9 = false) =>
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

const dmg = (usage: Usage) =>
  seg('DMG', 'Demographic information', usage, 1, undefined, (s) =>
    s.el(1) !== 'D8' || !/^\d{8}$/.test(s.el(2))
      ? 'DMG01 D8 and DMG02 the birth date are required'
      : ['F', 'M', 'U'].includes(s.el(3))
        ? null
        : 'DMG03 must be F, M or U',
  );

const prv = (code: string, name: string, usage: Usage) =>
  seg('PRV', name, usage, 1, [code], (s) =>
    s.el(2) === 'PXC' && /^[0-9A-Z]{9}X$/.test(s.el(3))
      ? null
      : 'PRV02 must be PXC and PRV03 a 10-character taxonomy code',
  );

const SUBSCRIBER_IS_PATIENT =
  'required when the patient is the subscriber (SBR02 18); otherwise not sent';

const LOOP_2400: LoopRule = {
  id: '2400',
  name: 'Service line',
  usage: R,
  max: 50,
  segments: [
    seg('LX', 'Service line number', R),
    seg('SV1', 'Professional service', R, 1, undefined, (s) => {
      const parts = s.components(1);
      if (parts[0] !== 'HC' || !/^[A-Z0-9]{5}$/.test(parts[1] ?? ''))
        return 'SV101 must be HC and a CPT/HCPCS code';
      if (parts.length > 6 || parts.slice(2).some((m) => !/^[A-Z0-9]{2}$/.test(m)))
        return 'SV101-3 to SV101-6 are two-character modifiers';
      if (!['UN', 'MJ'].includes(s.el(3))) return 'SV103 must be UN or MJ';
      if (s.components(7).length < 1 || s.components(7).length > 4)
        return 'SV107 points to 1 to 4 diagnoses';
      return null;
    }),
    seg('SV5', 'Durable medical equipment service', MAY('required for DME rentals')),
    seg('PWK', 'Line supplemental information', MAY('when attachments are sent'), 10),
    seg('CR1', 'Ambulance transport information', MAY('ambulance services')),
    seg('CR3', 'Durable medical equipment certification', MAY('DME')),
    seg('CRC', 'Condition indicators', MAY('vision replacement and others'), 3),
    seg('DTP', 'Date - service date', R, 1, ['472'], (s) =>
      s.el(2) === 'D8' || s.el(2) === 'RD8' ? null : 'DTP02 must be D8 or RD8',
    ),
    seg('DTP', 'Other line dates', MAY('other dates of the line'), 10, [
      '471',
      '607',
      '463',
      '461',
      '304',
      '738',
      '739',
      '011',
      '455',
      '454',
      '453',
      '012',
      '478',
      '151',
    ]),
    seg('QTY', 'Quantities', MAY('ambulance or anesthesia'), 2),
    seg('MEA', 'Test result', MAY('test results'), 5),
    seg('CN1', 'Contract information', MAY('contracted services')),
    seg('REF', 'Line references', MAY('line identifiers'), 10),
    seg('AMT', 'Line amounts', MAY('sales tax or postage'), 2),
    seg('K3', 'File information', MAY('regulatory data'), 10),
    seg('NTE', 'Line note', MAY('when a note is needed'), 2),
    seg('PS1', 'Purchased service information', MAY('purchased services')),
    seg('HCP', 'Line pricing', MAY('repricers')),
  ],
  children: [],
};

const LOOP_2300 = (usage: Usage): LoopRule => ({
  id: '2300',
  name: 'Claim information',
  usage,
  max: 100,
  segments: [
    seg('CLM', 'Claim information', R, 1, undefined, (s) =>
      s.el(1) === '' || !/^\d+(\.\d+)?$/.test(s.el(2))
        ? 'CLM01 and CLM02 (the total charge) are required'
        : s.components(5)[1] !== 'B'
          ? 'CLM05-2 must be B'
          : null,
    ),
    seg('DTP', 'Claim dates', MAY('onset, accident, last seen and other dates'), 20),
    seg('PWK', 'Claim supplemental information', MAY('when attachments are sent'), 10),
    seg('CN1', 'Contract information', MAY('contracted claims')),
    seg(
      'AMT',
      'Patient amount paid',
      WHEN(
        'required when the patient has paid any amount; otherwise not sent',
        (f) => f.patientPaid,
      ),
      1,
      ['F5'],
      (s) =>
        /^\d+(\.\d+)?$/.test(s.el(2)) && Number(s.el(2)) > 0 ? null : 'AMT02 must be above zero',
    ),
    seg('REF', 'Claim references', MAY('prior authorisation, original reference and others'), 14),
    seg('K3', 'File information', MAY('regulatory data'), 10),
    seg('NTE', 'Claim note', MAY('when a note is needed')),
    seg('CR1', 'Ambulance transport', MAY('ambulance claims')),
    seg('CR2', 'Spinal manipulation', MAY('chiropractic claims')),
    seg('CRC', 'Condition information', MAY('EPSDT, vision and homebound conditions'), 8),
    seg('HI', 'Health care diagnosis code', R, 1, undefined, (s) => {
      const codes = s.elements.slice(1).filter((e) => e !== '');
      if (codes.length > 12) return 'HI carries at most 12 diagnoses';
      return s.components(1)[0] === 'ABK' &&
        codes.slice(1).every((_, i) => s.components(i + 2)[0] === 'ABF')
        ? null
        : 'HI01-1 must be ABK and the others ABF';
    }),
    seg('HI', 'Anesthesia related procedure', MAY('anesthesia claims'), 1, ['BP']),
    seg('HI', 'Condition information', MAY('condition codes'), 2, ['BG']),
    seg('HCP', 'Claim pricing', MAY('repricers')),
  ],
  children: [
    {
      id: '2310A',
      name: 'Referring provider',
      usage: MAY('when the claim involves a referral'),
      max: 2,
      segments: [
        nm1('DN', 'Referring provider name', '1', 'XX'),
        seg('REF', 'Secondary id', MAY('payer-assigned ids'), 3),
      ],
      children: [],
    },
    {
      id: '2310B',
      name: 'Rendering provider',
      // §15: the billing provider is an organisation, so the individual who rendered is named.
      usage: WHEN(
        'required when the rendering provider is not the billing provider (always when the billing provider is an organisation)',
        (f) => f.billingProviderIsOrganisation,
        true,
      ),
      max: 1,
      segments: [
        nm1('82', 'Rendering provider name', '1', 'XX'),
        prv(
          'PE',
          'Rendering provider specialty',
          MAY('required when the payer needs the taxonomy; CONTRACT §15 sends it'),
        ),
        seg('REF', 'Secondary id', MAY('payer-assigned ids'), 4),
      ],
      children: [],
    },
    {
      id: '2310C',
      name: 'Service facility location',
      usage: MAY('when the service was rendered elsewhere than the billing address'),
      max: 1,
      segments: [
        seg('NM1', 'Service facility name', R, 1, ['77']),
        seg('N3', 'Address', R),
        n4(R),
        seg('REF', 'Secondary id', MAY('payer-assigned ids'), 3),
        seg('PER', 'Contact', MAY('ambulance claims')),
      ],
      children: [],
    },
    {
      id: '2310D',
      name: 'Supervising provider',
      usage: MAY('when the rendering provider is supervised'),
      max: 1,
      segments: [
        nm1('DQ', 'Supervising provider name', '1', 'XX'),
        seg('REF', 'Secondary id', MAY('ids'), 4),
      ],
      children: [],
    },
    {
      id: '2320',
      name: 'Other subscriber information',
      usage: MAY('required when other payers are known'),
      max: 10,
      segments: [seg('SBR', 'Other subscriber information', R)],
      children: [],
    },
    LOOP_2400,
  ],
});

/** The 837P's loops and segments (005010X222A1), from BHT to the last 2400. */
const TRANSACTION: LoopRule = {
  id: 'header',
  name: 'Transaction set header',
  usage: R,
  max: 1,
  segments: [
    seg('BHT', 'Beginning of hierarchical transaction', R, 1, undefined, (s) =>
      s.el(1) === '0019' && ['00', '18'].includes(s.el(2)) && s.el(6) === 'CH'
        ? null
        : 'BHT01 must be 0019, BHT02 00 or 18, BHT06 CH',
    ),
  ],
  children: [
    {
      id: '1000A',
      name: 'Submitter',
      usage: R,
      max: 1,
      segments: [
        nm1('41', 'Submitter name', null, '46'),
        seg('PER', 'Submitter contact', R, 2, ['IC']),
      ],
      children: [],
    },
    {
      id: '1000B',
      name: 'Receiver',
      usage: R,
      max: 1,
      segments: [nm1('40', 'Receiver name', '2', '46')],
      children: [],
    },
    {
      id: '2000A',
      name: 'Billing provider level',
      usage: R,
      max: 1000,
      segments: [
        hl('20', true),
        prv(
          'BI',
          'Billing provider specialty',
          MAY('required when the payer needs the taxonomy to adjudicate; CONTRACT §15 sends it'),
        ),
        seg('CUR', 'Foreign currency', MAY('when not US dollars')),
      ],
      children: [
        {
          id: '2010AA',
          name: 'Billing provider',
          usage: R,
          max: 1,
          segments: [
            nm1('85', 'Billing provider name', null, 'XX'),
            seg('N3', 'Billing provider address', R),
            n4(R, true),
            seg('REF', 'Billing provider tax id', R, 1, ['EI', 'SY'], (s) =>
              s.el(1) === 'EI' && !/^\d{9}$/.test(s.el(2)) ? 'REF02 must be the 9-digit EIN' : null,
            ),
            seg('REF', 'Billing provider UPIN/license', MAY('payer-assigned ids'), 2, ['0B', '1G']),
            seg('PER', 'Billing provider contact', MAY('when the submitter is not the contact'), 2),
          ],
          children: [],
        },
        {
          id: '2010AB',
          name: 'Pay-to address',
          usage: MAY('required when the pay-to address differs from the billing address'),
          max: 1,
          segments: [
            seg('NM1', 'Pay-to address name', R, 1, ['87']),
            seg('N3', 'Address', R),
            n4(R),
          ],
          children: [],
        },
        {
          id: '2000B',
          name: 'Subscriber level',
          usage: R,
          max: 1000,
          segments: [
            hl('22', false),
            seg('SBR', 'Subscriber information', R, 1, undefined, (s) =>
              !['P', 'S', 'T'].includes(s.el(1))
                ? 'SBR01 must be P, S or T'
                : !['', '18'].includes(s.el(2))
                  ? 'SBR02 is 18 or empty'
                  : s.el(9) === ''
                    ? 'SBR09 (the claim filing indicator) is required'
                    : null,
            ),
            seg(
              'PAT',
              'Patient information',
              WHEN(
                'sent only when the patient is the subscriber and deceased or pregnant',
                () => false,
                false,
              ),
            ),
          ],
          children: [
            {
              id: '2010BA',
              name: 'Subscriber',
              usage: R,
              max: 1,
              segments: [
                nm1('IL', 'Subscriber name', null, 'MI'),
                seg(
                  'N3',
                  'Subscriber address',
                  WHEN(SUBSCRIBER_IS_PATIENT, (f) => f.patientIsSubscriber),
                ),
                n4(WHEN(SUBSCRIBER_IS_PATIENT, (f) => f.patientIsSubscriber)),
                dmg(WHEN(SUBSCRIBER_IS_PATIENT, (f) => f.patientIsSubscriber)),
                seg(
                  'REF',
                  'Subscriber secondary id',
                  MAY('SSN or property and casualty claim number'),
                  2,
                  ['SY', 'Y4'],
                ),
                seg('PER', 'Property and casualty contact', MAY('property and casualty claims')),
              ],
              children: [],
            },
            {
              id: '2010BB',
              name: 'Payer',
              usage: R,
              max: 1,
              segments: [
                nm1('PR', 'Payer name', '2', 'PI'),
                seg('N3', 'Payer address', MAY('when the payer wants it')),
                n4(MAY('when the payer wants it')),
                seg('REF', 'Payer secondary id', MAY('payer-assigned ids'), 4),
              ],
              children: [],
            },
            LOOP_2300(
              WHEN(
                'required when the patient is the subscriber; otherwise the claim goes under 2000C',
                (f) => f.patientIsSubscriber,
              ),
            ),
            {
              id: '2000C',
              name: 'Patient level',
              usage: WHEN(
                'required when the patient is not the subscriber; not sent when SBR02 is 18',
                (f) => !f.patientIsSubscriber,
              ),
              max: 1000,
              segments: [
                hl('23', false),
                seg('PAT', 'Patient information', R, 1, undefined, (s) =>
                  ['01', '19', '20', '21', '39', '40', '53', 'G8'].includes(s.el(1))
                    ? null
                    : 'PAT01 is not an individual relationship code of the guide',
                ),
              ],
              children: [
                {
                  id: '2010CA',
                  name: 'Patient',
                  usage: R,
                  max: 1,
                  segments: [
                    nm1('QC', 'Patient name', '1', null),
                    seg('N3', 'Patient address', R),
                    n4(R),
                    dmg(R),
                    seg(
                      'REF',
                      'Property and casualty claim number',
                      MAY('property and casualty claims'),
                    ),
                    seg(
                      'PER',
                      'Property and casualty contact',
                      MAY('property and casualty claims'),
                    ),
                  ],
                  children: [],
                },
                LOOP_2300(R),
              ],
            },
          ],
        },
      ],
    },
  ],
};

interface LoopInstance {
  rule: LoopRule;
  parent: LoopInstance | null;
  /** Index of the last segment rule matched; segments only move forward. */
  segmentAt: number;
  /** Index of the last child loop rule opened (-1: none yet). */
  childAt: number;
  segmentCounts: number[];
  childCounts: number[];
  first: Segment | null;
}

const open = (
  rule: LoopRule,
  parent: LoopInstance | null,
  first: Segment | null,
): LoopInstance => ({
  rule,
  parent,
  segmentAt: 0,
  childAt: -1,
  segmentCounts: rule.segments.map(() => 0),
  childCounts: rule.children.map(() => 0),
  first,
});

const matches = (rule: SegmentRule, s: Segment) =>
  rule.id === s.id && (!rule.qualifier || rule.qualifier.includes(s.el(1)));

/**
 * Problems of the 837P `text` against the guide's loop and segment usage, one line each
 * (`2010BA N3 (Subscriber address): required when ...`); empty when it conforms.
 */
export function check837Structure(text: string, facts: ClaimFacts = {}): string[] {
  const interchange = readInterchange(text);
  const problems: string[] = [];
  const [set] = interchange.groups[0]?.transactions ?? [];
  if (!set || set.type !== '837') return ['not an 837 transaction set'];
  if (set.implementationReference !== '005010X222A1')
    problems.push(`ST03 ${set.implementationReference}: expected 005010X222A1`);
  const sbr = set.segments.find((s) => s.id === 'SBR');
  const billing = set.segments.find((s) => s.id === 'NM1' && s.el(1) === '85');
  const file: FileFacts = {
    ...facts,
    patientIsSubscriber: sbr?.el(2) === '18',
    billingProviderIsOrganisation: billing?.el(2) === '2',
  };

  const root = open(TRANSACTION, null, null);
  const instances: LoopInstance[] = [root];
  let current: LoopInstance = root;
  const hlLevels = new Map<string, string>();
  for (const s of set.segments) {
    let placed: LoopInstance | null = null;
    for (let loop: LoopInstance | null = current; loop && !placed; loop = loop.parent)
      placed = place(loop, s, problems);
    if (placed) {
      if (placed !== current && placed.parent && !instances.includes(placed))
        instances.push(placed);
      current = placed;
    }
    if (!placed)
      problems.push(
        `${s.label}: ${s.id}${s.el(1) ? `*${s.el(1)}` : ''} is not used here by 005010X222A1 (in or after loop ${current.rule.id})`,
      );
    if (s.id === 'HL') {
      const parent = s.el(2);
      if (parent && !hlLevels.has(parent))
        problems.push(`${s.label}: HL02 ${parent} is no earlier HL`);
      hlLevels.set(s.el(1), s.el(3));
    }
  }

  for (const loop of instances) {
    const where = loop.first ? ` (${loop.first.label})` : '';
    loop.rule.segments.forEach((r, k) => {
      const problem = usageProblem(r.usage, loop.segmentCounts[k], file);
      if (problem)
        problems.push(
          `${loop.rule.id} ${r.id}${r.qualifier ? `*${r.qualifier[0]}` : ''} (${r.name})${where}: ${problem}`,
        );
    });
    loop.rule.children.forEach((c, k) => {
      const problem = usageProblem(c.usage, loop.childCounts[k], file);
      if (problem)
        problems.push(`loop ${c.id} (${c.name}) under ${loop.rule.id}${where}: ${problem}`);
    });
  }
  checkAmounts(set.segments, problems);
  return problems;
}

/**
 * Places `s` in `loop`: as one of its own segments (at or after the last one, before any child
 * loop began), or as the trigger of one of its child loops (the same or a later one). Answers the
 * loop instance the segment went into, or null when it does not fit here.
 */
function place(loop: LoopInstance, s: Segment, problems: string[]): LoopInstance | null {
  const { rule } = loop;
  if (loop.childAt === -1) {
    // The trigger (k = 0) opens a new instance of the loop, except for the header's BHT.
    const at = rule.segments.findIndex(
      (r: SegmentRule, k: number) =>
        k >= loop.segmentAt && (k > 0 || loop.first === null) && matches(r, s),
    );
    if (at !== -1) {
      loop.segmentAt = at;
      loop.segmentCounts[at]++;
      const r = rule.segments[at];
      if (loop.segmentCounts[at] > r.max)
        problems.push(`${rule.id} ${s.id} (${r.name}) ${s.label}: more than ${r.max}`);
      checkSegment(rule, r, s, problems);
      return loop;
    }
  }
  const j = rule.children.findIndex(
    (c: LoopRule, k: number) =>
      k >= Math.max(loop.childAt, 0) && matches(c.segments[0], s) && triggers(c, s),
  );
  if (j === -1) return null;
  loop.childAt = j;
  loop.childCounts[j]++;
  const child = rule.children[j];
  if (loop.childCounts[j] > child.max)
    problems.push(`loop ${child.id} (${child.name}) ${s.label}: more than ${child.max}`);
  const instance = open(child, loop, s);
  instance.segmentCounts[0] = 1;
  checkSegment(child, child.segments[0], s, problems);
  return instance;
}

/** HL loops are told apart by HL03, the level code. */
function triggers(rule: LoopRule, s: Segment): boolean {
  if (s.id !== 'HL') return true;
  return (
    ({ '2000A': '20', '2000B': '22', '2000C': '23' } as Record<string, string>)[rule.id] === s.el(3)
  );
}

function checkSegment(loop: LoopRule, rule: SegmentRule, s: Segment, problems: string[]): void {
  const problem = rule.check?.(s);
  if (problem) problems.push(`${loop.id} ${s.id} (${rule.name}) ${s.label}: ${problem}`);
}

function usageProblem(usage: Usage, count: number, facts: FileFacts): string | null {
  if (usage.kind === 'required') return count === 0 ? 'required, missing' : null;
  const required = usage.when(facts);
  if (required === true && count === 0) return `missing: ${usage.condition}`;
  if (required === false && !usage.sendOtherwise && count > 0)
    return `sent, but ${usage.condition}`;
  return null;
}

/** CLM02 is the sum of the lines' SV102; every SV107 pointer points to an HI code. */
function checkAmounts(segments: readonly Segment[], problems: string[]): void {
  const clm = segments.find((s) => s.id === 'CLM');
  const hi = segments.find((s) => s.id === 'HI' && s.components(1)[0] === 'ABK');
  const lines = segments.filter((s) => s.id === 'SV1');
  if (!clm || !hi) return;
  const minor = (v: string) => (/^\d+(\.\d+)?$/.test(v) ? toMinor(v) : -1n);
  const sum = lines.reduce((total, s) => total + minor(s.el(2)), 0n);
  if (sum !== minor(clm.el(2)))
    problems.push(`2300 CLM02 ${clm.el(2)} is not the sum of the lines' SV102 (${fromMinor(sum)})`);
  const diagnoses = hi.elements.slice(1).filter((e) => e !== '').length;
  for (const s of lines)
    if (s.components(7).some((p) => !/^\d+$/.test(p) || Number(p) < 1 || Number(p) > diagnoses))
      problems.push(`2400 SV1 ${s.label}: SV107 points past the ${diagnoses} HI codes`);
}
