/**
 * What the MCP tools answer (docs/api.md, MCP): the V2 result cut to what an agent reads (the
 * plan, its persons and each benefit's money and dates), the benefits in sentences, and the
 * day's appointments at risk. Only fields of the JSON routes' answers, never more.
 */

type Json = Record<string, unknown>;
type Item = Json & { items?: Item[] };

/** The first value of a flag-based list that applies in network (or has no flags). */
function value(list: unknown): unknown {
  if (!Array.isArray(list) || list.length === 0) return undefined;
  const entries = list as { flags?: string[]; value: unknown }[];
  const inn = entries.find((e) => !e.flags?.length || e.flags.includes('inn'));
  return (inn ?? entries[0]).value;
}

const MONEY = ['copayment', 'coinsurance', 'allowance', 'deductible'] as const;

/** One benefit item, flattened: its code, its in-network money and its dates. */
function benefit(item: Item): Json {
  const out: Json = { benefit_code: item.benefit_code };
  for (const key of MONEY) {
    const v = value(item[key]);
    if (v !== undefined) out[key] = v;
  }
  if (Array.isArray(item.flags) && item.flags.includes('not_covered')) out.not_covered = true;
  if (item.frequency) out.frequency = item.frequency;
  if (item.last_service_date) out.last_service_date = item.last_service_date;
  const next = item.next_eligible as { date: string | null; basis: string } | undefined;
  if (next) out.next_eligible = { date: next.date, basis: next.basis };
  return out;
}

/** Every item of the tree, depth first. */
function flatten(items: unknown): Item[] {
  if (!Array.isArray(items)) return [];
  return (items as Item[]).flatMap((i) => [i, ...flatten(i.items)]);
}

/** Whether an item states something of its own: money, a frequency, a service, "not covered". */
function statesSomething(item: Item): boolean {
  return (
    MONEY.some((k) => value(item[k]) !== undefined) ||
    Boolean(item.frequency) ||
    Boolean(item.last_service_date) ||
    (Array.isArray(item.flags) && item.flags.includes('not_covered'))
  );
}

/**
 * The items whose next eligible date is their own (a frequency, or a date the payer states):
 * the others carry an ancestor's date and words (docs/api.md, Next eligible dates in results).
 */
function ownDates(items: unknown): Item[] {
  return flatten(items).filter((i) => {
    const next = i.next_eligible as { basis?: string } | undefined;
    return next && (i.frequency || next.basis === 'payer_stated' || i.last_service);
  });
}

function person(p: Json): Json {
  const plan = (p.plan ?? null) as Json | null;
  return {
    id: p.id,
    type: p.type,
    full_name: p.full_name ?? `${String(p.first_name)} ${String(p.last_name)}`,
    dob: p.dob,
    member_id: p.member_id,
    is_active: p.is_active,
    plan: plan
      ? {
          insurer_state: plan.insurer_state,
          begin_date: plan.begin_date ?? null,
          end_date: plan.end_date ?? null,
          materials_source: plan.materials_source ?? null,
          benefits: flatten(plan.items).filter(statesSomething).map(benefit),
        }
      : null,
  };
}

/** The V2 result in a compact form: the request's state, each plan and its persons' benefits. */
export function compactResult(body: Json): Json {
  const results = Array.isArray(body.results) ? (body.results as Json[]) : null;
  return {
    request_uid: body.request_uid,
    status: body.status,
    error_code: body.error_code ?? null,
    error_detail: body.error_detail ?? null,
    ...(Array.isArray(body.insurers)
      ? {
          insurers: (body.insurers as Json[]).map((i) => ({
            insurer_code: i.insurer_code,
            state: i.state,
            detail: i.detail ?? null,
          })),
        }
      : {}),
    results:
      results?.map((r) => ({
        id: r.id,
        status: r.status,
        insurer_code: r.insurer_code,
        plan_name: r.plan_name,
        plan_begin_date: r.plan_begin_date ?? null,
        plan_end_date: r.plan_end_date ?? null,
        persons: Array.isArray(r.persons) ? (r.persons as Json[]).map(person) : [],
      })) ?? null,
  };
}

const WORDS: Record<string, string> = {
  exam: 'an eye exam',
  'exam.routine': 'a routine eye exam',
  materials: 'materials',
  'materials.frames': 'frames',
  'materials.spectacle_lenses': 'spectacle lenses',
  'materials.contact_lenses': 'contact lenses',
};

/** How a benefit code reads in a sentence. */
function words(code: string): string {
  return WORDS[code] ?? code.replaceAll('_', ' ').replaceAll('.', ': ');
}

/**
 * What each person can have, and when, in sentences: from each benefit's `next_eligible` (its
 * date, basis and explanation) and frequency (docs/api.md, Next eligible dates in results).
 */
export function explainBenefits(body: Json, today: string): Json {
  const results = Array.isArray(body.results) ? (body.results as Json[]) : [];
  const persons = results.flatMap((r) =>
    (Array.isArray(r.persons) ? (r.persons as Json[]) : []).map((p) => ({ r, p })),
  );
  return {
    request_uid: body.request_uid,
    status: body.status,
    as_of: today,
    persons: persons.map(({ r, p }) => {
      const plan = (p.plan ?? {}) as Json;
      const sentences: string[] = [];
      for (const item of ownDates(plan.items)) {
        const code = String(item.benefit_code);
        const next = item.next_eligible as
          { date: string | null; basis: string; explanation?: string[] } | undefined;
        if (!next) continue;
        const what = words(code);
        const head =
          next.date === null
            ? `When ${what} is next available is unknown.`
            : next.date <= today
              ? `${capital(what)}: available now.`
              : `${capital(what)}: not available before ${next.date}.`;
        sentences.push([head, ...(next.explanation ?? [])].join(' '));
      }
      if (sentences.length === 0)
        sentences.push('The plan states no frequency or next eligible date for its benefits.');
      return {
        person_id: p.id,
        full_name: p.full_name ?? `${String(p.first_name)} ${String(p.last_name)}`,
        result_id: r.id,
        insurer_code: r.insurer_code,
        plan_name: r.plan_name,
        sentences,
      };
    }),
  };
}

function capital(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

/** What a coverage state says about a visit at risk (docs/api.md, Appointments). */
const WHY: Record<string, string> = {
  inactive: 'The last check found the plan inactive.',
  no_plan: 'The last check found no plan for the patient.',
  failed: 'The last check failed: the insurer did not answer.',
  waiting_for_person: 'A person is still checking the insurer.',
  checking: 'A check is running.',
  not_checked: 'Coverage has not been checked.',
};

/** One appointment of the worklist whose coverage is not active, with why. */
export function atRisk(a: Json): Json {
  const coverage = (a.coverage ?? {}) as Json;
  const state = String(coverage.state);
  const why = [WHY[state] ?? `Coverage is ${state}.`];
  if (typeof coverage.detail === 'string' && coverage.detail) why.push(coverage.detail);
  const patient = (a.patient ?? null) as Json | null;
  return {
    external_id: a.external_id,
    starts_at: a.starts_at,
    location_code: a.location_code ?? null,
    patient_code: a.patient_code ?? null,
    patient: patient
      ? { first_name: patient.first_name, last_name: patient.last_name, dob: patient.dob }
      : null,
    insurer_codes: a.insurer_codes,
    coverage_state: state,
    stale: coverage.stale ?? false,
    request_uid: coverage.request_uid ?? null,
    why,
  };
}
