/**
 * An appointment's coverage from a check's V2 answer (docs/api.md, Appointments): the facts the
 * answer gives (its basis, stored with the appointment), and from them the coverage on the
 * visit's date, which is what the appointment shows. Pure: no clock, no database.
 */

/** The four benefits an appointment's coverage lists, and the benefit codes each reads. */
const COVERAGE_BENEFITS = {
  exam: ['exam.routine', 'exam'],
  frames: ['materials.frames'],
  spectacle_lenses: ['materials.spectacle_lenses'],
  contact_lenses: ['materials.contact_lenses'],
} as const;
export type CoverageBenefit = keyof typeof COVERAGE_BENEFITS;
const BENEFIT_NAMES = Object.keys(COVERAGE_BENEFITS) as CoverageBenefit[];

/** What a check's answer says of one benefit (absent: the plan does not state it). */
interface BenefitFacts {
  covered: boolean;
  next_eligible_date: string | null;
  copayment: string | null;
  allowance: string | null;
}

/** What a check's answer says, independent of the visit's date. */
export interface CoverageBasis {
  outcome: 'active' | 'inactive' | 'no_plan' | 'failed' | 'waiting_for_person';
  plan_begin_date: string | null;
  plan_end_date: string | null;
  benefits: Partial<Record<CoverageBenefit, BenefitFacts>>;
  /** The patient's person in the answer (the Schedule's link to the Counter); absent before it was kept. */
  person_id?: number | null;
}

/** One benefit on the visit's date, as an appointment's coverage shows it. */
export interface CoverageBenefitView {
  available: boolean | null;
  next_eligible_date: string | null;
  copayment: string | null;
  allowance: string | null;
}
type CoverageBenefits = Record<CoverageBenefit, CoverageBenefitView>;

/** The patient of the appointment, to tell them from the other persons of a plan. */
export interface PatientIdentity {
  dob: string;
  last_name: string;
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
const list = (v: unknown): Json[] => (Array.isArray(v) ? v.filter(isObject) : []);
const text = (v: unknown): string | null => (typeof v === 'string' ? v : null);

/** The basis of a V2 answer (`body`: its JSON text) for `patient`. */
export function basisOf(body: string, patient: PatientIdentity): CoverageBasis {
  const answer = JSON.parse(body) as Json;
  const waiting = list(answer.insurers).some((e) => e.state === 'waiting_for_person');
  const none = (outcome: CoverageBasis['outcome']): CoverageBasis => ({
    outcome,
    plan_begin_date: null,
    plan_end_date: null,
    benefits: {},
    person_id: null,
  });
  if (answer.status !== 'complete') return none(waiting ? 'waiting_for_person' : 'failed');
  const results = list(answer.results);
  const active = results.find((r) => r.status === 'active' && r.plan_is_active !== false);
  const chosen = active ?? results[0];
  if (!chosen) return none(waiting ? 'waiting_for_person' : 'no_plan');
  const persons = list(chosen.persons);
  const person =
    persons.find(
      (p) =>
        p.dob === patient.dob &&
        (text(p.last_name) ?? '').toLowerCase() === patient.last_name.toLowerCase(),
    ) ??
    persons.find((p) => p.dob === patient.dob) ??
    persons[0];
  const plan = isObject(person?.plan) ? person.plan : null;
  const benefits: CoverageBasis['benefits'] = {};
  if (plan) {
    for (const name of BENEFIT_NAMES) {
      const facts = factsOf(list(plan.items), COVERAGE_BENEFITS[name]);
      if (facts) benefits[name] = facts;
    }
  }
  return {
    outcome: active ? 'active' : waiting ? 'waiting_for_person' : 'inactive',
    plan_begin_date: text(chosen.plan_begin_date),
    plan_end_date: text(chosen.plan_end_date),
    benefits,
    person_id: typeof person?.id === 'number' ? person.id : null,
  };
}

/** The first of `codes` found in the tree, with values inherited from its ancestors. */
function factsOf(items: Json[], codes: readonly string[]): BenefitFacts | null {
  for (const code of codes) {
    const path = pathTo(items, code);
    if (!path) continue;
    const item = path[path.length - 1];
    const inherited = (name: string) => {
      for (let i = path.length - 1; i >= 0; i--) {
        const value = inNetworkValue(path[i][name]);
        if (value !== undefined) return value;
      }
      return null;
    };
    const flags = Array.isArray(item.flags) ? item.flags : [];
    // A benefit is part of its ancestors: not available before the latest of their dates.
    const dates = path.map((p) => text(p.next_eligible_date)).filter((d) => d !== null);
    return {
      covered: !flags.includes('not_covered'),
      next_eligible_date: dates.length ? dates.reduce((a, b) => (b > a ? b : a)) : null,
      copayment: inherited('copayment'),
      allowance: inherited('allowance'),
    };
  }
  return null;
}

function pathTo(items: Json[], code: string): Json[] | null {
  for (const item of items) {
    if (item.benefit_code === code) return [item];
    const below = pathTo(list(item.items), code);
    if (below) return [item, ...below];
  }
  return null;
}

/** The value of a list's first entry that applies in network (flag `inn`, or no flags). */
function inNetworkValue(entries: unknown): string | null | undefined {
  const applying = list(entries).find((e) => {
    const flags = Array.isArray(e.flags) ? e.flags : [];
    return flags.length === 0 || flags.includes('inn');
  });
  return applying ? text(applying.value) : undefined;
}

/** The coverage's state and benefits on `visitDate` (YYYY-MM-DD, the visit's local date). */
export function coverageOn(
  basis: CoverageBasis,
  visitDate: string,
): { state: CoverageBasis['outcome']; benefits: CoverageBenefits | null } {
  const outOfPlan =
    (basis.plan_begin_date !== null && visitDate < basis.plan_begin_date) ||
    (basis.plan_end_date !== null && visitDate > basis.plan_end_date);
  const state = basis.outcome === 'active' && outOfPlan ? 'inactive' : basis.outcome;
  if (basis.outcome !== 'active' && basis.outcome !== 'inactive') return { state, benefits: null };
  const benefits = {} as CoverageBenefits;
  for (const name of BENEFIT_NAMES) {
    const facts = basis.benefits[name];
    benefits[name] = {
      available: !facts
        ? null
        : state !== 'active' || !facts.covered
          ? false
          : facts.next_eligible_date === null || facts.next_eligible_date <= visitDate,
      next_eligible_date: facts?.next_eligible_date ?? null,
      copayment: facts?.copayment ?? null,
      allowance: facts?.allowance ?? null,
    };
  }
  return { state, benefits };
}

/** A field that differs between two checks (docs/api.md, Appointments: `changes`). */
export interface CoverageChange {
  field: string;
  before: unknown;
  after: unknown;
}

/**
 * What differs between the previous check's coverage and this one's: the state, and each
 * benefit's availability, copay and allowance (`benefits.frames.available`, ...).
 */
export function changesBetween(
  before: { state: string; benefits: CoverageBenefits | null },
  after: { state: string; benefits: CoverageBenefits | null },
): CoverageChange[] {
  const changes: CoverageChange[] = [];
  if (before.state !== after.state)
    changes.push({ field: 'state', before: before.state, after: after.state });
  for (const name of BENEFIT_NAMES) {
    for (const key of ['available', 'copayment', 'allowance'] as const) {
      const b = before.benefits?.[name]?.[key] ?? null;
      const a = after.benefits?.[name]?.[key] ?? null;
      if (b !== a) changes.push({ field: `benefits.${name}.${key}`, before: b, after: a });
    }
  }
  return changes;
}
