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
  return index;
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
