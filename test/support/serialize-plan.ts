import { formatDecimal4 } from '@/platform/kernel/decimal';
import {
  carveOut,
  frequency,
  lastService,
  materials,
  nextEligible,
  otherPayer,
  serializePlanJson,
} from '@/lib/benefits/benefit.serializer';
import {
  BOOLEAN_LISTS,
  BenefitItem,
  DOUBLE_LISTS,
  FlagEntry,
  INTEGER_LISTS,
  Plan,
  planHead,
} from '@/lib/benefits/benefit.types';

/**
 * Response form of a plan (V2 `persons[].plan`): doubles as four-decimal strings, integers as
 * integers, booleans as booleans. Keys appear in the spec's order; absent lists stay absent
 * (a plan's required keys are always present, nullable ones as null). The specs' reference
 * for serializePlanJson, which must write its JSON byte for byte.
 */
export function serializePlan(plan: Plan): Record<string, unknown> {
  const out: Record<string, unknown> = planHead(plan, serializeItem);
  for (const name of DOUBLE_LISTS) if (plan[name]) out[name] = plan[name].map(doubleEntry);
  for (const name of BOOLEAN_LISTS) if (plan[name]) out[name] = plan[name].map(plainEntry);
  if (plan.comment !== undefined) out.comment = plan.comment;
  if (plan.carve_out !== undefined) out.carve_out = carveOut(plan.carve_out);
  if (plan.other_payers !== undefined) out.other_payers = plan.other_payers.map(otherPayer);
  out.materials = plan.materials ? materials(plan.materials) : null;
  out.materials_source = plan.materials_source ?? null;
  return out;
}

function serializeItem(item: BenefitItem): Record<string, unknown> {
  const out: Record<string, unknown> = {
    benefit_code: item.benefit_code,
    refresh_date: item.refresh_date,
    flags: item.flags ?? [],
  };
  if (item.comment !== undefined) out.comment = item.comment;
  for (const name of DOUBLE_LISTS) if (item[name]) out[name] = item[name].map(doubleEntry);
  for (const name of INTEGER_LISTS) if (item[name]) out[name] = item[name].map(plainEntry);
  for (const name of BOOLEAN_LISTS) if (item[name]) out[name] = item[name].map(plainEntry);
  out.items = (item.items ?? []).map(serializeItem);
  if (item.end_date !== undefined) out.end_date = item.end_date;
  if (item.last_service_date !== undefined) out.last_service_date = item.last_service_date;
  if (item.next_eligible_date !== undefined) out.next_eligible_date = item.next_eligible_date;
  if (item.frequency !== undefined) out.frequency = frequency(item.frequency);
  if (item.last_service !== undefined) out.last_service = lastService(item.last_service);
  if (item.next_eligible !== undefined) out.next_eligible = nextEligible(item.next_eligible);
  return out;
}

function doubleEntry(entry: FlagEntry<string>): Record<string, unknown> {
  return { ...meta(entry), value: formatDecimal4(entry.value) };
}

function plainEntry<T>(entry: FlagEntry<T>): Record<string, unknown> {
  return { ...meta(entry), value: entry.value };
}

function meta(entry: FlagEntry<unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (entry.flags && entry.flags.length > 0) out.flags = entry.flags;
  if (entry.comment !== undefined) out.comment = entry.comment;
  return out;
}

/** serializePlanJson's text, checked to be `JSON.stringify(serializePlan(plan))` byte for byte. */
export function planJsonBothWays(plan: Plan): string {
  const json = serializePlanJson(plan);
  expect(json).toBe(JSON.stringify(serializePlan(plan)));
  return json;
}
