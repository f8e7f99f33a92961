/**
 * The benefit tree of a plan design (docs/api.md, Plan designs) as pure functions: what a
 * completed plan leaves for the next member of its group, and how a later answer starts from it.
 * Items are JSON as V2 answers print them (`benefit_code`, `refresh_date`, flag lists, `items`).
 */

export type DesignItem = {
  benefit_code: string;
  items?: DesignItem[] | null;
  [key: string]: unknown;
};

/**
 * What one member had used, which a design must not hand to the next: accepted and reserved
 * amounts and quantities, the last service, and the next eligible date counted from it (the
 * frequency is the plan's, and stays).
 */
const USED = /(_accepted|_reserved)$/;
const MEMBERS_OWN = new Set([
  'last_service_date',
  'next_eligible_date',
  'last_service',
  'next_eligible',
]);
const isUsed = (key: string) => USED.test(key) || MEMBERS_OWN.has(key);

/** A copy of `items` without used values, at every depth. */
export function withoutUsedValues(items: readonly DesignItem[]): DesignItem[] {
  return items.map((item) => {
    const out: DesignItem = { benefit_code: item.benefit_code };
    for (const [key, value] of Object.entries(item))
      if (key !== 'items' && !isUsed(key)) out[key] = structuredClone(value);
    if (Array.isArray(item.items)) out.items = withoutUsedValues(item.items);
    return out;
  });
}

/**
 * The group a design is kept for: the plan's group id, else its group's name (trimmed); null
 * when it names neither (such a plan leaves no design).
 */
export function designGroupKey(plan: {
  planGroupId: string | null;
  planGroup: string | null;
}): string | null {
  const id = plan.planGroupId?.trim();
  if (id) return id;
  return plan.planGroup?.trim() || null;
}

/**
 * A person's items when their plan starts from a design: the design's items, each item given
 * replacing the design's item of the same `benefit_code` wherever it sits in the tree. A given
 * item without `items` keeps the replaced item's children; with `items` (even empty) it brings
 * its own. A given item the design lacks goes under the design's item its code extends
 * (`materials.frames` under `materials`), else at the top. `design` is not changed.
 */
export function mergeDesignItems(
  design: readonly DesignItem[],
  given: readonly DesignItem[],
): DesignItem[] {
  const roots = structuredClone(design) as DesignItem[];
  const byCode = new Map<string, DesignItem>();
  const index = (list: DesignItem[]) => {
    for (const item of list) {
      if (!byCode.has(item.benefit_code)) byCode.set(item.benefit_code, item);
      if (Array.isArray(item.items)) index(item.items);
    }
  };
  const unindex = (list: DesignItem[]) => {
    for (const item of list) {
      if (byCode.get(item.benefit_code) === item) byCode.delete(item.benefit_code);
      if (Array.isArray(item.items)) unindex(item.items);
    }
  };
  index(roots);
  for (const g of structuredClone(given) as DesignItem[]) {
    const found = byCode.get(g.benefit_code);
    if (found) {
      const children = found.items ?? [];
      const ownChildren = Array.isArray(g.items);
      for (const key of Object.keys(found)) delete found[key];
      Object.assign(found, g);
      if (ownChildren) {
        unindex(children);
        index(found.items!);
      } else found.items = children;
      continue;
    }
    const parent = parentOf(g.benefit_code, byCode);
    if (parent) (parent.items ??= []).push(g);
    else roots.push(g);
    index([g]);
  }
  return roots;
}

/** The item whose code the longest dotted prefix of `code` is, if any. */
function parentOf(code: string, byCode: Map<string, DesignItem>): DesignItem | undefined {
  for (let dot = code.lastIndexOf('.'); dot > 0; dot = code.lastIndexOf('.', dot - 1)) {
    const parent = byCode.get(code.slice(0, dot));
    if (parent) return parent;
  }
  return undefined;
}
