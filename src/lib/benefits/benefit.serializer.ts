import { formatDecimal4 } from '@/platform/kernel/decimal';
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
import {
  CONTACT_LENS_ENTRIES,
  LENS_OPTIONS,
  LENS_TYPES,
  isTiered,
  type LensEntry,
  type MaterialsList,
  type MaterialsRule,
} from './materials.types';
import type { Frequency, LastService, NextEligible } from './next-eligible.types';

// Small objects of the response form; test/support/serialize-plan.ts builds the rest.

export function carveOut(c: CarveOut): Record<string, unknown> {
  return { name: c.name, payer_id: c.payer_id ?? null, phone: c.phone ?? null };
}

export function otherPayer(p: OtherPayer): Record<string, unknown> {
  return { name: p.name, payer_id: p.payer_id ?? null, member_id: p.member_id ?? null };
}

/** docs/api.md, Next eligible dates in results: every key present, in this order. */
export function frequency(f: Frequency): Record<string, unknown> {
  return {
    count: f.count,
    period: { kind: f.period.kind, months: f.period.months ?? null },
    shared_with: [...(f.shared_with ?? [])],
  };
}

export function lastService(l: LastService): Record<string, unknown> {
  return { date: l.date, source: l.source };
}

export function nextEligible(n: NextEligible): Record<string, unknown> {
  return { date: n.date, basis: n.basis, explanation: [...n.explanation] };
}

/**
 * docs/api.md, The counter: the price list with its stated keys only, in one order; money and
 * percentages with four decimals, as every figure of a plan.
 */
export function materials(m: MaterialsList): Record<string, unknown> {
  const out: Record<string, unknown> = { network: m.network };
  if (m.frame) out.frame = rule(m.frame);
  const keyed = <K extends string, R>(
    names: readonly K[],
    list: Partial<Record<K, R>> | undefined,
    one: (r: R) => Record<string, unknown>,
  ) => {
    if (!list) return undefined;
    const o: Record<string, unknown> = {};
    for (const name of names) if (list[name]) o[name] = one(list[name]);
    return o;
  };
  if (m.lenses) out.lenses = keyed(LENS_TYPES, m.lenses, lensRule);
  if (m.lens_options) out.lens_options = keyed(LENS_OPTIONS, m.lens_options, rule);
  if (m.contact_lenses) out.contact_lenses = keyed(CONTACT_LENS_ENTRIES, m.contact_lenses, rule);
  if (m.in_lieu_of) out.in_lieu_of = m.in_lieu_of.map((pair) => [...pair]);
  return out;
}

function rule(r: MaterialsRule): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (r.copayment !== undefined) out.copayment = formatDecimal4(r.copayment);
  if (r.allowance !== undefined) out.allowance = formatDecimal4(r.allowance);
  if (r.discount_percent !== undefined) out.discount_percent = formatDecimal4(r.discount_percent);
  if (r.discount_on !== undefined) out.discount_on = r.discount_on;
  if (r.price !== undefined) out.price = formatDecimal4(r.price);
  if (r.max_age !== undefined) out.max_age = r.max_age;
  if (r.code !== undefined) out.code = r.code;
  return out;
}

function lensRule(r: LensEntry): Record<string, unknown> {
  if (!isTiered(r)) return rule(r);
  const tiers: Record<string, unknown> = {};
  for (const tier of Object.keys(r.tiers).sort((a, b) => Number(a) - Number(b)))
    tiers[tier] = rule(r.tiers[tier]);
  return { tiers };
}

/**
 * `JSON.stringify(serializePlan(plan))` (test/support/serialize-plan.ts), byte for byte, written
 * directly: no intermediate object tree, plain ASCII strings quoted without the serializer, each
 * decimal formatted once per distinct text. The stored V2 body renders a plan per person, and
 * building the tree was most of a search's rendering (bench/README.md).
 *
 * The text is built by appending only (V8 keeps the pieces as a rope and copies them once, when
 * the string is first read whole): slicing a level's text, or joining a list's, copied every
 * level's text again into the next (a 10 KB body allocated about 16 times its size).
 */
export function serializePlanJson(plan: Plan): string {
  let s = field('', K.insurer_state, toJson(plan.insurer_state));
  s = field(s, K.items, arrayJson(plan.items, itemJson));
  s = field(s, K.refresh_date, toJson(plan.refresh_date ?? null));
  s = field(s, K.begin_date, toJson(plan.begin_date ?? null));
  s = field(s, K.end_date, toJson(plan.end_date ?? null));
  s = field(s, K.flags, flagsJson(plan.flags ?? []));
  s = lists(s, plan, DOUBLE_LISTS, DOUBLE_KEYS, true);
  s = lists(s, plan, BOOLEAN_LISTS, BOOLEAN_KEYS, false);
  if (plan.comment !== undefined) s = field(s, K.comment, toJson(plan.comment));
  if (plan.carve_out !== undefined) s = field(s, K.carve_out, toJson(carveOut(plan.carve_out)));
  if (plan.other_payers !== undefined)
    s = field(
      s,
      K.other_payers,
      arrayJson(plan.other_payers, (p) => toJson(otherPayer(p))!),
    );
  s = field(s, K.materials, plan.materials ? JSON.stringify(materials(plan.materials)) : 'null');
  s = field(s, K.materials_source, toJson(plan.materials_source ?? null));
  return `{${s}}`;
}

