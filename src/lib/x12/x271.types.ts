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
import type { readEb, readHsd } from './x271.reader';

export type EligibilityBenefit = ReturnType<typeof readEb>;
export type DeliveryPattern = ReturnType<typeof readHsd>;

/** 2120: an entity related to a benefit (its provider, another payer), inside LS/LE. */
interface RelatedEntity {
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

export interface SubscriberLoop extends DependentLoop {
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
