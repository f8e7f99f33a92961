import { addFieldError, type ErrorTree } from '@/platform/kernel/errors';
import { compareDates, FREQUENCY_LIMITS } from '@/lib/benefits';

/**
 * The rules of a next-eligible request that span fields (docs/api.md, Next eligible dates): one
 * rule per benefit, a rolling period's months, whole years for the other kinds, a plan-year rule's
 * begin date, a history entry that some rule counts. They read the raw body (the validation pipe
 * runs them beside the field errors of a refused body) or a valid one (the service runs them), so
 * any value is taken; a field with errors of its own is left to them.
 */

/** The request's bounds (docs/api.md, Next eligible dates). */
export const NEXT_ELIGIBLE_LIMITS = {
  rules: 100,
  history: 1_000,
  ...FREQUENCY_LIMITS,
} as const;

type Json = Record<string, unknown>;

const objectOf = (v: unknown): Json | null =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Json) : null;
const textOf = (v: unknown): string | null =>
  typeof v === 'string' && v.trim() !== '' ? v.trim() : null;
const listOf = (v: unknown, max: number): unknown[] | null =>
  Array.isArray(v) && v.length <= max ? v : null;
const isDate = (v: unknown): v is string => typeof v === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(v);

/** Whether the field at `path`, or an object holding it, has errors already. */
function blocked(errors: ErrorTree, path: string[]): boolean {
  let node: ErrorTree = errors;
  for (const segment of path) {
    const next = node[segment];
    if (next === undefined) return false;
    if (Array.isArray(next) || next.$) return true;
    node = next;
  }
  return true;
}

function add(errors: ErrorTree, path: string[], message: string): void {
  if (!blocked(errors, path)) addFieldError(errors, path, message);
}

/** Whether a service of `code` is one of `root` (itself, or a benefit under it). */
const covers = (root: string, code: string) => code === root || code.startsWith(`${root}.`);

export const CHECK_WORDS = {
  duplicate: (code: string) => `Each benefit has one rule: ${code} is named twice.`,
  monthsRequired: 'A rolling period needs its length in months.',
  wholeYears: 'Calendar-year and plan-year periods last whole years: 12, 24, 36, … months.',
  planBegin: 'A plan-year period needs plan.begin_date.',
  sharesItself: 'A benefit does not share with itself.',
  uncounted: (code: string) =>
    `No rule counts services of ${code}: give it a rule, name it in a rule's shared_with, or ` +
    'leave the entry out.',
  endBeforeBegin: 'The end date may not be before the begin date.',
};

/** Adds the cross-field errors of a next-eligible body to `errors`. */
export function nextEligibleBodyErrors(body: unknown, errors: ErrorTree): void {
  const b = objectOf(body);
  if (!b) return;
  const plan = objectOf(b.plan);
  const beginGiven = plan !== null && plan.begin_date !== undefined && plan.begin_date !== null;
  const begin =
    plan && isDate(plan.begin_date) && !blocked(errors, ['plan', 'begin_date'])
      ? plan.begin_date
      : null;
  if (plan && begin && isDate(plan.end_date) && compareDates(plan.end_date, begin) < 0)
    add(errors, ['plan', 'end_date'], CHECK_WORDS.endBeforeBegin);

  // Bounded like the fields (a longer list is refused for its size alone).
  const rules = listOf(b.rules, NEXT_ELIGIBLE_LIMITS.rules);
  if (!rules) return;
  const roots: string[] = [];
  const seen = new Set<string>();
  rules.forEach((raw, i) => {
    const rule = objectOf(raw);
    if (!rule) return;
    const at = ['rules', String(i)];
    const code = textOf(rule.benefit_code);
    if (code !== null) {
      if (seen.has(code)) add(errors, [...at, 'benefit_code'], CHECK_WORDS.duplicate(code));
      seen.add(code);
      roots.push(code);
    }
    const frequency = objectOf(rule.frequency);
    const period = objectOf(frequency?.period);
    if (period) {
      const where = [...at, 'frequency', 'period'];
      const { months } = period;
      const kind = textOf(period.kind);
      if (kind === 'rolling' && (months === undefined || months === null))
        add(errors, [...where, 'months'], CHECK_WORDS.monthsRequired);
      if (
        (kind === 'calendar_year' || kind === 'plan_year') &&
        typeof months === 'number' &&
        months % 12 !== 0
      )
        add(errors, [...where, 'months'], CHECK_WORDS.wholeYears);
      // A begin date given but refused has its own error; a missing one is this rule's.
      if (kind === 'plan_year' && !beginGiven)
        add(errors, [...where, 'kind'], CHECK_WORDS.planBegin);
    }
    const shared = listOf(frequency?.shared_with, NEXT_ELIGIBLE_LIMITS.sharedWith) ?? [];
    shared.forEach((s, j) => {
      const other = textOf(s);
      if (other === null) return;
      if (other === code)
        add(errors, [...at, 'frequency', 'shared_with', String(j)], CHECK_WORDS.sharesItself);
      else roots.push(other);
    });
  });

  // A history entry no rule counts is a typo more often than not: answered, it would pass
  // silently and call a used benefit available. Only judged when every rule could be read.
  if (errors.rules !== undefined) return;
  const history = listOf(b.history, NEXT_ELIGIBLE_LIMITS.history) ?? [];
  history.forEach((raw, j) => {
    const code = textOf(objectOf(raw)?.benefit_code);
    if (code !== null && !roots.some((r) => covers(r, code)))
      add(errors, ['history', String(j), 'benefit_code'], CHECK_WORDS.uncounted(code));
  });
}
