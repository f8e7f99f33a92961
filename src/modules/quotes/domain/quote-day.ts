import type { BenefitAvailability, QuoteAvailability } from './quote.types';

/** A plan item as JSON, as far as its next eligible date goes. */
export interface DatedItemJson {
  benefit_code: string;
  next_eligible_date?: string | null;
  next_eligible?: { date?: string | null } | null;
  items?: DatedItemJson[] | null;
}

/** The benefit each side of an order follows (docs/api.md, The counter). */
export const QUOTE_BENEFITS: Record<keyof QuoteAvailability, string> = {
  frames: 'materials.frames',
  spectacle_lenses: 'materials.spectacle_lenses',
  contact_lenses: 'materials.contact_lenses',
};

/**
 * The `next_eligible_date` of `code` in the tree, the later of its own and its ancestors' (an
 * item is part of its parent); undefined when the plan does not list the benefit.
 */
function statedDate(
  items: readonly DatedItemJson[] | null | undefined,
  code: string,
  above: string | null = null,
): string | null | undefined {
  for (const item of items ?? []) {
    const own = typeof item.next_eligible_date === 'string' ? item.next_eligible_date : null;
    const date = above && (!own || above > own) ? above : own;
    if (item.benefit_code === code) return date;
    if (code.startsWith(`${item.benefit_code}.`)) return statedDate(item.items, code, date);
  }
  return undefined;
}

/**
 * Whether frames, spectacle lenses and contact lenses can be had on `day` (docs/api.md, Next
 * eligible dates): the `next_eligible` date of the plan's item (`nextEligible`, the
 * estimates' reading of the tree, a parent's date counting for its children), else its
 * `next_eligible_date`; a date after `day` makes the benefit unavailable until then. A benefit
 * the plan does not list, or whose date is not known, is available: the list prices it.
 */
export function availabilityOn(
  items: readonly DatedItemJson[],
  nextEligible: ReadonlyMap<string, string | null>,
  day: string,
): QuoteAvailability {
  const one = (code: string): BenefitAvailability => {
    const date = nextEligible.has(code) ? nextEligible.get(code) : statedDate(items, code);
    return date && date > day
      ? { available: false, until: date }
      : { available: true, until: null };
  };
  return {
    frames: one(QUOTE_BENEFITS.frames),
    spectacle_lenses: one(QUOTE_BENEFITS.spectacle_lenses),
    contact_lenses: one(QUOTE_BENEFITS.contact_lenses),
  };
}

/** Whole years from `dob` to `day` (both YYYY-MM-DD); null when `dob` is not a date. */
export function ageOn(dob: string | null | undefined, day: string): number | null {
  if (!dob || !/^\d{4}-\d{2}-\d{2}$/.test(dob)) return null;
  const years = Number(day.slice(0, 4)) - Number(dob.slice(0, 4));
  const age = day.slice(5) < dob.slice(5) ? years - 1 : years;
  return age < 0 ? null : age;
}
