import { IN_LIEU_SIDES, type InLieuSide } from '@/lib/benefits';

import { coversNothing, dollars } from './quote.line-rule';
import type { Item, Outcome, QuoteInput } from './quote.types';

const SIDE_NAMES: Record<InLieuSide, string> = {
  contact_lenses: 'the contact lenses',
  frame: 'the frame',
  lenses: 'the lenses',
};

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
export function resolveInLieu(input: QuoteInput, items: Item[], notes: string[]): Outcome[] {
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
