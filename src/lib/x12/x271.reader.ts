import {
  readAaa,
  readDate,
  readDecimal,
  readDmg,
  readDtp,
  readN3,
  readN4,
  readNm1,
  type PostalAddress,
  readRef,
  readTrn,
} from './x12.elements';
import { readInterchange, TransactionSet } from './x12.envelope';
import { X12ParseError } from './x12.errors';
import { Segment } from './x12.segment';
import { HierarchyLevel, HL_PARENTS, LOOP_LETTER, walkHierarchy } from './x12.hierarchy';
import type {
  BenefitLoop,
  EligibilityResponse,
  Interchange271,
  MemberName,
  ReceiverLoop,
  SourceLoop,
  SubscriberLoop,
} from './x271.types';

/**
 * Reads a 271 interchange (005010X279A1) into its loops: 2000A information source, 2000B
 * receiver, 2000C subscriber, 2000D dependent, each with its 2100 name loop, and the 2110 benefit
 * loops (EB with HSD, REF, DTP, AAA, MSG and the 2120 entities inside LS/LE). Segments the guide
 * allows but the service does not use (PER, PRV, III, HI, MPI, ...) are read past.
 */
export function read271(text: string): Interchange271 {
  // docs/api.md, Real insurers: envelope slips are recorded, not fatal.
  const interchange = readInterchange(text, { mode: 'tolerant' });
  const responses: EligibilityResponse[] = [];
  for (const group of interchange.groups) {
    for (const set of group.transactions) {
      if (set.type !== '271') {
        throw set.st.error(`transaction set ${set.type}: expected a 271 eligibility response`);
      }
      responses.push(readResponse(set));
    }
  }
  const skipped = responses.flatMap((r) => r.skipped);
  return { isa: interchange.isa, responses, slips: interchange.slips, skipped };
}

function readResponse(set: TransactionSet): EligibilityResponse {
  const [bht] = set.segments;
  if (bht?.id !== 'BHT') throw set.st.error('a 271 starts with BHT after ST');
  const response: EligibilityResponse = {
    controlNumber: set.controlNumber,
    reference: bht.el(3),
    date: bht.el(4) ? readDate(bht, 4) : null,
    sources: [],
    skipped: [],
  };
  const levels = walkHierarchy(set.segments.slice(1), set.st, HL_PARENTS, 'EB');
  const byId = new Map<string, SourceLoop | ReceiverLoop | SubscriberLoop>();
  for (const level of levels) {
    const member = readMember(level);
    const hlValidations = level.head
      .filter((s) => s.id === 'AAA')
      .map((s) => readAaa(s, `2000${LOOP_LETTER[level.code]}`));
    const traces = level.head.filter((s) => s.id === 'TRN').map(readTrn);
    const benefits = readBenefits(level, response.skipped);
    if (level.code === '20') {
      const source: SourceLoop = {
        name: member.name,
        validations: [...hlValidations, ...member.validations],
        receivers: [],
      };
      response.sources.push(source);
      byId.set(level.id, source);
    } else if (level.code === '21') {
      const receiver: ReceiverLoop = {
        name: member.name,
        references: member.references,
        validations: [...hlValidations, ...member.validations],
        subscribers: [],
      };
      (byId.get(level.parent) as SourceLoop).receivers.push(receiver);
      byId.set(level.id, receiver);
    } else if (level.code === '22') {
      const subscriber: SubscriberLoop = { traces, member, benefits, dependents: [] };
      (byId.get(level.parent) as ReceiverLoop).subscribers.push(subscriber);
      byId.set(level.id, subscriber);
    } else {
      (byId.get(level.parent) as SubscriberLoop).dependents.push({ traces, member, benefits });
    }
    if (level.code !== '22' && level.code !== '23' && benefits.length > 0) {
      throw level.details[0].first.error('EB belongs to a subscriber or dependent loop');
    }
  }
  return response;
}

function readMember(level: HierarchyLevel): MemberName {
  const loop = `2100${LOOP_LETTER[level.code]}`;
  const nm1 = level.name[0];
  const member: MemberName = {
    name: readNm1(nm1),
    references: [],
    address: null,
    demographics: null,
    relationship: null,
    dates: [],
    validations: [],
  };
  for (const s of level.name.slice(1)) {
    if (s.id === 'REF') member.references.push(readRef(s));
    else if (s.id === 'N3') member.address = { ...addressSoFar(member), ...readN3(s) };
    else if (s.id === 'N4') member.address = { ...addressSoFar(member), ...readN4(s) };
    else if (s.id === 'DMG') member.demographics = readDmg(s);
    else if (s.id === 'INS') member.relationship = { subscriber: s.el(1) === 'Y', code: s.el(2) };
    else if (s.id === 'DTP') member.dates.push(readDtp(s));
    else if (s.id === 'AAA') member.validations.push(readAaa(s, loop));
  }
  return member;
}

