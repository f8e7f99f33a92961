import type { MaterialsList, MaterialsSource } from './materials.types';
import type { Frequency, LastService, NextEligible } from './next-eligible.types';

/**
 * The V2 benefit model (docs/api.md, V1 and V2 results). Internally, doubles are exact
 * decimal strings ("12.5"), integers are numbers and booleans booleans; the serializer prints
 * doubles with four decimals.
 */

export const BENEFIT_FLAGS = [
  'inn',
  'oon',
  'exclusive-use',
  'required',
  'requires-parent-use',
  // docs/api.md, Real insurers: EB01 `I`, a benefit the plan names and does not cover.
  'not_covered',
] as const;
export type BenefitFlag = (typeof BENEFIT_FLAGS)[number];
export type Network = 'inn' | 'oon';

/** One entry of a flag-based list: applies when its flags match; no flags = always applies. */
export interface FlagEntry<T> {
  flags?: BenefitFlag[];
  comment?: string;
  value: T;
}

export type DoubleList = FlagEntry<string>[];
type IntegerList = FlagEntry<number>[];
type BooleanList = FlagEntry<boolean>[];

export const DOUBLE_LISTS = [
  'copayment',
  'coinsurance',
  'allowance',
  'allowance_accepted',
  'allowance_reserved',
  'discount',
  'margin_limit',
  // docs/api.md, Real insurers (V2 addition): EB01 `C`.
  'deductible',
] as const;
export const INTEGER_LISTS = ['quantity', 'quantity_accepted', 'quantity_reserved'] as const;
export const BOOLEAN_LISTS = ['is_authorization_required'] as const;

export type DoubleListName = (typeof DOUBLE_LISTS)[number];
export type IntegerListName = (typeof INTEGER_LISTS)[number];
export type BooleanListName = (typeof BOOLEAN_LISTS)[number];
export type ListName = DoubleListName | IntegerListName | BooleanListName;

type BenefitLists = Partial<Record<DoubleListName, DoubleList>> &
  Partial<Record<IntegerListName, IntegerList>> &
  Partial<Record<BooleanListName, BooleanList>>;

export interface BenefitItem extends BenefitLists {
  benefit_code: string;
  refresh_date: string;
  end_date?: string;
  flags?: BenefitFlag[];
  comment?: string;
  items?: BenefitItem[];
  /**
   * docs/api.md, Next eligible dates: how often the plan allows the benefit (an HSD, a verifier's
   * answer, the sandbox's plan). Absent when the plan does not say.
   */
  frequency?: Frequency;
  /** The latest service on record and where it comes from; `last_service_date` is its date. */
  last_service?: LastService;
  /** When the benefit can be had again, on what basis, and why; `next_eligible_date` is its date. */
  next_eligible?: NextEligible;
  /** `last_service.date`, as results have always carried it. */
  last_service_date?: string;
  /** `next_eligible.date` when it has one, as results have always carried it. */
  next_eligible_date?: string;
  /**
   * Internal, never printed: what the plan's source states of the item's dates (DTP 304 and 348,
   * a verifier's answer, the sandbox), kept apart from the dates computed from them so that
   * applyNextEligible can compute them again with a longer history.
   */
  stated?: StatedDates;
}

/** What a plan's source states of one item's dates (see `BenefitItem.stated`). */
export interface StatedDates {
  /** A service on record: DTP 304 (source `payer`), a verifier's answer (as given). */
  last_service?: LastService;
  /** A date the payer states the benefit is available from: DTP 348, a verifier's answer. */
  next_eligible_date?: string;
}

/** docs/api.md, Real insurers: vision administered by another company (EB01 `U` with its 2120 loop). */
export interface CarveOut {
  name: string;
  payer_id: string | null;
  phone: string | null;
}

/** docs/api.md, Real insurers: another payer the 271 names (EB01 `R`). */
export interface OtherPayer {
  name: string;
  payer_id: string | null;
  member_id: string | null;
}

export type InsurerState = Network;

export interface Plan
  extends
    Partial<Record<DoubleListName, DoubleList>>,
    Partial<Record<BooleanListName, BooleanList>> {
  insurer_state: InsurerState;
  items: BenefitItem[];
  refresh_date: string | null;
  begin_date: string | null;
  end_date: string | null;
  flags: string[];
  comment?: string;
  carve_out?: CarveOut;
  other_payers?: OtherPayer[];
  /** docs/api.md, The counter: the materials price list; null (or absent) when unknown. */
  materials?: MaterialsList | null;
  /** Where `materials` comes from; null when there is none. */
  materials_source?: MaterialsSource | null;
}

/**
 * The head of a plan, alike in each of its forms (internal, JSON, answer): its items mapped, the
 * unset dates null, no flags an empty list.
 */
export function planHead<I, O>(
  plan: {
    insurer_state: InsurerState;
    items: I[];
    refresh_date?: string | null;
    begin_date?: string | null;
    end_date?: string | null;
    flags?: string[] | null;
  },
  item: (json: I) => O,
) {
  return {
    insurer_state: plan.insurer_state,
    items: plan.items.map((i) => item(i)),
    refresh_date: plan.refresh_date ?? null,
    begin_date: plan.begin_date ?? null,
    end_date: plan.end_date ?? null,
    flags: plan.flags ?? [],
  };
}
