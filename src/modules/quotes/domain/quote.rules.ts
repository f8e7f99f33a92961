import {
  type ContactLensKind,
  type FittingKind,
  IN_LIEU_SIDES,
  type InLieuSide,
  isTiered,
  type LensOption,
  type LensType,
  type MaterialsList,
  type MaterialsRule,
} from '@/lib/benefits';
import {
  decimalPlaces,
  fromMinor,
  isDecimalInput,
  normaliseDecimal,
  toMinor,
} from '@/platform/kernel/decimal';
import { formatMoney, MONEY } from '@/platform/kernel/money';

/**
 * The counter's pricing (docs/api.md, The counter): what the patient pays for what they order,
 * from the plan's materials price list alone, in network, in integer ten-thousandths (BigInt):
 * no float ever touches money. One rule prices every line from its retail `r`:
 *   1. `max_age` stated and the patient at most that age: the patient pays 0;
 *   2. else `price` stated: min(price, r);
 *   3. else no copayment, allowance or discount stated: not estimable (with `max_age` alone and
 *      an older patient: r);
 *   4. else only a copayment: min(c, r);
 *   5. else min(r, c + max(0, r − c − a) × (1 − d/100)) with the discount on the overage (the
 *      default), min(r, c + max(0, r × (1 − d/100) − a)) with it on the retail;
 * rounded half up to the cent per line; plan_covers = r − patient_pays. Lens options follow the
 * lenses and the fitting follows the contact lenses (availability, `in_lieu_of`); a benefit not
 * available covers nothing; of two sides of an `in_lieu_of` pair the plan covers one. What the
 * list does not state is not estimable, never guessed, and stays out of the totals.
 */

/** Whether a benefit can be had on the quote's day, and when it can again (the caller's next eligible dates, docs/api.md). */
export interface BenefitAvailability {
  available: boolean;
  /** The day it is available again; null when not known. */
  until: string | null;
}

/** Frame follows `frames`, lenses and their options `spectacle_lenses`, contacts and fitting `contact_lenses`. */
export interface QuoteAvailability {
  frames: BenefitAvailability;
  spectacle_lenses: BenefitAvailability;
  contact_lenses: BenefitAvailability;
}

/** What the patient orders, each with its retail (a decimal string, at most four decimals). */
export interface QuoteOrder {
  frame?: { retail: string } | null;
  lenses?: { type: LensType; tier?: string | number | null; retail: string } | null;
  lens_options?: readonly { option: LensOption; retail: string }[] | null;
  contact_lenses?: { kind: ContactLensKind; retail: string } | null;
  fitting?: { kind: FittingKind; retail: string } | null;
  /** The side of an `in_lieu_of` pair the plan covers when the order holds both. */
  in_lieu_keep?: InLieuSide | null;
}

export interface QuoteInput {
  materials: MaterialsList;
  order: QuoteOrder;
  /** Whole years on the day of service; null when not known (a `max_age` rule is then not estimable). */
  patientAge: number | null;
  availability: QuoteAvailability;
}

export interface QuoteLine {
  /** `frame`, `lenses`, the option's name, `contact_lenses`, `fitting`. */
  item: string;
  code: string | null;
  retail: string;
  plan_covers: string;
  patient_pays: string;
  /** Which step applied, with its figures, for the front desk. */
  reason: string;
}

export interface NotEstimableLine {
  item: string;
  retail: string;
  reason: string;
}

export interface PricedOrder {
  lines: QuoteLine[];
  /** Sums of `lines` (not estimable lines stay out). */
  retail: string;
  plan_covers: string;
  patient_pays: string;
  not_estimable: NotEstimableLine[];
  notes: string[];
}

/**
 * Prices an order. Throws a RangeError for a retail that is not a non-negative amount of at most
 * four decimals (the request's validation refuses it first); a list's value that is not one
 * makes its line not estimable.
 */
