import {
  addMonths,
  anniversary,
  compareDates,
  januaryFirst,
  latest,
  planYearIndex,
} from './calendar';
import type {
  BenefitEligibility,
  Frequency,
  FrequencyRule,
  LastService,
  NextEligible,
  NextEligibleInput,
  PlanTerm,
  ServiceRecord,
  ServiceSource,
} from './next-eligible.types';
import { ruleSentence, sharedSentence, untilWords, whose, WORDS } from './next-eligible.words';

/**
 * What the patient can have, and when (docs/api.md, Next eligible dates). Pure: the same input
 * gives the same answer, whatever the clock or the time zone.
 *
 * One computation covers every period kind: a service counts against a rule until it *expires*
 * (rolling: `months` after it; calendar year: 1 January of the year after its own, or `months/12`
 * years after; plan year: the anniversary of the plan's begin date that ends its plan year, or
 * `months/12` plan years after its start). Expiry never goes down as services get later, so the
 * services that count on a day are always the most recent ones, and another is allowed once fewer
 * than `count` still count: when the oldest of the `count` most recent expires.
 */

/** Trust, highest first, when two sources record the same service. */
const TRUST: readonly ServiceSource[] = ['payer', 'remittance', 'claim', 'staff'];

interface Counted {
  date: string;
  /** The benefit of the service, as recorded. */
  code: string;
  /** The rule's own benefit or the shared one it counts as. */
  root: string;
  source: ServiceSource;
}

/** Whether a service of `code` is one of `root` (itself, or a benefit under it). */
const covers = (root: string, code: string) => code === root || code.startsWith(`${root}.`);

/**
 * The benefits whose services count against `rule`: its own, those it shares with, and those
 * whose rule shares with it (sharing is mutual: contact lenses in lieu of frames also means frames
 * in lieu of contact lenses).
 */
function countingRoots(rule: FrequencyRule, rules: readonly FrequencyRule[]): string[] {
  const own = rule.benefit_code;
  const roots = new Set<string>([own, ...(rule.frequency?.shared_with ?? [])]);
  for (const other of rules) {
    if (other === rule || other.benefit_code === own) continue;
    if (other.frequency?.shared_with?.some((s) => covers(s, own))) roots.add(other.benefit_code);
  }
  roots.delete(own);
  return [own, ...roots];
}

/**
 * The services that count against a rule, oldest first. One benefit's entries of one day are one
 * service (a claim and its remittance, a payer's DTP 304 for the same visit), kept with the most
 * trusted source.
 */
function countedServices(roots: readonly string[], input: NextEligibleInput): Counted[] {
  const byKey = new Map<string, Counted>();
  for (const h of input.history) {
    const root = roots.find((r) => covers(r, h.benefit_code));
    if (root === undefined) continue;
    const source = h.source ?? 'staff';
    const key = `${root}|${h.date}`;
    const seen = byKey.get(key);
    if (!seen || TRUST.indexOf(source) < TRUST.indexOf(seen.source))
      byKey.set(key, { date: h.date, code: h.benefit_code, root, source });
  }
  return [...byKey.values()].sort((a, b) => compareDates(a.date, b.date));
}

type Expiry = (date: string) => string;

/** When a service of `date` stops counting, or why that cannot be said. */
function expiryOf(f: Frequency, plan: PlanTerm | null): Expiry | string {
  const months = f.period.months;
  if (f.period.kind === 'rolling') {
    if (!months || months < 1) return WORDS.noMonths;
    return (date) => addMonths(date, months);
  }
  const total = months ?? 12;
  if (total < 12 || total % 12 !== 0) return WORDS.notWholeYears(f.period.kind);
  const years = total / 12;
  if (f.period.kind === 'calendar_year') return (date) => januaryFirst(date, years);
  const begin = plan?.begin_date;
  if (!begin) return WORDS.noPlanBegin;
  return (date) => anniversary(begin, planYearIndex(begin, date) + years);
}

const yearsOf = (f: Frequency) => Math.max(1, Math.floor((f.period.months ?? 12) / 12));

