import { createHash } from 'node:crypto';
import { Injectable, Optional } from '@nestjs/common';
import {
  ConnectorContext,
  DetailsOutcome,
  InsurerConnector,
  InsurerPerson,
  InsurerPlanResult,
  MemberQuery,
  OutcomeWithoutPlans,
  PlanDetailsQuery,
  SearchOutcome,
} from '../insurer-connector';
import { InsurerConnectorFor } from '../insurer-registry.service';
import { buildPlan, PLAN_VARIANTS, PlanShape } from './demo-plan';
import { sexOfFirstName } from './demo-people';
import { SandboxSearchesRepository } from '../../store/sandbox-searches.repository';

const DEMO_INSURER = 'insurer:demo:vision';

/** Cheat codes (docs/api.md, Eligibility): case-insensitive substrings of first_name, last_name or member_id. */
const CHEAT_CODES = [
  'mark_used',
  'dt_exam_used',
  'no_oon',
  'no_inn',
  'no_materials',
  'delay_10',
  'delay_30',
  'big_family',
  'not_found',
  'in_err_int',
  'in_err_ins',
  'inactive',
  'flip_inactive',
] as const;
type CheatCode = (typeof CHEAT_CODES)[number];

function cheatCodes(query: MemberQuery): Set<CheatCode> {
  const text = [query.firstName, query.lastName, query.memberId ?? ''].join(' ').toLowerCase();
  // `inactive` inside `flip_inactive` is not the code `inactive`.
  const rest = text.replaceAll('flip_inactive', ' ');
  return new Set(CHEAT_CODES.filter((c) => (c === 'flip_inactive' ? text : rest).includes(c)));
}

const STREETS = [
  'Oak Street',
  'Maple Avenue',
  'Cedar Lane',
  'Elm Drive',
  'Pecan Boulevard',
  'Willow Court',
];
const ZIP_PLACES: [string, string, string][] = [
  ['787', 'Austin', 'TX'],
  ['100', 'New York', 'NY'],
  ['606', 'Chicago', 'IL'],
  ['941', 'San Francisco', 'CA'],
  ['331', 'Miami', 'FL'],
  ['981', 'Seattle', 'WA'],
];

/**
 * The sandbox insurer: always reachable, deterministic (the same patient gives the same plan), and
 * steered by cheat codes. Delays are answered as "ask again later", so the search queue turns them
 * into delayed jobs instead of sleeping workers.
 */
@Injectable()
@InsurerConnectorFor(DEMO_INSURER)
export class DemoVisionConnector implements InsurerConnector {
  readonly local = true;

  /** `searches`: where `flip_inactive` counts; none (a plan generator for tests' fakes): every search is a first. */
  constructor(@Optional() private readonly searches?: SandboxSearchesRepository) {}

  async search(query: MemberQuery, context: ConnectorContext): Promise<SearchOutcome> {
    const codes = cheatCodes(query);
    const unanswered = this.unanswered(codes, context);
    if (unanswered) return unanswered;
    if (codes.has('not_found'))
      return { kind: 'not_found', reason: 'Sandbox: no member (not_found)' };
    // `flip_inactive`: the patient's first search finds the plan active, every later one inactive.
    if (
      codes.has('flip_inactive') &&
      this.searches &&
      (await this.searches.count(context.accountId, query)) > 1
    )
      codes.add('inactive');
    return { kind: 'found', plans: [this.planResult(query, codes, 'summary')] };
  }

  async fetchPlanDetails(
    details: PlanDetailsQuery,
    context: ConnectorContext,
  ): Promise<DetailsOutcome> {
    const codes = cheatCodes(details.query);
    const unanswered = this.unanswered(codes, context);
    if (unanswered) return unanswered;
    const full = this.planResult(details.query, codes, 'full');
    const person = full.persons.find(
      (p) =>
        p.type === details.person.type &&
        p.firstName.toLowerCase() === details.person.firstName.toLowerCase(),
    );
    if (!person)
      return {
        kind: 'unavailable',
        reason: 'The insurer no longer lists this person.',
        retryAfterMs: null,
      };
    return { kind: 'found', plan: { ...full, persons: [person] } };
  }

