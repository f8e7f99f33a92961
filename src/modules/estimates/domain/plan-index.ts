import {
  type BenefitItem,
  EffectiveBenefit,
  evaluatePlan,
  itemApplies,
  type Network,
  type Plan,
} from '@/lib/benefits';

/** The allowance came from the plan-level `allowance` list, not from an item. */
export const PLAN_LEVEL = '(plan)';

/** One benefit of a plan on one network, with what an estimate needs to explain its cap. */
export interface IndexedBenefit {
  code: string;
  /** Values after flag selection and inheritance (the benefits module's evaluator). */
  effective: EffectiveBenefit;
  /**
   * The item whose own `allowance` list gave the effective allowance (this item, an ancestor it
   * inherits from, or PLAN_LEVEL); null when there is no allowance on this network. Lines whose
   * allowance has the same source share it: one allowance is paid once.
   */
  allowanceSource: string | null;
  /** The nearest package item at or above this benefit (its group), or null. */
  packageCode: string | null;
  /** When the benefit does not apply on the network: the item whose network flag excludes it. */
  excludedBy: string | null;
  /** Applicable descendants that carry an allowance of their own on this network. */
  descendantsWithAllowance: string[];
  /**
   * The latest service that counts against the benefit (docs/api.md, Next eligible dates): its own
   * last service, or one of a benefit its rule shares a frequency with when that is later; null
   * when none is on record.
   */
  lastUsed: { date: string; code: string } | null;
}

/**
 * A package item (a frame and lenses bought together, with capped sub-items) is named `package`
 * as the last segment of its benefit code (`materials.package`); it and every benefit under it form
 * one group of docs/api.md, Estimates with one copayment.
 */
export function isPackageCode(code: string): boolean {
  return code.split('.').pop() === 'package';
}

/**
 * Every benefit of the plan by code, evaluated for `network`. Benefit codes are unique in a plan;
 * if an inline plan repeats one, the first in depth-first order is used.
 */
export function indexPlan(plan: Plan, network: Network): Map<string, IndexedBenefit> {
  const index = new Map<string, IndexedBenefit>();
  const evaluated = evaluatePlan(plan, network);
  plan.items.forEach((item, i) =>
    visit(index, network, item, evaluated[i], {
      allowanceSource: PLAN_LEVEL,
      packageCode: null,
      excludedBy: null,
    }),
  );
  setLastUsed(plan, index);
  return index;
}

const under = (root: string, code: string) => code === root || code.startsWith(`${root}.`);

/** Each benefit's `lastUsed`, from the plan's last services and its rules' shared benefits. */
function setLastUsed(plan: Plan, index: Map<string, IndexedBenefit>): void {
  const items: BenefitItem[] = [];
  const collect = (list: readonly BenefitItem[]) =>
    list.forEach((i) => (items.push(i), collect(i.items ?? [])));
  collect(plan.items);
  const lastOf = (code: string) => items.find((i) => i.benefit_code === code)?.last_service_date;
  const done = new Set<string>();
  const walk = (list: readonly BenefitItem[], rule: BenefitItem | null) => {
    for (const item of list) {
      const own = item.frequency ? item : rule;
      const node = index.get(item.benefit_code);
      if (node && !done.has(item.benefit_code)) {
        done.add(item.benefit_code);
        const mine = item.last_service_date;
        let best = mine ? { date: mine, code: item.benefit_code } : null;
        const partners = own
          ? [
              ...(own.frequency?.shared_with ?? []),
              ...items
                .filter(
                  (o) =>
                    o !== own && o.frequency?.shared_with?.some((s) => under(s, own.benefit_code)),
                )
                .map((o) => o.benefit_code),
            ]
          : [];
        for (const code of partners) {
          const date = lastOf(code);
          if (date && (!best || date > best.date)) best = { date, code };
        }
        node.lastUsed = best;
      }
      walk(item.items ?? [], own);
    }
  };
  walk(plan.items, null);
}

interface Inherited {
  allowanceSource: string | null;
  packageCode: string | null;
  excludedBy: string | null;
}

function visit(
  index: Map<string, IndexedBenefit>,
  network: Network,
  item: BenefitItem,
  effective: EffectiveBenefit,
  parent: Inherited,
): IndexedBenefit {
  const code = item.benefit_code;
  const hasAllowance = effective.values.allowance !== undefined;
  // The evaluator already chose the value; this only records where it came from: an item that
  // defines the list owns its value (or has none on this network), otherwise it is the parent's.
  const ownsList = item.allowance !== undefined;
  const node: IndexedBenefit = {
    code,
    effective,
    allowanceSource: !hasAllowance ? null : ownsList ? code : parent.allowanceSource,
    packageCode: isPackageCode(code) ? code : parent.packageCode,
    excludedBy: parent.excludedBy ?? (itemApplies(item, network) ? null : code),
    descendantsWithAllowance: [],
    lastUsed: null,
  };
  if (!index.has(code)) index.set(code, node);
  (item.items ?? []).forEach((child, i) => {
    const childNode = visit(index, network, child, effective.items[i], node);
    if (childNode.excludedBy === null && childNode.allowanceSource === childNode.code)
      node.descendantsWithAllowance.push(childNode.code);
    node.descendantsWithAllowance.push(...childNode.descendantsWithAllowance);
  });
  return node;
}