/** The address an N3 or N4 adds to (N3 and N4 each give half of it). */
function addressSoFar(holder: { address: PostalAddress | null }): PostalAddress {
  return holder.address ?? { line1: '', line2: null, city: '', state: '', zip: '', country: '' };
}

/**
 * The 2110 loops of a level. A loop that does not read (an amount that is not a number, a date
 * that does not exist, an LS without LE) is skipped and said in `skipped`: it concerns that
 * benefit line only, and the rest of the answer stands (docs/api.md, Real insurers).
 */
function readBenefits(level: HierarchyLevel, skipped: string[]): BenefitLoop[] {
  const out: BenefitLoop[] = [];
  for (const detail of level.details) {
    try {
      out.push(readBenefit(detail));
    } catch (e) {
      if (!(e instanceof X12ParseError)) throw e;
      skipped.push(`${e.message}: the benefit loop of ${detail.first.label} is skipped`);
    }
  }
  return out;
}

function readBenefit(detail: HierarchyLevel['details'][number]): BenefitLoop {
  const loop: BenefitLoop = {
    eb: readEb(detail.first),
    deliveries: [],
    references: [],
    dates: [],
    validations: [],
    messages: [],
    related: [],
  };
  let inRelated = false;
  for (const s of detail.rest) {
    if (s.id === 'LS') {
      if (inRelated) throw s.error('LS inside an LS/LE loop that is not closed');
      inRelated = true;
    } else if (s.id === 'LE') {
      if (!inRelated) throw s.error('LE without LS');
      inRelated = false;
    } else if (inRelated) {
      if (s.id === 'NM1') loop.related.push({ name: readNm1(s), address: null, phone: null });
      const entity = loop.related.at(-1);
      if (entity && s.id === 'N3') entity.address = { ...addressSoFar(entity), ...readN3(s) };
      if (entity && s.id === 'N4') entity.address = { ...addressSoFar(entity), ...readN4(s) };
      if (entity && s.id === 'PER') entity.phone ??= telephone(s);
    } else if (s.id === 'HSD') loop.deliveries.push(readHsd(s));
    else if (s.id === 'REF') loop.references.push(readRef(s));
    else if (s.id === 'DTP') loop.dates.push(readDtp(s));
    else if (s.id === 'AAA') loop.validations.push(readAaa(s, detail.loop));
    else if (s.id === 'MSG') loop.messages.push(s.el(1));
  }
  if (inRelated) throw detail.first.error('its LS (2120 loop) has no LE');
  return loop;
}

/** PER03/04, 05/06, 07/08: the first `TE` number. */
function telephone(s: Segment): string | null {
  for (const n of [3, 5, 7]) if (s.el(n) === 'TE' && s.el(n + 1)) return s.el(n + 1);
  return null;
}

/** EB: one benefit statement (005010X279A1 2110C/2110D). */
export function readEb(s: Segment) {
  const procedure = s.components(13);
  return {
    /** EB01: `1`–`8` coverage status, `A` coinsurance, `B` copayment, `F` limitation, ... */
    info: s.required(1),
    /** EB02: `IND`, `FAM`, ... */
    coverageLevel: s.el(2),
    /** EB03, repeatable: `30`, `AL`, `AN`, ... */
    serviceTypes: s.repeats(3),
    insuranceType: s.el(4),
    /** EB05: the plan's description (its name). */
    planDescription: s.el(5),
    /** EB06: `22` service year, `23` calendar year, `27` visit, `29` remaining, ... */
    timePeriod: s.el(6),
    /** EB07, an amount; EB08 a fraction (`0.2` = 20 %). */
    amount: readDecimal(s, 7),
    percent: readDecimal(s, 8),
    /** EB09 / EB10. */
    quantityQualifier: s.el(9),
    quantity: readDecimal(s, 10),
    /** EB11 and EB12: `Y`, `N`, `U` / `W`, or ''. */
    authorizationRequired: s.el(11),
    inPlanNetwork: s.el(12),
    /** EB13: the procedure (`HC:V2020`). */
    procedure:
      procedure.length >= 2 && procedure[1] !== ''
        ? {
            qualifier: procedure[0],
            code: procedure[1],
            modifiers: procedure.slice(2, 6).filter(Boolean),
          }
        : null,
  };
}

/** HSD: how often a benefit may be used (quantity per period). */
export function readHsd(s: Segment) {
  return {
    /** HSD01 / HSD02: `VS` visits, `FL` units, ... and how many. */
    quantityQualifier: s.el(1),
    quantity: readDecimal(s, 2),
    /** HSD05 / HSD06: `34` months, `21` years, `23` calendar year, ... and how many of them. */
    periodQualifier: s.el(5),
    periodCount: readDecimal(s, 6),
    /** HSD07 / HSD08. */
    frequency: s.el(7),
    pattern: s.el(8),
  };
}
