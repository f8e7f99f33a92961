import { formatDecimal4 } from '@/common/decimal';
import {
  BOOLEAN_LISTS,
  BenefitItem,
  CarveOut,
  DOUBLE_LISTS,
  FlagEntry,
  INTEGER_LISTS,
  OtherPayer,
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
  if (plan.comment !== undefined) out.comment = plan.comment;
  if (plan.carve_out !== undefined) out.carve_out = carveOut(plan.carve_out);
  if (plan.other_payers !== undefined) out.other_payers = plan.other_payers.map(otherPayer);
  return out;
}

function carveOut(c: CarveOut): Record<string, unknown> {
  return { name: c.name, payer_id: c.payer_id ?? null, phone: c.phone ?? null };
}

function otherPayer(p: OtherPayer): Record<string, unknown> {
  return { name: p.name, payer_id: p.payer_id ?? null, member_id: p.member_id ?? null };
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
  if (item.last_service_date !== undefined) out.last_service_date = item.last_service_date;
  if (item.next_eligible_date !== undefined) out.next_eligible_date = item.next_eligible_date;
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

/**
 * `JSON.stringify(serializePlan(plan))`, byte for byte, written directly: no intermediate object
 * tree, plain ASCII strings quoted without the serializer, each decimal formatted once per
 * distinct text. The stored V2 body renders a plan per person, and building the tree was most of
 * a search's rendering (bench/README.md).
 */
export function serializePlanJson(plan: Plan): string {
  let out = prop('insurer_state', plan.insurer_state);
  out += `,"items":[${plan.items.map(itemJson).join(',')}]`;
  out += prop('refresh_date', plan.refresh_date ?? null);
  out += prop('begin_date', plan.begin_date ?? null);
  out += prop('end_date', plan.end_date ?? null);
  out += prop('flags', plan.flags ?? []);
  for (const name of DOUBLE_LISTS) if (plan[name]) out += listJson(name, plan[name], true);
  for (const name of BOOLEAN_LISTS) if (plan[name]) out += listJson(name, plan[name], false);
  if (plan.comment !== undefined) out += prop('comment', plan.comment);
  if (plan.carve_out !== undefined) out += prop('carve_out', carveOut(plan.carve_out));
  if (plan.other_payers !== undefined)
    out += `,"other_payers":[${plan.other_payers.map((p) => toJson(otherPayer(p))).join(',')}]`;
  return `{${out.slice(1)}}`;
}

function itemJson(item: BenefitItem): string {
  let out = prop('benefit_code', item.benefit_code);
  out += prop('refresh_date', item.refresh_date);
  out += prop('flags', item.flags ?? []);
  if (item.comment !== undefined) out += prop('comment', item.comment);
  for (const name of DOUBLE_LISTS) if (item[name]) out += listJson(name, item[name], true);
  for (const name of INTEGER_LISTS) if (item[name]) out += listJson(name, item[name], false);
  for (const name of BOOLEAN_LISTS) if (item[name]) out += listJson(name, item[name], false);
  out += `,"items":[${(item.items ?? []).map(itemJson).join(',')}]`;
  if (item.end_date !== undefined) out += prop('end_date', item.end_date);
  if (item.last_service_date !== undefined)
    out += prop('last_service_date', item.last_service_date);
  if (item.next_eligible_date !== undefined)
    out += prop('next_eligible_date', item.next_eligible_date);
  return `{${out.slice(1)}}`;
}

/** A list property, with its leading comma. */
function listJson(name: string, list: FlagEntry<unknown>[], decimal: boolean): string {
  const entries = list.map((entry) => {
    let out = '';
    if (entry.flags && entry.flags.length > 0) out += prop('flags', entry.flags);
    if (entry.comment !== undefined) out += prop('comment', entry.comment);
    out += decimal
      ? `,"value":${decimalJson(entry.value as string | null | undefined)}`
      : prop('value', entry.value);
    return `{${out.slice(1)}}`;
  });
  return `,"${name}":[${entries.join(',')}]`;
}

/**
 * A property as JSON.stringify writes it inside an object, with its leading comma; nothing when
 * the value has no JSON (undefined).
 */
function prop(key: string, value: unknown): string {
  const json = toJson(value);
  return json === undefined ? '' : `,"${key}":${json}`;
}

/** Printable ASCII without `"` and `\`: JSON.stringify writes it between quotes as it is. */
const PLAIN = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/;

const quote = (text: string): string => (PLAIN.test(text) ? `"${text}"` : JSON.stringify(text));

function toJson(value: unknown): string | undefined {
  if (typeof value === 'string') return quote(value);
  if (value === null) return 'null';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (Array.isArray(value) && allStrings(value)) return `[${value.map(quote).join(',')}]`;
  return JSON.stringify(value);
}

/** Every element a string (a hole is not: JSON.stringify writes it as null). */
function allStrings(list: unknown[]): boolean {
  for (let i = 0; i < list.length; i++) if (typeof list[i] !== 'string') return false;
  return true;
}

/** formatDecimal4's JSON, remembered per input text (plans repeat a few dozen figures). */
const decimals = new Map<string, string>();

function decimalJson(value: string | null | undefined): string {
  if (typeof value !== 'string') return JSON.stringify(formatDecimal4(value));
  let json = decimals.get(value);
  if (json === undefined) {
    json = JSON.stringify(formatDecimal4(value));
    if (decimals.size >= 4096) decimals.clear();
    decimals.set(value, json);
  }
  return json;
}
