import { type InLieuSide, isTiered, type MaterialsList, type MaterialsRule } from '@/lib/benefits';
import { fromMinor } from '@/platform/kernel/decimal';

import { resolveInLieu } from './quote.in-lieu';
import { coversNothing, priceRule, readAmount } from './quote.line-rule';
import type {
  Item,
  NotEstimableLine,
  Outcome,
  PricedOrder,
  QuoteAvailability,
  QuoteInput,
  QuoteLine,
  QuoteOrder,
} from './quote.types';

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
 *
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

type Lookup = { rule: MaterialsRule } | { missing: string };

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
  const { frame, lenses, contact_lenses: contacts, fitting } = order;
  const ordered: Ordered[] = [];
  // `orphan` only for an item that follows another: a principal item is one without.
  const add = (
    item: string,
    side: InLieuSide,
    retail: string,
    [lookup, label]: [Lookup, string],
    orphan?: string | null,
  ) => ordered.push({ item, side, principal: orphan === undefined, retail, lookup, label, orphan });
  const named = (rule: MaterialsRule | undefined, label: string): [Lookup, string] => [
    entry(rule, label),
    label,
  ];
  if (frame) add('frame', 'frame', frame.retail, named(materials.frame, 'the frame'));
  if (lenses)
    add('lenses', 'lenses', lenses.retail, [
      lensLookup(materials, lenses),
      `${lenses.type} lenses`,
    ]);
  const noLenses = lenses
    ? null
    : 'lens options follow the lenses, and the order has no lenses: the plan covers nothing';
  for (const { option, retail } of order.lens_options ?? [])
    add(option, 'lenses', retail, named(own(materials.lens_options, option), option), noLenses);
  const contactRule = (key: string) => own(materials.contact_lenses, key);
  if (contacts) {
    const label = `${contacts.kind} contact lenses`;
    add(
      'contact_lenses',
      'contact_lenses',
      contacts.retail,
      named(contactRule(contacts.kind), label),
    );
  }
  if (fitting) {
    const label = `a ${fitting.kind} contact lens fitting`;
    const orphan = contacts
      ? null
      : 'the fitting follows the contact lenses, and the order has none: the plan covers nothing';
    const lookup = named(contactRule(`fitting_${fitting.kind}`), label);
    add('fitting', 'contact_lenses', fitting.retail, lookup, orphan);
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
