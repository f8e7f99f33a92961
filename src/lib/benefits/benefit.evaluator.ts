import { toMinor } from '@/platform/kernel/decimal';
import {
  BOOLEAN_LISTS,
  BenefitItem,
  DOUBLE_LISTS,
  FlagEntry,
  INTEGER_LISTS,
  ListName,
  Network,
  Plan,
} from './benefit.types';

/** What one benefit gives on one network, after flag selection and inheritance. */
export interface EffectiveBenefit {
  benefit_code: string;
  depth: number;
  /** The item applies on this network (no `inn`/`oon` flag, or the matching one). */
  applies: boolean;
  flags: string[];
  comment: string | null;
  /** docs/api.md, Real insurers: when the benefit was last used and can next be used, when the insurer says. */
  lastServiceDate: string | null;
  /** The item's own, or its parent's when that is later: a benefit is part of its parent. */
  nextEligibleDate: string | null;
  values: Partial<Record<ListName, { value: string | number | boolean; comment: string | null }>>;
  /** Every counted unit or the whole allowance already used. */
  used: boolean;
  items: EffectiveBenefit[];
}

const NETWORK_FLAGS = new Set(['inn', 'oon']);
const ALL_LISTS: readonly ListName[] = [...DOUBLE_LISTS, ...INTEGER_LISTS, ...BOOLEAN_LISTS];

/**
 * The entry of a flag-based list that applies on `network`: an entry flagged with that network
 * wins over an unflagged one (more specific); entries flagged only for the other network never
 * apply. Null when nothing applies.
 */
export function pickEntry<T>(
  entries: FlagEntry<T>[] | undefined,
  network: Network,
): FlagEntry<T> | null {
  if (!entries || entries.length === 0) return null;
  let general: FlagEntry<T> | null = null;
  for (const entry of entries) {
    const networkFlags = (entry.flags ?? []).filter((f) => NETWORK_FLAGS.has(f));
    if (networkFlags.length === 0) general ??= entry;
    else if (networkFlags.includes(network)) return entry;
  }
  return general;
}

/** Whether an item (by its own flags) applies on `network`. */
export function itemApplies(item: Pick<BenefitItem, 'flags'>, network: Network): boolean {
  const networkFlags = (item.flags ?? []).filter((f) => NETWORK_FLAGS.has(f));
  return networkFlags.length === 0 || networkFlags.includes(network);
}

/**
 * Evaluates a plan for one network. A child that lacks a list inherits its parent's effective
 * value for that list (docs/api.md, V1 and V2 results: children inherit their parent's
 * flag-dependent values); plan-level lists are the root's values.
 */
export function evaluatePlan(plan: Plan, network: Network): EffectiveBenefit[] {
  const rootValues = planValues(plan, network);
  return plan.items.map((item) => evaluateItem(item, network, rootValues, 0, true, null));
}

/** The values of the plan's own lists on `network` (what every item inherits). */
export function planValues(plan: Plan, network: Network): EffectiveBenefit['values'] {
  const values: EffectiveBenefit['values'] = {};
  for (const name of [...DOUBLE_LISTS, ...BOOLEAN_LISTS] as ListName[]) {
    const entry = pickEntry((plan as unknown as Record<string, FlagEntry<never>[]>)[name], network);
    if (entry) values[name] = { value: entry.value, comment: entry.comment ?? null };
  }
  return values;
}

function evaluateItem(
  item: BenefitItem,
  network: Network,
  inherited: EffectiveBenefit['values'],
  depth: number,
  parentApplies: boolean,
  parentNext: string | null,
): EffectiveBenefit {
  const values: EffectiveBenefit['values'] = { ...inherited };
  for (const name of ALL_LISTS) {
    const own = (item as unknown as Record<string, FlagEntry<never>[] | undefined>)[name];
    if (own === undefined) continue;
    const entry = pickEntry(own, network);
    if (entry) values[name] = { value: entry.value, comment: entry.comment ?? null };
    else delete values[name]; // the item defines the list, but not for this network
  }
  const applies = parentApplies && itemApplies(item, network);
  const own = item.next_eligible_date ?? null;
  const nextEligibleDate =
    parentNext !== null && (own === null || parentNext > own) ? parentNext : own;
  return {
    benefit_code: item.benefit_code,
    depth,
    applies,
    flags: item.flags ?? [],
    comment: item.comment ?? null,
    lastServiceDate: item.last_service_date ?? null,
    nextEligibleDate,
    values,
    used: isUsed(values),
    items: (item.items ?? []).map((child) =>
      evaluateItem(child, network, values, depth + 1, applies, nextEligibleDate),
    ),
  };
}

/** Used up: accepted quantity reached the quantity, or accepted allowance reached the allowance. */
function isUsed(values: EffectiveBenefit['values']): boolean {
  const q = values.quantity?.value;
  const qa = values.quantity_accepted?.value;
  if (typeof q === 'number' && typeof qa === 'number' && q > 0) return qa >= q;
  const a = values.allowance?.value;
  const aa = values.allowance_accepted?.value;
  if (typeof a === 'string' && typeof aa === 'string' && toMinor(a) > 0n)
    return toMinor(aa) >= toMinor(a);
  return false;
}

/** Depth-first list, handy for tables. */
export function flatten(benefits: EffectiveBenefit[]): EffectiveBenefit[] {
  return benefits.flatMap((b) => [b, ...flatten(b.items)]);
}
