import { normaliseDecimal } from '@/platform/kernel/decimal';
import {
  BOOLEAN_LISTS,
  BenefitFlag,
  BenefitItem,
  DOUBLE_LISTS,
  FlagEntry,
  INTEGER_LISTS,
  ListName,
  Plan,
  planHead,
  StatedDates,
} from './benefit.types';
import type { MaterialsList, MaterialsSource } from './materials.types';
import type { NextEligibleBasis, PeriodKind, ServiceSource } from './next-eligible.types';

/** A plan as JSON: an inline (validated) plan, or a person's plan read from a stored V2 result. */
type JsonEntry = { flags?: string[] | null; comment?: string | null; value: unknown };
type JsonLists = { [list: string]: unknown };
export type PlanJson = JsonLists & {
  insurer_state: 'inn' | 'oon';
  items: ItemJson[];
  refresh_date?: string | null;
  begin_date?: string | null;
  end_date?: string | null;
  flags?: string[] | null;
  materials?: MaterialsList | null;
  materials_source?: MaterialsSource | null;
};
type ItemJson = JsonLists & {
  benefit_code: string;
  refresh_date: string;
  end_date?: string | null;
  flags?: string[] | null;
  comment?: string | null;
  items?: ItemJson[] | null;
  last_service_date?: string | null;
  next_eligible_date?: string | null;
  frequency?: FrequencyJson | null;
  last_service?: { date: string; source: ServiceSource } | null;
  next_eligible?: {
    date: string | null;
    basis: NextEligibleBasis;
    explanation?: string[] | null;
  } | null;
};
type FrequencyJson = {
  count: number;
  period: { kind: PeriodKind; months?: number | null };
  shared_with?: string[] | null;
};

/**
 * The internal plan (benefit.types) of a plan in its JSON form: doubles become plain decimal
 * strings, nulls become absent. A stored result's plan and the same plan sent inline go through
 * this one function, so both give the same estimate.
 */
export function planFromJson(json: PlanJson): Plan {
  const plan: Plan = planHead(json, itemFromJson);
  readLists(json, plan, DOUBLES, BOOLEANS);
  // docs/api.md, The counter: the list as given (validated inline, or printed by the service).
  if (json.materials) {
    plan.materials = materialsFromJson(json.materials);
    plan.materials_source = json.materials_source ?? null;
  }
  return plan;
}

function itemFromJson(json: ItemJson): BenefitItem {
  const item: BenefitItem = { benefit_code: json.benefit_code, refresh_date: json.refresh_date };
  if (json.end_date) item.end_date = json.end_date;
  readDates(json, item);
  if (json.flags) item.flags = json.flags as BenefitFlag[];
  if (typeof json.comment === 'string') item.comment = json.comment;
  readLists(json, item, DOUBLES, INTEGERS, BOOLEANS);
  if (json.items) item.items = json.items.map(itemFromJson);
  return item;
}

/**
 * An item's frequency and dates (docs/api.md, Next eligible dates in results), as given; what
 * they state (a last service, a date the payer states) also as `stated`, so that finishing a
 * verifier's answer computes the dates again with the practice's history. A bare
 * `last_service_date` is the payer's (a verifier reads it from the payer), a bare
 * `next_eligible_date` a date the payer states; a `next_eligible` computed before states nothing.
 */
function readDates(json: ItemJson, item: BenefitItem): void {
  const f = json.frequency;
  if (f) {
    item.frequency = {
      count: f.count,
      period: { kind: f.period.kind, months: f.period.months ?? null },
      shared_with: [...(f.shared_with ?? [])],
    };
  }
  const last = json.last_service
    ? { date: json.last_service.date, source: json.last_service.source }
    : json.last_service_date
      ? { date: json.last_service_date, source: 'payer' as const }
      : null;
  if (last) {
    item.last_service = last;
    item.last_service_date = last.date;
  }
  const next = json.next_eligible;
  if (next) {
    item.next_eligible = {
      date: next.date ?? null,
      basis: next.basis,
      explanation: [...(next.explanation ?? [])],
    };
    if (next.date) item.next_eligible_date = next.date;
  } else if (json.next_eligible_date) {
    item.next_eligible_date = json.next_eligible_date;
  }
  const payerDate = next
    ? next.basis === 'payer_stated'
      ? next.date
      : null
    : (json.next_eligible_date ?? null);
  const stated: StatedDates = {};
  if (last) stated.last_service = { ...last };
  if (payerDate) stated.next_eligible_date = payerDate;
  if (last || payerDate) item.stated = stated;
}

function doubleValue(value: unknown): string {
  return normaliseDecimal(typeof value === 'number' ? value : String(value));
}

/** A kind of flag-based list: its names, and how an entry's JSON value reads. */
type ListKind = readonly [names: readonly ListName[], value: (v: unknown) => unknown];
const DOUBLES: ListKind = [DOUBLE_LISTS, doubleValue];
const INTEGERS: ListKind = [INTEGER_LISTS, Number];
const BOOLEANS: ListKind = [BOOLEAN_LISTS, (v) => v === true];

/** The lists of these kinds that `json` gives, read into the plan or item, kind after kind. */
function readLists(
  json: JsonLists,
  into: Partial<Record<ListName, FlagEntry<unknown>[]>>,
  ...kinds: ListKind[]
): void {
  for (const [names, value] of kinds)
    for (const name of names) {
      const list = entries(json[name], value);
      if (list) into[name] = list;
    }
}

/** A list as given, or undefined when absent or null (an empty list stays: it defines the list). */
function entries<T>(raw: unknown, value: (v: unknown) => T): FlagEntry<T>[] | undefined {
  if (!Array.isArray(raw)) return undefined;
  return (raw as JsonEntry[]).map((e) => {
    const entry: FlagEntry<T> = { value: value(e.value) };
    if (e.flags) entry.flags = e.flags as BenefitFlag[];
    if (typeof e.comment === 'string') entry.comment = e.comment;
    return entry;
  });
}

/** A price list with its unset keys (null, absent) left out, as the internal form keeps it. */
function materialsFromJson(json: MaterialsList): MaterialsList {
  const prune = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(prune);
    if (typeof value !== 'object' || value === null) return value;
    const out: Record<string, unknown> = {};
    for (const [key, v] of Object.entries(value))
      if (v !== null && v !== undefined) out[key] = prune(v);
    return out;
  };
  return prune(json) as MaterialsList;
}