function itemJson(item: BenefitItem): string {
  let s = field('', K.benefit_code, toJson(item.benefit_code));
  s = field(s, K.refresh_date, toJson(item.refresh_date));
  s = field(s, K.flags, flagsJson(item.flags ?? []));
  if (item.comment !== undefined) s = field(s, K.comment, toJson(item.comment));
  s = lists(s, item, DOUBLE_LISTS, DOUBLE_KEYS, true);
  s = lists(s, item, INTEGER_LISTS, INTEGER_KEYS, false);
  s = lists(s, item, BOOLEAN_LISTS, BOOLEAN_KEYS, false);
  s = field(s, K.items, arrayJson(item.items ?? [], itemJson));
  if (item.end_date !== undefined) s = field(s, K.end_date, toJson(item.end_date));
  if (item.last_service_date !== undefined)
    s = field(s, K.last_service_date, toJson(item.last_service_date));
  if (item.next_eligible_date !== undefined)
    s = field(s, K.next_eligible_date, toJson(item.next_eligible_date));
  // Rare enough (a few items of a plan) to go through the object form.
  if (item.frequency !== undefined)
    s = field(s, K.frequency, JSON.stringify(frequency(item.frequency)));
  if (item.last_service !== undefined)
    s = field(s, K.last_service, JSON.stringify(lastService(item.last_service)));
  if (item.next_eligible !== undefined)
    s = field(s, K.next_eligible, JSON.stringify(nextEligible(item.next_eligible)));
  return `{${s}}`;
}

/** `s` with the flag lists of `holder` named in `names` (in that order), those it has. */
function lists<N extends string>(
  s: string,
  holder: Partial<Record<N, FlagEntry<unknown>[]>>,
  names: readonly N[],
  keys: readonly Key[],
  decimal: boolean,
): string {
  for (let i = 0; i < names.length; i++) {
    const list = holder[names[i]];
    if (list) s = field(s, keys[i], listJson(list, decimal));
  }
  return s;
}

/** A flag list's JSON: each entry's flags and comment when present, then its value. */
function listJson(list: FlagEntry<unknown>[], decimal: boolean): string {
  let s = '';
  for (let i = 0; i < list.length; i++) {
    const entry = list[i];
    let e = '';
    if (entry.flags && entry.flags.length > 0) e = field(e, K.flags, flagsJson(entry.flags));
    if (entry.comment !== undefined) e = field(e, K.comment, toJson(entry.comment));
    e = field(
      e,
      K.value,
      decimal ? decimalJson(entry.value as string | null | undefined) : toJson(entry.value),
    );
    s = i === 0 ? `{${e}}` : `${s},{${e}}`;
  }
  return `[${s}]`;
}

function arrayJson<T>(list: readonly T[], json: (value: T) => string): string {
  let s = '';
  for (let i = 0; i < list.length; i++) s = i === 0 ? json(list[i]) : `${s},${json(list[i])}`;
  return `[${s}]`;
}

/** A property's name as it is written first in its object, and after another. */
interface Key {
  first: string;
  next: string;
}

const key = (name: string): Key => ({ first: `"${name}":`, next: `,"${name}":` });

/**
 * The object's properties so far (`s`, empty for none) with one more, whose value is already
 * JSON; nothing added when the value has no JSON (undefined), as JSON.stringify leaves it out.
 */
function field(s: string, k: Key, json: string | undefined): string {
  if (json === undefined) return s;
  return s === '' ? k.first + json : s + k.next + json;
}

const K = {
  insurer_state: key('insurer_state'),
  items: key('items'),
  refresh_date: key('refresh_date'),
  begin_date: key('begin_date'),
  end_date: key('end_date'),
  flags: key('flags'),
  comment: key('comment'),
  carve_out: key('carve_out'),
  other_payers: key('other_payers'),
  materials: key('materials'),
  materials_source: key('materials_source'),
  benefit_code: key('benefit_code'),
  last_service_date: key('last_service_date'),
  next_eligible_date: key('next_eligible_date'),
  frequency: key('frequency'),
  last_service: key('last_service'),
  next_eligible: key('next_eligible'),
  value: key('value'),
};
const DOUBLE_KEYS = DOUBLE_LISTS.map(key);
const INTEGER_KEYS = INTEGER_LISTS.map(key);
const BOOLEAN_KEYS = BOOLEAN_LISTS.map(key);

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

/**
 * A flag list's JSON (toJson's): a list of one flag, as most are, remembered per flag (flags are
 * the contract's few codes, `BenefitFlag`).
 */
function flagsJson(flags: readonly unknown[]): string | undefined {
  if (flags.length !== 1 || typeof flags[0] !== 'string') return toJson(flags);
  let json = oneFlag.get(flags[0]);
  if (json === undefined) {
    json = toJson(flags)!;
    if (oneFlag.size >= 256) oneFlag.clear();
    oneFlag.set(flags[0], json);
  }
  return json;
}

const oneFlag = new Map<string, string>();

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