/** The computed date (null when it cannot be computed) and its sentences. */
function compute(
  rule: FrequencyRule,
  roots: readonly string[],
  counted: readonly Counted[],
  input: NextEligibleInput,
): { date: string | null; lines: string[] } {
  const f = rule.frequency;
  if (!f) return { date: null, lines: [WORDS.noFrequency] };
  if (!Number.isSafeInteger(f.count) || f.count < 1) return { date: null, lines: [WORDS.badCount] };
  const plan = input.plan ?? null;
  const expiry = expiryOf(f, plan);
  const years = yearsOf(f);
  const lines = [ruleSentence(rule.benefit_code, f, years, plan?.begin_date ?? null)];
  if (roots.length > 1) lines.push(sharedSentence(roots.slice(1)));
  if (typeof expiry === 'string') return { date: null, lines: [...lines, expiry] };

  let raw: string | null = null;
  const last = counted[counted.length - 1];
  if (!last) {
    lines.push(WORDS.noService(input.as_of));
  } else if (counted.length < f.count) {
    lines.push(WORDS.fewer(counted.length, f.count, last.date));
    raw = last.date;
  } else {
    const oldest = counted[counted.length - f.count];
    const until = expiry(oldest.date);
    const who = whose(oldest.code, rule.benefit_code);
    lines.push(
      f.count === 1
        ? WORDS.lastCounted(oldest.date, who, until, untilWords(f, years))
        : WORDS.oldestCounted(f.count, oldest.date, who, until, untilWords(f, years)),
    );
    // docs/api.md, Next eligible dates: never before the last service.
    if (compareDates(until, last.date) < 0) lines.push(WORDS.fewerInPeriod(f.count, last.date));
    raw = latest(until, last.date);
  }
  let date = input.as_of;
  if (raw !== null && compareDates(raw, input.as_of) > 0) date = raw;
  else if (raw !== null && compareDates(raw, input.as_of) < 0)
    lines.push(WORDS.since(raw, input.as_of));
  const begin = plan?.begin_date;
  if (begin && compareDates(begin, date) > 0) {
    lines.push(WORDS.planBegins(begin));
    date = begin;
  }
  return { date, lines };
}

/** The latest counted service of the rule's own benefit (one a day per benefit: countedServices). */
function latestOwn(own: string, counted: readonly Counted[]): LastService | null {
  const last = counted.filter((c) => c.root === own).at(-1);
  return last ? { date: last.date, source: last.source } : null;
}

/** The latest service on record of `code` (or a benefit under it), with its most trusted source. */
export function lastServiceOf(code: string, history: readonly ServiceRecord[]): LastService | null {
  return latestOwn(code, countedServices([code], { as_of: '', rules: [], history }));
}

function nextEligibleOf(
  rule: FrequencyRule,
  counted: readonly Counted[],
  computed: { date: string | null; lines: string[] },
  asOf: string,
): NextEligible {
  const payer = rule.payer_next_eligible_date ?? null;
  const lastCounted = counted.length > 0 ? counted[counted.length - 1].date : null;
  const fromComputed = (): NextEligible => ({
    date: computed.date,
    basis: computed.date === null ? 'unknown' : 'computed',
    explanation: computed.lines,
  });
  if (payer === null) return fromComputed();
  if (lastCounted !== null && compareDates(payer, lastCounted) < 0) {
    const answer = fromComputed();
    return {
      ...answer,
      explanation: [WORDS.payerStale(payer, lastCounted), ...answer.explanation],
    };
  }
  const explanation = [WORDS.payerStates(payer)];
  if (computed.date === payer) explanation.push(WORDS.payerAgrees);
  // Both say it can be had on as_of: the payer's past date and the computed "available now" agree.
  else if (computed.date === asOf && compareDates(payer, asOf) <= 0)
    explanation.push(WORDS.payerAgreesNow(asOf));
  else if (computed.date !== null) explanation.push(WORDS.payerDisagrees(payer, computed.date));
  return { date: payer, basis: 'payer_stated', explanation: [...explanation, ...computed.lines] };
}

/** Every rule's answer, in the order of the rules. */
export function nextEligible(input: NextEligibleInput): BenefitEligibility[] {
  const end = input.plan?.end_date ?? null;
  return input.rules.map((rule) => {
    const roots = countingRoots(rule, input.rules);
    const counted = countedServices(roots, input);
    const next = nextEligibleOf(rule, counted, compute(rule, roots, counted, input), input.as_of);
    if (next.date !== null && end !== null && compareDates(next.date, end) > 0)
      next.explanation.push(WORDS.afterPlanEnd(next.date, end));
    return {
      benefit_code: rule.benefit_code,
      next_eligible: next,
      last_service: latestOwn(rule.benefit_code, counted),
      as_of: input.as_of,
      plan_end_date: end,
    };
  });
}

/**
 * Whether the benefit can be had on `date` under this plan: null when the answer does not say (no
 * date known, or a day before the question's `as_of`); false after the plan's end date.
 */
export function availableOn(result: BenefitEligibility, date: string): boolean | null {
  const next = result.next_eligible.date;
  if (next === null || compareDates(date, result.as_of) < 0) return null;
  if (result.plan_end_date !== null && compareDates(date, result.plan_end_date) > 0) return false;
  return compareDates(date, next) >= 0;
}
