/**
 * The V2 benefit model of SERVICE-SPEC.md ("Plan", "Benefit item"). Internally, doubles are exact
 * decimal strings ("12.5"), integers are numbers and booleans booleans; the serializer prints
 * doubles with four decimals.
 */

export const BENEFIT_FLAGS = [
  'inn',
  'oon',
  'exclusive-use',
  'required',
  'requires-parent-use',
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
export type IntegerList = FlagEntry<number>[];
export type BooleanList = FlagEntry<boolean>[];

export const DOUBLE_LISTS = [
  'copayment',
  'coinsurance',
  'allowance',
  'allowance_accepted',
  'allowance_reserved',
  'discount',
  'margin_limit',
] as const;
export const INTEGER_LISTS = ['quantity', 'quantity_accepted', 'quantity_reserved'] as const;
export const BOOLEAN_LISTS = ['is_authorization_required'] as const;

export type DoubleListName = (typeof DOUBLE_LISTS)[number];
export type IntegerListName = (typeof INTEGER_LISTS)[number];
export type BooleanListName = (typeof BOOLEAN_LISTS)[number];
export type ListName = DoubleListName | IntegerListName | BooleanListName;

export type BenefitLists = Partial<Record<DoubleListName, DoubleList>> &
  Partial<Record<IntegerListName, IntegerList>> &
  Partial<Record<BooleanListName, BooleanList>>;

export interface BenefitItem extends BenefitLists {
  benefit_code: string;
  refresh_date: string;
  end_date?: string;
  flags?: BenefitFlag[];
  comment?: string;
  items?: BenefitItem[];
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
}
