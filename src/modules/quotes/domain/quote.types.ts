import type {
  ContactLensKind,
  FittingKind,
  InLieuSide,
  LensOption,
  LensType,
  MaterialsList,
} from '@/lib/benefits';

/** Whether a benefit can be had on the quote's day, and when it can again (the caller's next eligible dates, docs/api.md). */
export interface BenefitAvailability {
  available: boolean;
  /** The day it is available again; null when not known. */
  until: string | null;
}

/** Frame follows `frames`, lenses and their options `spectacle_lenses`, contacts and fitting `contact_lenses`. */
export interface QuoteAvailability {
  frames: BenefitAvailability;
  spectacle_lenses: BenefitAvailability;
  contact_lenses: BenefitAvailability;
}

/** What the patient orders, each with its retail (a decimal string, at most four decimals). */
export interface QuoteOrder {
  frame?: { retail: string } | null;
  lenses?: { type: LensType; tier?: string | number | null; retail: string } | null;
  lens_options?: readonly { option: LensOption; retail: string }[] | null;
  contact_lenses?: { kind: ContactLensKind; retail: string } | null;
  fitting?: { kind: FittingKind; retail: string } | null;
  /** The side of an `in_lieu_of` pair the plan covers when the order holds both. */
  in_lieu_keep?: InLieuSide | null;
}

export interface QuoteInput {
  materials: MaterialsList;
  order: QuoteOrder;
  /** Whole years on the day of service; null when not known (a `max_age` rule is then not estimable). */
  patientAge: number | null;
  availability: QuoteAvailability;
}

export interface QuoteLine {
  /** `frame`, `lenses`, the option's name, `contact_lenses`, `fitting`. */
  item: string;
  code: string | null;
  retail: string;
  plan_covers: string;
  patient_pays: string;
  /** Which step applied, with its figures, for the front desk. */
  reason: string;
}

export interface NotEstimableLine {
  item: string;
  retail: string;
  reason: string;
}

export interface PricedOrder {
  lines: QuoteLine[];
  /** Sums of `lines` (not estimable lines stay out). */
  retail: string;
  plan_covers: string;
  patient_pays: string;
  not_estimable: NotEstimableLine[];
  notes: string[];
}

/** How one line of the order comes out: priced, or not estimable and why. */
export type Outcome =
  { kind: 'line'; pays: bigint; reason: string } | { kind: 'unknown'; reason: string };

/** An ordered item, with its pricing when its side is covered. */
export interface Item {
  item: string;
  side: InLieuSide;
  /** The item that holds its side (frame, lenses, contact lenses), not one that follows it. */
  principal: boolean;
  retail: bigint;
  code: string | null;
  /** Its pricing when its side is covered: follows, availability, then the list's rule. */
  kept: Outcome;
}
