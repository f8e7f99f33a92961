/**
 * A plan's materials price list (docs/api.md, The counter): what the patient pays, in network,
 * for a frame, lenses by type, lens options and contact lenses. Money and percentages are exact
 * decimal strings; an absent key is not stated.
 */

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

export const CONTACT_LENS_ENTRIES = [
  'elective',
  'medically_necessary',
  'fitting_standard',
  'fitting_premium',
] as const;
export type ContactLensEntry = (typeof CONTACT_LENS_ENTRIES)[number];

/** The sides of an order that may stand in lieu of one another. */
export const MATERIAL_SIDES = ['contact_lenses', 'frame', 'lenses'] as const;
export type MaterialSide = (typeof MATERIAL_SIDES)[number];

export const MATERIALS_SOURCES = ['payer', 'verifier', 'plan_design'] as const;
export type MaterialsSource = (typeof MATERIALS_SOURCES)[number];

/** One entry of the list: every key optional. */
export interface MaterialsRule {
  copayment?: string;
  allowance?: string;
  discount_percent?: string;
  discount_on?: 'overage' | 'retail';
  price?: string;
  max_age?: number;
  code?: string;
}

/** A lens type: one rule, or rules by tier ("1", "2", …). */
export interface LensRule extends MaterialsRule {
  tiers?: Record<string, MaterialsRule>;
}

export interface MaterialsList {
  network: 'inn';
  frame?: MaterialsRule;
  lenses?: Partial<Record<LensType, LensRule>>;
  lens_options?: Partial<Record<LensOption, MaterialsRule>>;
  contact_lenses?: Partial<Record<ContactLensEntry, MaterialsRule>>;
  in_lieu_of?: [MaterialSide, MaterialSide][];
}
