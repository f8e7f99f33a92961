/**
 * A plan's materials price list, in network (docs/api.md, The counter): what the patient pays
 * for a frame, lenses, lens options, contact lenses and their fitting. Money is a decimal string
 * (docs/api.md, Conventions); a key absent from a rule is not stated, and what the list does not
 * state is never guessed.
 */
import type { Network } from './benefit.types';

/** The lens types a list may price; a type may state `tiers` of rules instead of one rule. */
export const LENS_TYPES = [
  'single_vision',
  'lined_bifocal',
  'lined_trifocal',
  'progressive_standard',
  'progressive_premium',
  'progressive_ultra',
] as const;
export type LensType = (typeof LENS_TYPES)[number];

export const LENS_OPTIONS = [
  'anti_reflective_standard',
  'anti_reflective_premium',
  'anti_reflective_ultra',
  'polycarbonate',
  'high_index',
  'photochromic',
  'polarized',
  'tint',
  'uv',
  'scratch_coating',
] as const;
export type LensOption = (typeof LENS_OPTIONS)[number];

/** What an order's contact lenses are (`contact_lenses.kind`). */
export const CONTACT_LENS_KINDS = ['elective', 'medically_necessary'] as const;
export type ContactLensKind = (typeof CONTACT_LENS_KINDS)[number];

/** What an order's fitting is (`fitting.kind`); it is priced by `fitting_<kind>`. */
export const FITTING_KINDS = ['standard', 'premium'] as const;
export type FittingKind = (typeof FITTING_KINDS)[number];

/** The entries of `contact_lenses`: one per lens kind, one per fitting kind. */
export const CONTACT_LENS_ENTRIES = [
  ...CONTACT_LENS_KINDS,
  ...FITTING_KINDS.map((kind) => `fitting_${kind}` as const),
] as const;
export type ContactLensEntry = ContactLensKind | `fitting_${FittingKind}`;

/** The sides an `in_lieu_of` pair names: the plan covers one side of a pair, not both. */
export const IN_LIEU_SIDES = ['contact_lenses', 'frame', 'lenses'] as const;
export type InLieuSide = (typeof IN_LIEU_SIDES)[number];
export type InLieuPair = readonly [InLieuSide, InLieuSide];

/** Where the discount of a rule applies: on what is over the copayment and allowance (default), or on the retail. */
export const DISCOUNT_ON = ['overage', 'retail'] as const;
export type DiscountOn = (typeof DISCOUNT_ON)[number];

/** One price rule (docs/api.md, The counter: the one rule that prices every line). */
export interface MaterialsRule {
  copayment?: string;
  allowance?: string;
  /** A percent, "20" for 20 %. */
  discount_percent?: string;
  discount_on?: DiscountOn;
  /** A fixed price: the patient pays it (the retail when the retail is lower). */
  price?: string;
  /** Covered in full for a patient of at most this age. */
  max_age?: number;
  /** The procedure code of the line (V2750), shown on the quote. */
  code?: string;
}

/** A lens type priced by tier ("1", "2", …): the order's `tier` picks the rule. */
export interface TieredMaterialsRule {
  tiers: Readonly<Record<string, MaterialsRule>>;
}

export type LensEntry = MaterialsRule | TieredMaterialsRule;

export interface MaterialsList {
  network: Network;
  frame?: MaterialsRule;
  lenses?: Partial<Readonly<Record<LensType, LensEntry>>>;
  lens_options?: Partial<Readonly<Record<LensOption, MaterialsRule>>>;
  contact_lenses?: Partial<Readonly<Record<ContactLensEntry, MaterialsRule>>>;
  in_lieu_of?: readonly InLieuPair[];
}

/** Where a plan's list comes from (an answer without its own list takes its plan design's). */
export const MATERIALS_SOURCES = ['payer', 'verifier', 'plan_design'] as const;
export type MaterialsSource = (typeof MATERIALS_SOURCES)[number];

export function isTiered(entry: LensEntry): entry is TieredMaterialsRule {
  const tiers = (entry as Partial<TieredMaterialsRule> | null)?.tiers;
  return typeof tiers === 'object' && tiers !== null;
}
