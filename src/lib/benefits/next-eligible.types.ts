/**
 * The inputs and answer of the next-eligible computation (docs/api.md, Next eligible dates): a
 * benefit's frequency rule, the services on record, the plan's term; per benefit, when it can be
 * had again, on what basis, and why.
 */

export const PERIOD_KINDS = ['rolling', 'calendar_year', 'plan_year'] as const;
export type PeriodKind = (typeof PERIOD_KINDS)[number];

/** Where a service on record comes from (docs/api.md, Next eligible dates: sources). */
export const SERVICE_SOURCES = ['payer', 'claim', 'remittance', 'staff'] as const;
export type ServiceSource = (typeof SERVICE_SOURCES)[number];

export const NEXT_ELIGIBLE_BASES = ['payer_stated', 'computed', 'unknown'] as const;
export type NextEligibleBasis = (typeof NEXT_ELIGIBLE_BASES)[number];

export interface FrequencyPeriod {
  kind: PeriodKind;
  /** Rolling: required. Calendar and plan years: whole years (12, 24, …), 12 when absent. */
  months?: number | null;
}

/** `count` services per period; services of `shared_with` benefits count against it too. */
export interface Frequency {
  count: number;
  period: FrequencyPeriod;
  shared_with?: readonly string[] | null;
}

export interface FrequencyRule {
  benefit_code: string;
  /** None: only a payer-stated date can answer. */
  frequency?: Frequency | null;
  /** A date the payer states (DTP 348, a verifier's answer): it wins over a computed one. */
  payer_next_eligible_date?: string | null;
}

export interface ServiceRecord {
  benefit_code: string;
  date: string;
  /** `staff` when not said. */
  source?: ServiceSource | null;
}

export interface PlanTerm {
  begin_date?: string | null;
  end_date?: string | null;
}

export interface NextEligibleInput {
  /** The day the question is asked: a computed date is never before it. */
  as_of: string;
  rules: readonly FrequencyRule[];
  history: readonly ServiceRecord[];
  plan?: PlanTerm | null;
}

export interface NextEligible {
  date: string | null;
  basis: NextEligibleBasis;
  /** Plain sentences a person can check the date with; benefit words and dates, no patient data. */
  explanation: string[];
}

export interface LastService {
  date: string;
  source: ServiceSource;
}

/** One benefit's answer, with what `availableOn` needs to answer for a later day. */
export interface BenefitEligibility {
  benefit_code: string;
  next_eligible: NextEligible;
  /** The latest service of the benefit itself (or a benefit under it); shared ones aside. */
  last_service: LastService | null;
  as_of: string;
  plan_end_date: string | null;
}