export function priceOrder(input: QuoteInput): PricedOrder {
  const items = orderItems(input);
  const notes: string[] = [];
  const outcomes = resolveInLieu(input, items, notes);

  const lines: QuoteLine[] = [];
  const notEstimable: NotEstimableLine[] = [];
  let retail = 0n;
  let pays = 0n;
  items.forEach((item, i) => {
    const outcome = outcomes[i];
    if (outcome.kind === 'unknown') {
      notEstimable.push({
        item: item.item,
        retail: fromMinor(item.retail),
        reason: outcome.reason,
      });
      return;
    }
    retail += item.retail;
    pays += outcome.pays;
    lines.push({
      item: item.item,
      code: item.code,
      retail: fromMinor(item.retail),
      plan_covers: fromMinor(item.retail - outcome.pays),
      patient_pays: fromMinor(outcome.pays),
      reason: outcome.reason,
    });
  });
  return {
    lines,
    retail: fromMinor(retail),
    plan_covers: fromMinor(retail - pays),
    patient_pays: fromMinor(pays),
    not_estimable: notEstimable,
    notes,
  };
}

type Outcome = { kind: 'line'; pays: bigint; reason: string } | { kind: 'unknown'; reason: string };

type Lookup = { rule: MaterialsRule } | { missing: string };

interface Item {
  item: string;
  side: InLieuSide;
  /** The item that holds its side (frame, lenses, contact lenses), not one that follows it. */
  principal: boolean;
  retail: bigint;
  code: string | null;
  /** Its pricing when its side is covered: follows, availability, then the list's rule. */
  kept: Outcome;
}

const SIDE_NAMES: Record<InLieuSide, string> = {
  contact_lenses: 'the contact lenses',
  frame: 'the frame',
  lenses: 'the lenses',
};

const BENEFIT_NAMES: Record<keyof QuoteAvailability, string> = {
  frames: 'frames',
  spectacle_lenses: 'spectacle lenses',
  contact_lenses: 'contact lenses',
};

interface Ordered {
  item: string;
  side: InLieuSide;
  principal: boolean;
  retail: string;
  lookup: Lookup;
  /** How the reasons name it. */
  label: string;
  /** Why it covers nothing when what it follows is not in the order. */
  orphan?: string | null;
}

function orderItems(input: QuoteInput): Item[] {
  const { materials, order } = input;
  const ordered: Ordered[] = [];
  if (order.frame) {
    const label = 'the frame';
    const lookup = entry(materials.frame, label);
    ordered.push({
      item: 'frame',
      side: 'frame',
      principal: true,
      retail: order.frame.retail,
      lookup,
      label,
    });
  }
  const lenses = order.lenses;
  if (lenses) {
    const lookup = lensLookup(materials, lenses);
    const label = `${lenses.type} lenses`;
    ordered.push({
      item: 'lenses',
      side: 'lenses',
      principal: true,
      retail: lenses.retail,
      lookup,
      label,
    });
  }
  for (const { option, retail } of order.lens_options ?? []) {
    const orphan = lenses
      ? null
      : 'lens options follow the lenses, and the order has no lenses: the plan covers nothing';
    const lookup = entry(own(materials.lens_options, option), option);
    ordered.push({
      item: option,
      side: 'lenses',
      principal: false,
      retail,
      lookup,
      label: option,
      orphan,
    });
  }
  const contacts = order.contact_lenses;
  if (contacts) {
    const label = `${contacts.kind} contact lenses`;
    const lookup = entry(own(materials.contact_lenses, contacts.kind), label);
    const side = 'contact_lenses';
    ordered.push({ item: side, side, principal: true, retail: contacts.retail, lookup, label });
  }
  const fitting = order.fitting;
  if (fitting) {
    const label = `a ${fitting.kind} contact lens fitting`;
    const orphan = contacts
      ? null
      : 'the fitting follows the contact lenses, and the order has none: the plan covers nothing';
    const lookup = entry(own(materials.contact_lenses, `fitting_${fitting.kind}`), label);
    const side = 'contact_lenses';
    ordered.push({
      item: 'fitting',
      side,
      principal: false,
      retail: fitting.retail,
      lookup,
      label,
      orphan,
    });
  }
  return ordered.map((o) => itemOf(o, input));
}

