import type { BenefitItem, DoubleList, FlagEntry, Network, Plan } from '@/lib/benefits';

/** What the sandbox's cheat codes do to a plan (`mark_used`, `dt_exam_used`, `no_oon`, `no_inn`). */

/**
 * Every benefit used: accepted quantities equal the quantities, allowances accepted in full, and
 * a benefit with a frequency last had on `usedOn` (the payer's word, as a 271's DTP 304).
 */
export function markUsed(item: BenefitItem, usedOn: string): BenefitItem {
  const out: BenefitItem = { ...item };
  const accepted = <T>(e: FlagEntry<T>): FlagEntry<T> =>
    e.flags ? { flags: e.flags, value: e.value } : { value: e.value };
  if (item.quantity) out.quantity_accepted = item.quantity.map(accepted);
  if (item.allowance) out.allowance_accepted = item.allowance.map(accepted);
  if (item.frequency) out.stated = { last_service: { date: usedOn, source: 'payer' } };
  if (item.items) out.items = item.items.map((i) => markUsed(i, usedOn));
  return out;
}

/** Drops every entry and item that only applies on `network`, and lists left empty. */
export function removeNetwork(plan: Plan, network: Network): Plan {
  const keep = (flags?: string[]) => !(flags ?? []).includes(network);
  const strip = <T extends object>(obj: T): T => {
    const out = { ...obj } as Record<string, unknown>;
    for (const [key, value] of Object.entries(out)) {
      if (key === 'items' || key === 'flags' || !Array.isArray(value)) continue;
      const kept = (value as DoubleList).filter((e) => keep(e.flags));
      if (kept.length === 0) delete out[key];
      else out[key] = kept;
    }
    return out as T;
  };
  const walk = (items: BenefitItem[]): BenefitItem[] =>
    items
      .filter((i) => keep(i.flags))
      .map((i) => ({ ...strip(i), ...(i.items ? { items: walk(i.items) } : {}) }));
  return { ...strip(plan), items: walk(plan.items) };
}
