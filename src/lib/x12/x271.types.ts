import type {
  DatePeriod,
  Demographics,
  Nm1,
  PostalAddress,
  Reference,
  RequestValidation,
  Trace,
} from './x12.elements';
import type { IsaHeader } from './x12.envelope';

/** EB: one benefit statement (005010X279A1 2110C/2110D). */
export interface EligibilityBenefit {
  /** EB01: `1`–`8` coverage status, `A` coinsurance, `B` copayment, `F` limitation, ... */
  info: string;
  /** EB02: `IND`, `FAM`, ... */
  coverageLevel: string;
  /** EB03, repeatable: `30`, `AL`, `AN`, ... */
  serviceTypes: string[];
  insuranceType: string;
  /** EB05: the plan's description (its name). */
  planDescription: string;
  /** EB06: `22` service year, `23` calendar year, `27` visit, `29` remaining, ... */
  timePeriod: string;
  /** EB07, an amount; EB08 a fraction (`0.2` = 20 %). */
  amount: string | null;
  percent: string | null;
  /** EB09 / EB10. */
  quantityQualifier: string;
  quantity: string | null;
  /** EB11 and EB12: `Y`, `N`, `U` / `W`, or ''. */
  authorizationRequired: string;
  inPlanNetwork: string;
  /** EB13: the procedure (`HC:V2020`). */
  procedure: { qualifier: string; code: string; modifiers: string[] } | null;
}

/** HSD: how often a benefit may be used (quantity per period). */
export interface DeliveryPattern {
  /** HSD01 / HSD02: `VS` visits, `FL` units, ... and how many. */
  quantityQualifier: string;
  quantity: string | null;
  /** HSD05 / HSD06: `34` months, `21` years, `23` calendar year, ... and how many of them. */
  periodQualifier: string;
  periodCount: string | null;
  /** HSD07 / HSD08. */
  frequency: string;
  pattern: string;
}

/** 2120: an entity related to a benefit (its provider, another payer), inside LS/LE. */
export interface RelatedEntity {
  name: Nm1;
  address: PostalAddress | null;
  /** The first telephone number of its PER (`TE`), as sent. */
  phone: string | null;
}

/** 2110C/D: an EB and what qualifies it. */
export interface BenefitLoop {
  eb: EligibilityBenefit;
  deliveries: DeliveryPattern[];
  references: Reference[];
  dates: DatePeriod[];
  validations: RequestValidation[];
  /** MSG01 texts. */
  messages: string[];
  related: RelatedEntity[];
}

/** 2100C/D: the person the payer found (or the validation errors about them). */
export interface MemberName {
  name: Nm1;
  references: Reference[];
  address: PostalAddress | null;
  demographics: Demographics | null;
  /** INS01 `Y`/`N` and INS02 relationship (`18` self, `01` spouse, `19` child, ...). */
  relationship: { subscriber: boolean; code: string } | null;
  dates: DatePeriod[];
  validations: RequestValidation[];
}

export interface DependentLoop {
  traces: Trace[];
  member: MemberName;
  benefits: BenefitLoop[];
}

export interface SubscriberLoop {
  traces: Trace[];
  member: MemberName;
  benefits: BenefitLoop[];
  dependents: DependentLoop[];
}

export interface ReceiverLoop {
  name: Nm1;
  references: Reference[];
  validations: RequestValidation[];
  subscribers: SubscriberLoop[];
}

export interface SourceLoop {
  name: Nm1;
  /** AAA of 2000A and 2100A together (each tagged with its loop). */
  validations: RequestValidation[];
  receivers: ReceiverLoop[];
}

export interface EligibilityResponse {
  controlNumber: string;
  /** BHT03 (the reference the 270 sent) and BHT04 as `YYYY-MM-DD`. */
  reference: string;
  date: string | null;
  sources: SourceLoop[];
  /** 2110 loops that did not read and were left out (docs/api.md, Real insurers), in words. */
  skipped: string[];
}

export interface Interchange271 {
  isa: IsaHeader;
  responses: EligibilityResponse[];
  /** Envelope slips read past (docs/api.md, Real insurers), in words, for the exchange log. */
  slips: string[];
  /** Benefit loops left out because they did not read, in words, for the exchange log. */
  skipped: string[];
}