/** An ordered item priced as if its side is covered: what it follows, availability, then the rule. */
function itemOf(o: Ordered, input: QuoteInput): Item {
  const retail = orderRetail(o.item, o.retail);
  const code =
    'rule' in o.lookup && typeof o.lookup.rule.code === 'string' ? o.lookup.rule.code : null;
  const benefit = o.side === 'frame' ? 'frames' : o.side === 'lenses' ? 'spectacle_lenses' : o.side;
  const available = input.availability[benefit];
  let kept: Outcome;
  if (o.orphan) kept = coversNothing(o.orphan, retail);
  else if (!available.available) {
    const when = available.until
      ? `not available until ${available.until}`
      : 'not available now (the date it is available again is not known)';
    kept = coversNothing(`${BENEFIT_NAMES[benefit]} ${when}: the plan covers nothing`, retail);
  } else if ('missing' in o.lookup) kept = { kind: 'unknown', reason: o.lookup.missing };
  else kept = priceRule(o.lookup.rule, retail, input.patientAge, o.label);
  return { item: o.item, side: o.side, principal: o.principal, retail, code, kept };
}

function lensLookup(materials: MaterialsList, lenses: NonNullable<QuoteOrder['lenses']>): Lookup {
  const label = `${lenses.type} lenses`;
  const stated = own(materials.lenses, lenses.type);
  if (!stated || typeof stated !== 'object' || !isTiered(stated)) return entry(stated, label);
  const tiers = Object.keys(stated.tiers).join(', ');
  if (lenses.tier === undefined || lenses.tier === null || String(lenses.tier) === '')
    return { missing: `${label} are priced by tier (${tiers}), and the order names no tier` };
  const tier = String(lenses.tier);
  const rule = own(stated.tiers, tier);
  if (!rule)
    return { missing: `the price list states no tier ${tier} for ${label} (tiers ${tiers})` };
  return entry(rule, `${label}, tier ${tier}`);
}

function entry(rule: MaterialsRule | undefined, label: string): Lookup {
  if (rule === undefined || rule === null)
    return { missing: `the price list states nothing for ${label}` };
  if (typeof rule !== 'object' || Array.isArray(rule))
    return { missing: `the price list's entry for ${label} is not a price rule` };
  return { rule };
}

/** A key of a list read from JSON: its own property only (never `constructor` and the like). */
function own<T>(
  record: Partial<Readonly<Record<string, T>>> | null | undefined,
  key: string,
): T | undefined {
  if (!record || typeof record !== 'object') return undefined;
  return Object.prototype.hasOwnProperty.call(record, key) ? record[key] : undefined;
}

function orderRetail(item: string, text: string): bigint {
  const value = readAmount(text);
  if (value === undefined || value === 'invalid')
    throw new RangeError(`The retail of ${item} is not an amount: ${String(text)}`);
  return value;
}

function coversNothing(why: string, retail: bigint): Outcome {
  return {
    kind: 'line',
    pays: retail,
    reason: `${why}; the patient pays the retail ${dollars(retail)}`,
  };
}

// ---- The one rule -------------------------------------------------------------------------

interface ReadRule {
  c?: bigint;
  a?: bigint;
  /** Percent in ten-thousandths (20 % → 200000n). */
  d?: bigint;
  on: 'overage' | 'retail';
  price?: bigint;
  maxAge?: number;
}

const HUNDRED_PERCENT = 100n * 10_000n;
const CENT = 100n;

