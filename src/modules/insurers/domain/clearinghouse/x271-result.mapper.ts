import type { StreetAddress } from '@/lib/person';
import type {
  InsurerPerson,
  InsurerPlanResult,
  PlanStatus,
} from '@/modules/insurers/domain/insurer-connector';
import type {
  BenefitLoop,
  DatePeriod,
  DependentLoop,
  Interchange271,
  MemberName,
  RequestValidation,
  SubscriberLoop,
} from '@/lib/x12';
import { AaaClass, classifyAaa, describeAaa } from './aaa-codes';
import { buildPlan, type TreeDates } from './benefit-tree';
import { isoDate } from '@/platform/kernel/time';

/** What a 271 says, in the terms of a search (docs/api.md, Real insurers). */
export type Answer271 =
  | { kind: 'found'; plans: InsurerPlanResult[] }
  | { kind: AaaClass; aaaCodes: string[]; reason: string };

interface MapOptions {
  /** The date the 270 asked about (`YYYY-MM-DD`): the plan's begin date when the 271 gives none. */
  inquiryDate: string;
  /** The date of birth asked about: the subscriber's when the 271 has no DMG. */
  queryDob: string;
}

const INS_TYPES: Readonly<Record<string, string>> = { '01': 'spouse', '19': 'child' };

/**
 * Every AAA of a 271, wherever it stands (2000A/2100A, 2100B, 2100C/D, and with `benefits` the
 * 2110C/D lines too).
 */
export function collectValidations(
  answer: Interchange271,
  { benefits: withBenefits = true }: { benefits?: boolean } = {},
): RequestValidation[] {
  const member = (m: MemberName, benefits: BenefitLoop[]) => [
    ...m.validations,
    ...(withBenefits ? benefits.flatMap((b) => b.validations) : []),
  ];
  return answer.responses.flatMap((response) =>
    response.sources.flatMap((source) => [
      ...source.validations,
      ...source.receivers.flatMap((receiver) => [
        ...receiver.validations,
        ...receiver.subscribers.flatMap((s) => [
          ...member(s.member, s.benefits),
          ...s.dependents.flatMap((d) => member(d.member, d.benefits)),
        ]),
      ]),
    ]),
  );
}

/** Every subscriber loop of a 271, with the name of the information source that answered it. */
export function subscriberLoops(
  answer: Interchange271,
): { payerName: string; subscriber: SubscriberLoop }[] {
  return answer.responses.flatMap((response) =>
    response.sources.flatMap((source) =>
      source.receivers.flatMap((receiver) =>
        receiver.subscribers.map((subscriber) => ({ payerName: source.name.lastName, subscriber })),
      ),
    ),
  );
}

/** The AAA of 2110 loops in words, for the exchange log: they only concern their own line. */
export function benefitValidationNotes(answer: Interchange271): string[] {
  const all = collectValidations(answer);
  const deciding = new Set(collectValidations(answer, { benefits: false }));
  return all
    .filter((v) => !deciding.has(v))
    .map((v) => `AAA ${describeAaa(v.reason)} in ${v.loop}: that benefit line is left out`);
}

/**
 * The 271 → result mapping of docs/api.md, Real insurers: an AAA outside the benefit loops decides the
 * outcome by its class (one in a 2110 loop concerns that line only and becomes a plan comment);
 * otherwise one plan per subscriber loop, with the subscriber and each dependent as persons.
 */
export function map271(answer: Interchange271, options: MapOptions): Answer271 {
  const validations = collectValidations(answer, { benefits: false });
  const codes = [...new Set(validations.map((v) => v.reason))];
  const aaaClass = classifyAaa(codes);
  if (aaaClass) {
    const where = validations.map((v) => `${describeAaa(v.reason)} in ${v.loop}`);
    return {
      kind: aaaClass,
      aaaCodes: codes,
      reason: `the payer answered AAA ${where.join(', ')}`,
    };
  }
  const plans = subscriberLoops(answer).map(({ payerName, subscriber }) =>
    planResult(subscriber, payerName, options),
  );
  if (plans.length === 0) {
    return {
      kind: 'unexpected',
      aaaCodes: [],
      reason: 'the 271 has no subscriber and no AAA reason',
    };
  }
  return { kind: 'found', plans };
}

