/**
 * The door of the x12 module: what other modules use of it. Another module imports from
 * '@/lib/x12' only (lint refuses otherwise; docs/architecture.md, Module graph).
 */
export { readClaimReport } from './claim-report.reader';
export type { ClaimReport } from './claim-report.reader';
export { CLAIM_STATUS_CATEGORIES, CLAIM_STATUS_CODES, describeCode } from './codes';
export { controlNumbers } from './x12.control-numbers';
export type { ControlNumbers } from './x12.control-numbers';
export type { DatePeriod, RequestValidation } from './x12.elements';
export { X12ParseError, X12WriteError } from './x12.errors';
export { prettyX12 } from './x12.pretty';
export { withoutAccents } from './x12.text';
export { EligibilityInquiry, write270 } from './x270.writer';
export type { EnvelopeSettings } from './x270.writer';
export { read271 } from './x271.reader';
export type {
  BenefitLoop,
  DeliveryPattern,
  DependentLoop,
  EligibilityBenefit,
  Interchange271,
  MemberName,
  SubscriberLoop,
} from './x271.types';
export { write276 } from './x276.writer';
export type { ClaimStatusInquiry } from './x276.writer';
export { read277 } from './x277.reader';
export type { ClaimStatusLine } from './x277.reader';
export { describeStatus } from './x277ca.reader';
export type { ClaimAcknowledgment } from './x277ca.reader';
export type { ProviderAdjustment, Remittance, RemittanceClaim } from './x835.reader';
export { providerAdjustmentOwner, split835 } from './x835.split';
export { procedureComposite } from './x837.parts';
export {
  ProfessionalClaim,
  X837Address,
  X837IndividualProvider,
  X837Person,
  relationshipCode,
  write837,
} from './x837.writer';
export { describeSegmentError, isRejection } from './x999.reader';
export type { InterchangeAcknowledgment, SetAcknowledgment } from './x999.reader';