function priceRule(rule: MaterialsRule, r: bigint, age: number | null, label: string): Outcome {
  const read = readRule(rule, label);
  if (typeof read === 'string') return { kind: 'unknown', reason: read };
  const { c, a, d, price, maxAge } = read;

  // 1. Covered in full up to an age.
  if (maxAge !== undefined) {
    if (age === null)
      return {
        kind: 'unknown',
        reason: `${label} is covered in full up to age ${maxAge}, and the patient's age is not known`,
      };
    if (age <= maxAge)
      return {
        kind: 'line',
        pays: 0n,
        reason: `covered in full up to age ${maxAge} (the patient is ${age})`,
      };
  }
  // 2. A fixed price.
  if (price !== undefined)
    return price > r
      ? line(
          r,
          `the list's price ${dollars(price)} is more than the retail ${dollars(r)}: the patient pays the retail`,
        )
      : line(finish(price * HUNDRED_PERCENT, r), `the list's price ${dollars(price)}`);
  // 3. Nothing to price with.
  if (c === undefined && a === undefined && d === undefined) {
    if (maxAge !== undefined)
      return line(
        r,
        `covered in full up to age ${maxAge} only (the patient is ${age}): the patient pays the retail`,
      );
    return {
      kind: 'unknown',
      reason: `the price list states no copayment, allowance, discount or price for ${label}`,
    };
  }
  // 4. A copayment alone.
  if (a === undefined && d === undefined) {
    const copay = c!;
    return copay > r
      ? line(
          r,
          `copayment ${dollars(copay)} is more than the retail ${dollars(r)}: the patient pays the retail`,
        )
      : line(
          finish(copay * HUNDRED_PERCENT, r),
          `copayment ${dollars(copay)}, then covered in full`,
        );
  }
  // 5. Copayment, allowance and discount.
  return read.on === 'retail' ? onRetail(read, r) : onOverage(read, r);
}

function onOverage({ c = 0n, a = 0n, d = 0n }: ReadRule, r: bigint): Outcome {
  const over = max(0n, r - c - a);
  const raw = c * HUNDRED_PERCENT + over * (HUNDRED_PERCENT - d);
  const stated = [
    c > 0n ? `copayment ${dollars(c)}` : null,
    a > 0n ? `allowance ${dollars(a)}` : null,
  ].filter((part): part is string => part !== null);
  const it = stated.length > 1 ? 'them' : 'it';
  let reason: string;
  if (stated.length === 0) reason = `${percent(d)} % off the retail ${dollars(r)}`;
  else if (over === 0n) reason = `${stated.join(' and ')}, nothing over ${it}`;
  else if (d > 0n)
    reason = `${stated.join(' and ')}, then ${percent(d)} % off the ${dollars(over)} over ${it}`;
  else reason = `${stated.join(' and ')}, then the ${dollars(over)} over ${it}`;
  return capped(raw, r, reason);
}

function onRetail({ c = 0n, a = 0n, d = 0n }: ReadRule, r: bigint): Outcome {
  const discounted = r * (HUNDRED_PERCENT - d);
  const over = max(0n, discounted - a * HUNDRED_PERCENT);
  const raw = c * HUNDRED_PERCENT + over;
  const parts = [
    d > 0n
      ? `${percent(d)} % off the retail ${dollars(r)} leaves ${dollars(toTenThousandths(discounted))}`
      : `retail ${dollars(r)}`,
  ];
  if (a > 0n)
    parts.push(
      over === 0n
        ? `within the allowance ${dollars(a)}`
        : `less the allowance ${dollars(a)}: ${dollars(toTenThousandths(over))}`,
    );
  if (c > 0n) parts.push(`plus the copayment ${dollars(c)}`);
  return capped(raw, r, parts.join(', '));
}

/** `raw` in ten-thousandths of a percent of the ten-thousandth (× HUNDRED_PERCENT), at most `r`. */
function capped(raw: bigint, r: bigint, reason: string): Outcome {
  if (raw >= r * HUNDRED_PERCENT)
    return line(r, raw > r * HUNDRED_PERCENT ? `${reason}; no more than the retail` : reason);
  return line(finish(raw, r), reason);
}

/** Rounds `raw` (scaled by HUNDRED_PERCENT) half up to the cent, never above the retail. */
function finish(raw: bigint, r: bigint): bigint {
  if (raw >= r * HUNDRED_PERCENT) return r;
  const unit = CENT * HUNDRED_PERCENT;
  return min(((raw + unit / 2n) / unit) * CENT, r);
}

function toTenThousandths(raw: bigint): bigint {
  return (raw + HUNDRED_PERCENT / 2n) / HUNDRED_PERCENT;
}

function line(pays: bigint, reason: string): Outcome {
  return { kind: 'line', pays, reason };
}