  /** Not answered now: a delay's ask-again-later, or a simulated failure. */
  private unanswered(codes: Set<CheatCode>, context: ConnectorContext): OutcomeWithoutPlans | null {
    const delayMs = codes.has('delay_30') ? 30_000 : codes.has('delay_10') ? 10_000 : 0;
    if (context.elapsedMs < delayMs)
      return { kind: 'deferred', retryAfterMs: delayMs - context.elapsedMs };
    if (codes.has('in_err_int'))
      return { kind: 'unexpected', reason: 'Sandbox: simulated internal failure (in_err_int)' };
    if (codes.has('in_err_ins'))
      return {
        kind: 'unavailable',
        reason: 'Sandbox: simulated insurer outage (in_err_ins)',
        retryAfterMs: null,
      };
    return null;
  }

  private planResult(
    query: MemberQuery,
    codes: Set<CheatCode>,
    detail: PlanShape['detail'],
  ): InsurerPlanResult {
    const seed = createHash('sha256')
      .update(
        [query.firstName, query.lastName, query.dob, query.zipcode, query.memberId ?? '']
          .join('|')
          .toLowerCase(),
      )
      .digest();
    const variant = PLAN_VARIANTS[seed[0] % PLAN_VARIANTS.length];
    const year = new Date().getUTCFullYear();
    const dates = { begin: `${year}-01-01`, end: `${year}-12-31`, refresh: `${year + 1}-01-01` };
    const inactive = codes.has('inactive');
    const shape: PlanShape = {
      detail,
      markUsed: codes.has('mark_used'),
      examUsed: codes.has('dt_exam_used'),
      noOon: codes.has('no_oon'),
      noInn: codes.has('no_inn'),
      noMaterials: codes.has('no_materials'),
    };
    const plan = buildPlan(variant, dates, shape);
    const memberId =
      query.memberId ?? `DMV${(seed.readUInt32BE(1) % 1e9).toString().padStart(9, '0')}`;
    const [, city, state] = ZIP_PLACES.find(([prefix]) => query.zipcode.startsWith(prefix)) ?? [
      '',
      'Springfield',
      'IL',
    ];
    const address = {
      line1: `${100 + (seed[5] % 900)} ${STREETS[seed[6] % STREETS.length]}`,
      line2: seed[7] % 3 === 0 ? `Apt ${1 + (seed[8] % 20)}` : null,
      city,
      zipcode: query.zipcode,
      state,
    };
    const phone = `512-555-01${String(seed[9] % 100).padStart(2, '0')}`;
    const subscriber: InsurerPerson = {
      firstName: titleCase(query.firstName),
      lastName: titleCase(query.lastName),
      dob: query.dob,
      sex: sexOfFirstName(query.firstName) ?? (seed[4] % 2 === 0 ? 'female' : 'male'),
      memberId,
      ssnLastFour: query.ssnLastFour,
      type: 'self',
      address,
      email:
        seed[10] % 2 === 0 ? `${slug(query.firstName)}.${slug(query.lastName)}@example.com` : null,
      phone,
      isActive: !inactive,
      plan,
    };
    const persons = [subscriber];
    if (codes.has('big_family')) {
      const birthYear = Number(query.dob.slice(0, 4));
      const dependents: [string, string, string, number][] = [
        ['Jordan', 'spouse', subscriber.sex === 'female' ? 'male' : 'female', birthYear + 1],
        ['Avery', 'child', 'female', Math.min(year - 1, birthYear + 28)],
        ['Riley', 'child', 'male', Math.min(year - 1, birthYear + 30)],
        ['Casey', 'child', 'female', Math.min(year - 1, birthYear + 33)],
      ];
      dependents.forEach(([first, type, sex, y], i) =>
        persons.push({
          ...subscriber,
          firstName: first,
          dob: `${y}-0${(i % 9) + 1}-1${i}`,
          sex,
          type,
          memberId: `${memberId}-0${i + 1}`,
          ssnLastFour: null,
          email: null,
          plan: buildPlan(variant, dates, shape),
        }),
      );
    }
    return {
      status: inactive ? 'inactive' : shape.noInn ? 'out_of_network' : 'active',
      planName: variant.name,
      planGroup: variant.group,
      planGroupId: variant.groupId,
      planBeginDate: dates.begin,
      planEndDate: dates.end,
      planRefreshDate: dates.refresh,
      planIsActive: !inactive,
      persons,
    };
  }
}

function titleCase(s: string): string {
  return s
    .toLowerCase()
    .replace(/(^|[\s'-])(\p{L})/gu, (_m, sep: string, ch: string) => sep + ch.toUpperCase());
}

function slug(s: string): string {
  return s.toLowerCase().replace(/[^a-z0-9]+/g, '') || 'member';
}
