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
} from './benefit.types';

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
};

/**
 * The internal plan (benefit.types) of a plan in its JSON form: doubles become plain decimal
 * strings, nulls become absent. A stored result's plan and the same plan sent inline go through
 * this one function, so both give the same estimate.
 */
export function planFromJson(json: PlanJson): Plan {
  const plan: Plan = planHead(json, itemFromJson);
  readLists(json, plan, DOUBLES, BOOLEANS);
  return plan;
}

function itemFromJson(json: ItemJson): BenefitItem {
  const item: BenefitItem = { benefit_code: json.benefit_code, refresh_date: json.refresh_date };
  if (json.end_date) item.end_date = json.end_date;
  if (json.last_service_date) item.last_service_date = json.last_service_date;
  if (json.next_eligible_date) item.next_eligible_date = json.next_eligible_date;
  if (json.flags) item.flags = json.flags as BenefitFlag[];
  if (typeof json.comment === 'string') item.comment = json.comment;
  readLists(json, item, DOUBLES, INTEGERS, BOOLEANS);
  if (json.items) item.items = json.items.map(itemFromJson);
  return item;
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