/** The rule's stated values, or why the list's entry cannot be read. */
function readRule(rule: MaterialsRule, label: string): ReadRule | string {
  const out: ReadRule = { on: 'overage' };
  const amounts = [
    ['copayment', 'c'],
    ['allowance', 'a'],
    ['price', 'price'],
  ] as const;
  for (const [key, field] of amounts) {
    const value = readAmount(rule[key]);
    if (value === 'invalid')
      return `the price list's ${key} for ${label} is not an amount (${shown(rule[key])})`;
    if (value !== undefined) out[field] = value;
  }
  const d = readAmount(rule.discount_percent);
  if (d === 'invalid' || (d !== undefined && d > HUNDRED_PERCENT))
    return `the price list's discount_percent for ${label} is not a percent (${shown(rule.discount_percent)})`;
  if (d !== undefined) out.d = d;
  const on = rule.discount_on as unknown;
  if (on === 'retail' || on === 'overage') out.on = on;
  else if (on !== undefined && on !== null)
    return `the price list's discount_on for ${label} is neither overage nor retail (${shown(on)})`;
  const maxAge = rule.max_age as unknown;
  if (typeof maxAge === 'number' && Number.isInteger(maxAge) && maxAge >= 0) out.maxAge = maxAge;
  else if (maxAge !== undefined && maxAge !== null)
    return `the price list's max_age for ${label} is not an age (${shown(maxAge)})`;
  return out;
}

/** A value of the list as the reason quotes it. */
function shown(value: unknown): string {
  return typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));
}

/** A non-negative decimal of at most four places, in ten-thousandths; undefined when absent. */
function readAmount(value: unknown): bigint | undefined | 'invalid' {
  if (value === undefined || value === null) return undefined;
  if ((typeof value !== 'string' && typeof value !== 'number') || !isDecimalInput(value))
    return 'invalid';
  const text = normaliseDecimal(value);
  if (text.startsWith('-') || decimalPlaces(text) > 4) return 'invalid';
  return toMinor(text);
}

// ---- In lieu of ---------------------------------------------------------------------------

interface Candidate {
  keep: InLieuSide[];
  /** The patient's total over the items of the sides in a pair: bounds when a line is not estimable. */
  lo: bigint;
  hi: bigint;
}

/**
 * Of the sides the order holds that an `in_lieu_of` pair joins, the plan covers a set with no
 * pair inside it that cannot take one more side: the one holding `in_lieu_keep`, else the one
 * leaving the patient the lower total over those items. When a line the list does not price
 * could change which, the lines that depend on the choice are not estimable.
 */
function resolveInLieu(input: QuoteInput, items: Item[], notes: string[]): Outcome[] {
  const kept = items.map((item) => item.kept);
  const held = new Set(items.filter((item) => item.principal).map((item) => item.side));
  const pairs = (input.materials.in_lieu_of ?? []).filter(
    (pair): pair is readonly [InLieuSide, InLieuSide] =>
      Array.isArray(pair) && pair[0] !== pair[1] && held.has(pair[0]) && held.has(pair[1]),
  );
  if (pairs.length === 0) {
    if (input.order.in_lieu_keep) notes.push(keepIgnored(input.order.in_lieu_keep));
    return kept;
  }
  const joined = IN_LIEU_SIDES.filter((side) => pairs.some((pair) => pair.includes(side)));
  const conflicts = (a: InLieuSide, b: InLieuSide) =>
    pairs.some((pair) => (pair[0] === a && pair[1] === b) || (pair[0] === b && pair[1] === a));

  let candidates = subsets(joined)
    .filter((keep) => keep.every((a) => keep.every((b) => !conflicts(a, b))))
    .filter((keep) =>
      joined.every((side) => keep.includes(side) || keep.some((k) => conflicts(side, k))),
    )
    .map((keep) => bounds(keep, items, joined));

  const wanted = input.order.in_lieu_keep;
  const byKeep = !!wanted && joined.includes(wanted);
  if (wanted && !byKeep) notes.push(keepIgnored(wanted));
  if (byKeep) candidates = candidates.filter((candidate) => candidate.keep.includes(wanted));

  const winner = candidates.find((candidate, i) =>
    candidates.every(
      (other, j) => j === i || candidate.hi < other.lo || (candidate.hi === other.lo && i < j),
    ),
  );
  if (!winner) return undetermined(items, kept, joined, candidates, notes);

  const best = candidates
    .filter((c) => c !== winner)
    .sort((x, y) => (x.lo < y.lo ? -1 : x.lo > y.lo ? 1 : 0))[0];
  const why = byKeep
    ? `as in_lieu_keep asks`
    : `which leaves the patient less to pay for ${sides(joined)} (${total(winner, 'at most')} against ${total(best, 'at least')} covering ${sides(best.keep)})`;
  const dropped = joined.filter((side) => !winner.keep.includes(side));
  notes.push(`In lieu of: the plan covers ${sides(winner.keep)}, not ${sides(dropped)}, ${why}.`);
  return items.map((item, i) => {
    if (winner.keep.includes(item.side) || !joined.includes(item.side)) return kept[i];
    const instead = winner.keep.filter((k) => conflicts(item.side, k));
    return coversNothing(
      `in lieu of: the plan covers ${sides(instead)} instead of ${SIDE_NAMES[item.side]}, ${why}`,
      item.retail,
    );
  });
}