function planResult(
  subscriber: SubscriberLoop,
  payerName: string,
  options: MapOptions,
): InsurerPlanResult {
  const all = [...subscriber.benefits, ...subscriber.dependents.flatMap((d) => d.benefits)];
  const ownStatus = coverageStatus(subscriber.benefits);
  const status: PlanStatus = ownStatus ?? coverageStatus(all) ?? 'unavailable';
  const statusLines = all.filter((b) => /^[1-8]$/.test(b.eb.info));
  const statusLine = statusLines.find((b) => isPlanLine(b)) ?? statusLines[0];
  // docs/api.md, Real insurers: the plan's name is the vision line's EB05 when there is one.
  const named = all.filter((b) => b.eb.planDescription !== '' && !/^[RU]$/.test(b.eb.info));
  const visionName = named.find((b) => b.eb.serviceTypes.includes('AL'));
  const references = [
    ...subscriber.member.references,
    ...subscriber.dependents.flatMap((d) => d.member.references),
    ...all.flatMap((b) => b.references),
  ];
  const group = references.find((r) => r.qualifier === '6P');
  // REF*1L (group or policy number) or IG (insurance policy number) when there is no 6P.
  const groupId = group?.value || references.find((r) => /^(1L|IG)$/.test(r.qualifier))?.value;
  // A 271 about a dependent may date the plan in 2100D only (docs/api.md, Real insurers).
  const dates =
    planDates(subscriber.member.dates) ??
    planDates(statusLine?.dates ?? []) ??
    subscriber.dependents.map((d) => planDates(d.member.dates)).find((d) => d !== null) ??
    null;
  const begin = dates?.begin ?? options.inquiryDate;
  const end = dates?.end ?? null;
  const refresh = refreshDate(begin, end, options.inquiryDate);
  const tree = { begin, end, refresh, beginStated: !!dates?.begin, asOf: options.inquiryDate };
  const subscriberPerson = person(subscriber.member, {
    type: 'self',
    dob: subscriber.member.demographics?.dob ?? options.queryDob,
    memberId: memberId(subscriber.member),
    isActive: activity(ownStatus ?? status),
    plan: buildPlan(subscriber.benefits, tree),
  });
  const persons = [subscriberPerson];
  for (const dependent of subscriber.dependents) {
    const mapped = dependentPerson(dependent, subscriber, subscriberPerson, tree, status);
    if (mapped) persons.push(mapped);
  }
  return {
    status,
    planName:
      (visionName?.eb.planDescription ||
        statusLine?.eb.planDescription ||
        named[0]?.eb.planDescription) ??
      payerName,
    planGroup: group?.description ?? '',
    planGroupId: groupId || null,
    planBeginDate: begin,
    planEndDate: end,
    planRefreshDate: null,
    planIsActive: status === 'active',
    persons,
  };
}

/** A line about the whole plan: EB03 `AL` or `30`, or none. */
function isPlanLine(b: BenefitLoop): boolean {
  return b.eb.serviceTypes.length === 0 || b.eb.serviceTypes.some((t) => t === 'AL' || t === '30');
}

/**
 * A dependent without a date of birth is left out: a result person must have one, and the
 * subscriber's (or the patient's) would be a guess.
 */
