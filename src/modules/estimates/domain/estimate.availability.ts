import { benefitLabel } from '@/lib/benefits';
import { todayIso } from '@/platform/kernel/time';
import type { IndexedBenefit } from './plan-index';

/** The day an estimate is for (docs/api.md, Estimates), and when the plan says benefits come back. */
export interface EstimateDay {
  /** `date_of_service` (YYYY-MM-DD); today when absent. */
  dateOfService?: string | null;
  /**
   * Per benefit code, the date the plan's item says it is available again by its `next_eligible`
   * object (null: not known); a benefit not listed goes by its `next_eligible_date`.
   */
  nextEligible?: ReadonlyMap<string, string | null>;
}

/** A plan item as JSON, as far as its next eligible date goes. */
interface ItemJson {
  benefit_code: string;
  next_eligible?: { date?: string | null } | null;
  items?: ItemJson[] | null;
}

/**
 * The `next_eligible` dates of a plan's items (docs/api.md, Next eligible dates): items that carry
 * the object, with its date (null when it is not known), and the items under them, which are part
 * of them: each with the later of its own date and its ancestor's.
 */
export function nextEligibleDates(
  items: readonly ItemJson[] | null | undefined,
  into = new Map<string, string | null>(),
  above?: string | null,
): Map<string, string | null> {
  for (const item of items ?? []) {
    const next = item.next_eligible;
    const own =
      next && typeof next === 'object'
        ? typeof next.date === 'string'
          ? next.date
          : null
        : undefined;
    const date =
      above === undefined || above === null
        ? own
        : own === undefined || own === null || above > own
          ? above
          : own;
    if (date !== undefined && !into.has(item.benefit_code)) into.set(item.benefit_code, date);
    nextEligibleDates(item.items, into, date);
  }
  return into;
}

/**
 * Why a benefit pays nothing on the estimate's day, or null when it is available then: its next
 * eligible date (the item's `next_eligible` object's, else its `next_eligible_date`) is after the
 * date of service (today when none is given). The reason reads like the estimate's other notes.
 */
export function notYetAvailable(node: IndexedBenefit, day: EstimateDay): string | null {
  const on = day.dateOfService ?? todayIso();
  const next = day.nextEligible?.has(node.code)
    ? day.nextEligible.get(node.code)
    : node.effective.nextEligibleDate;
  if (!next || next <= on) return null;
  const last = node.lastUsed;
  const since = !last
    ? ''
    : last.code === node.code
      ? ` (last used ${last.date})`
      : ` (${benefitLabel(last.code).toLowerCase()} last used ${last.date}, shared)`;
  return day.dateOfService
    ? `not eligible until ${next}${since}, after the date of service ${on}: not reimbursed`
    : `not eligible until ${next}${since}: not reimbursed`;
}
