import { formatDecimal4 } from '@/common/decimal';
import {
  BOOLEAN_LISTS,
  BenefitItem,
  DOUBLE_LISTS,
  FlagEntry,
  INTEGER_LISTS,
  Plan,
} from './benefit.types';

/**
 * Response form of a plan (V2 `persons[].plan`): doubles as four-decimal strings, integers as
 * integers, booleans as booleans. Keys appear in the spec's order; absent lists stay absent
 * (a plan's required keys are always present, nullable ones as null).
 */
export function serializePlan(plan: Plan): Record<string, unknown> {
  const out: Record<string, unknown> = {
    insurer_state: plan.insurer_state,
    items: plan.items.map(serializeItem),
    refresh_date: plan.refresh_date ?? null,
    begin_date: plan.begin_date ?? null,
    end_date: plan.end_date ?? null,
    flags: plan.flags ?? [],
  };
  for (const name of DOUBLE_LISTS) if (plan[name]) out[name] = plan[name].map(doubleEntry);
  for (const name of BOOLEAN_LISTS) if (plan[name]) out[name] = plan[name].map(plainEntry);
  return out;
}

export function serializeItem(item: BenefitItem): Record<string, unknown> {
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