function dependentPerson(
  dependent: DependentLoop,
  subscriber: SubscriberLoop,
  subscriberPerson: InsurerPerson,
  planDatesOf: TreeDates & { begin: string },
  planStatus: PlanStatus,
): InsurerPerson | null {
  const dob = dependent.member.demographics?.dob;
  if (!dob) return null;
  const own = dependent.benefits.some((b) => !/^[1-8]$/.test(b.eb.info));
  const dates = planDates(dependent.member.dates);
  const begin = dates?.begin ?? planDatesOf.begin;
  const end = dates?.end ?? planDatesOf.end;
  const relationship = dependent.member.relationship?.code ?? '';
  return person(dependent.member, {
    type: INS_TYPES[relationship] ?? 'dependent',
    dob,
    memberId: memberId(dependent.member) ?? subscriberPerson.memberId,
    isActive: activity(coverageStatus(dependent.benefits) ?? planStatus),
    plan: buildPlan(own ? dependent.benefits : subscriber.benefits, {
      begin,
      end,
      refresh: end ? dayAfter(end) : planDatesOf.refresh,
      beginStated: !!dates?.begin || planDatesOf.beginStated,
      asOf: planDatesOf.asOf,
    }),
  });
}

function person(
  member: MemberName,
  fields: Pick<InsurerPerson, 'type' | 'dob' | 'memberId' | 'isActive' | 'plan'>,
): InsurerPerson {
  const ssn = member.references.find((r) => r.qualifier === 'SY')?.value ?? '';
  const sex = member.demographics?.sex;
  return {
    firstName: member.name.firstName,
    lastName: member.name.lastName,
    sex: sex === 'M' ? 'male' : sex === 'F' ? 'female' : 'unknown',
    ssnLastFour: /^\d{9}$/.test(ssn) ? ssn.slice(5) : null,
    address: address(member),
    email: null,
    phone: '',
    ...fields,
  };
}

function address(member: MemberName): StreetAddress {
  const a = member.address;
  const zip = a?.zip ?? '';
  return {
    line1: a?.line1 ?? '',
    line2: a?.line2 ?? null,
    city: a?.city ?? '',
    state: a?.state ?? '',
    zipcode: /^\d{9}$/.test(zip) ? `${zip.slice(0, 5)}-${zip.slice(5)}` : zip,
  };
}

function memberId(member: MemberName): string | null {
  return member.name.idQualifier === 'MI' && member.name.id ? member.name.id : null;
}

/**
 * EB01 `1`–`5`: active; `6`–`8`: inactive; null when no line states coverage. A line on `AL`/`30`
 * decides (docs/api.md, Real insurers); other service types' lines only when no plan line states coverage.
 */
function coverageStatus(benefits: readonly BenefitLoop[]): PlanStatus | null {
  const stating = benefits.filter((b) => /^[1-8]$/.test(b.eb.info));
  const planLines = stating.filter(isPlanLine);
  const infos = (planLines.length > 0 ? planLines : stating).map((b) => b.eb.info);
  if (infos.some((i) => /^[1-5]$/.test(i))) return 'active';
  if (infos.some((i) => /^[6-8]$/.test(i))) return 'inactive';
  return null;
}

function activity(status: PlanStatus): boolean | null {
  return status === 'active' ? true : status === 'inactive' ? false : null;
}

/**
 * DTP 346/347 (plan begin/end), else 291 (plan), 356/357 (eligibility). A 307 (eligibility) RD8
 * echoes the inquiry's date range, not the plan's (docs/api.md, Real insurers), so it is not read.
 */
function planDates(
  dates: readonly DatePeriod[],
): { begin: string | null; end: string | null } | null {
  const of = (q: string) => dates.find((d) => d.qualifier === q);
  const range = (q: string) => dates.find((d) => d.qualifier === q && d.format === 'RD8');
  const begin = of('346')?.from ?? of('291')?.from ?? of('356')?.from ?? null;
  const end = of('347')?.to ?? range('291')?.to ?? of('357')?.to ?? null;
  return begin || end ? { begin, end } : null;
}

/**
 * A benefit item must carry a refresh date: the day after the plan ends when the 271 says when,
 * else the next anniversary of the plan's begin date (vision benefit periods are yearly).
 */
function refreshDate(begin: string, end: string | null, today: string): string {
  if (end) return dayAfter(end);
  let year = Number(begin.slice(0, 4)) + 1;
  while (`${year}${begin.slice(4)}` <= today) year += 1;
  return `${year}${begin.slice(4)}`.replace(/-02-29$/, '-03-01');
}

function dayAfter(date: string): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + 1);
  return isoDate(d)!;
}