function undetermined(
  items: Item[],
  kept: Outcome[],
  joined: InLieuSide[],
  candidates: Candidate[],
  notes: string[],
): Outcome[] {
  const ways = candidates.map((c) => sides(c.keep)).join(' or ');
  const unpriced = items.filter(
    (item) => joined.includes(item.side) && item.kept.kind === 'unknown',
  );
  const reason =
    `the plan covers ${ways}, ${candidates.length > 2 ? 'only one of these' : 'not both'}, and which leaves ` +
    `the patient less cannot be told because the price list does not price ` +
    `${unpriced.map((item) => item.item).join(', ')}: name in_lieu_keep`;
  notes.push(`In lieu of: ${reason}.`);
  return items.map((item, i) => {
    const outcome = kept[i];
    if (!joined.includes(item.side)) return outcome;
    // A line that covers nothing whichever side is kept is known.
    if (outcome.kind === 'line' && outcome.pays === item.retail) return outcome;
    return { kind: 'unknown', reason };
  });
}

function bounds(keep: InLieuSide[], items: Item[], joined: InLieuSide[]): Candidate {
  let lo = 0n;
  let hi = 0n;
  for (const item of items) {
    if (!joined.includes(item.side)) continue;
    if (!keep.includes(item.side)) {
      lo += item.retail;
      hi += item.retail;
    } else if (item.kept.kind === 'line') {
      lo += item.kept.pays;
      hi += item.kept.pays;
    } else hi += item.retail;
  }
  return { keep, lo, hi };
}

/** Every non-empty subset of `sides`, in a fixed order: those holding the first side first. */
function subsets(sides: InLieuSide[]): InLieuSide[][] {
  const all: InLieuSide[][] = [];
  for (let mask = (1 << sides.length) - 1; mask > 0; mask--)
    all.push(sides.filter((_, i) => mask & (1 << (sides.length - 1 - i))));
  return all;
}

function total(candidate: Candidate, bound: string): string {
  return candidate.lo === candidate.hi
    ? dollars(candidate.lo)
    : `${bound} ${dollars(bound === 'at most' ? candidate.hi : candidate.lo)}`;
}

function sides(list: InLieuSide[]): string {
  const names = list.map((side) => SIDE_NAMES[side]);
  return names.length < 3
    ? names.join(' and ')
    : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
}

function keepIgnored(side: InLieuSide): string {
  return `in_lieu_keep (${SIDE_NAMES[side] ?? String(side)}) is not used: the order does not hold both sides of an in_lieu_of pair with it.`;
}

// ---- Words --------------------------------------------------------------------------------

/** "$45.00", or "$45.1234" when the amount has more than cents. */
const dollars = (minor: bigint) => formatMoney(minor, MONEY.note);

/** 200000n (ten-thousandths) → "20"; 125000n → "12.5". */
function percent(minor: bigint): string {
  return fromMinor(minor).replace(/\.?0+$/, '');
}

const min = (a: bigint, b: bigint) => (a < b ? a : b);
const max = (a: bigint, b: bigint) => (a > b ? a : b);
