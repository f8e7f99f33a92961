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
  const out: string[] = [];
  writePlanJson(plan, out);
  return out.join('');
}

/**
 * serializePlanJson's text, as pieces pushed onto `out` for the caller to join once: nesting
 * concatenated and sliced strings copied every level's text again (a 10 KB body allocated about
 * 16 times its size, bench/README.md).
 */
export function writePlanJson(plan: Plan, out: string[]): void {
  const start = open(out);
  prop(out, 'insurer_state', plan.insurer_state);
  out.push(',"items":[');
  for (let i = 0; i < plan.items.length; i++) {
    if (i > 0) out.push(',');
    writeItem(plan.items[i], out);
  }
  out.push(']');
  prop(out, 'refresh_date', plan.refresh_date ?? null);
  prop(out, 'begin_date', plan.begin_date ?? null);
  prop(out, 'end_date', plan.end_date ?? null);
  prop(out, 'flags', plan.flags ?? []);
  for (const name of DOUBLE_LISTS) if (plan[name]) writeList(out, name, plan[name], true);
  for (const name of BOOLEAN_LISTS) if (plan[name]) writeList(out, name, plan[name], false);
  if (plan.comment !== undefined) prop(out, 'comment', plan.comment);
  if (plan.carve_out !== undefined) prop(out, 'carve_out', carveOut(plan.carve_out));
  if (plan.other_payers !== undefined) {
    out.push(',"other_payers":[');
    plan.other_payers.forEach((p, i) => {
      if (i > 0) out.push(',');
      out.push(toJson(otherPayer(p))!);
    });
    out.push(']');
  }
  close(out, start);
}

function writeItem(item: BenefitItem, out: string[]): void {
  const start = open(out);
  prop(out, 'benefit_code', item.benefit_code);
  prop(out, 'refresh_date', item.refresh_date);
  prop(out, 'flags', item.flags ?? []);
  if (item.comment !== undefined) prop(out, 'comment', item.comment);
  for (const name of DOUBLE_LISTS) if (item[name]) writeList(out, name, item[name], true);
  for (const name of INTEGER_LISTS) if (item[name]) writeList(out, name, item[name], false);
  for (const name of BOOLEAN_LISTS) if (item[name]) writeList(out, name, item[name], false);
  out.push(',"items":[');
  const items = item.items ?? [];
  for (let i = 0; i < items.length; i++) {
    if (i > 0) out.push(',');
    writeItem(items[i], out);
  }
  out.push(']');
  if (item.end_date !== undefined) prop(out, 'end_date', item.end_date);
  if (item.last_service_date !== undefined) prop(out, 'last_service_date', item.last_service_date);
  if (item.next_eligible_date !== undefined)
    prop(out, 'next_eligible_date', item.next_eligible_date);
  close(out, start);
}

/** A list property, with its leading comma. */
function writeList(out: string[], name: string, list: FlagEntry<unknown>[], decimal: boolean) {
  out.push(keyOf(name), '[');
  for (let i = 0; i < list.length; i++) {
    const entry = list[i];
    if (i > 0) out.push(',');
    const start = open(out);
    if (entry.flags && entry.flags.length > 0) prop(out, 'flags', entry.flags);
    if (entry.comment !== undefined) prop(out, 'comment', entry.comment);
    if (decimal) out.push(',"value":', decimalJson(entry.value as string | null | undefined));
    else prop(out, 'value', entry.value);
    close(out, start);
  }
  out.push(']');
}

/** Opens an object; answers where its first property's piece will be. */
function open(out: string[]): number {
  out.push('{');
  return out.length;
}

/** Closes the object opened at `start`: its first property loses its leading comma. */
function close(out: string[], start: number): void {
  if (out.length > start) out[start] = out[start].slice(1);
  out.push('}');
}

/**
 * A property as JSON.stringify writes it inside an object, with its leading comma; nothing when
 * the value has no JSON (undefined).
 */
function prop(out: string[], key: string, value: unknown): void {
  const json = toJson(value);
  if (json !== undefined) out.push(keyOf(key), json);
}

/** `,"key":`, built once per key (a plan has a few dozen). */
const keys = new Map<string, string>();

function keyOf(key: string): string {
  let piece = keys.get(key);
  if (piece === undefined) {
    piece = `,${JSON.stringify(key)}:`;
    keys.set(key, piece);
  }
  return piece;
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
