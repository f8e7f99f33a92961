/**
 * The door of the benefits module: what other modules use of it. Another module imports from
 * '@/lib/benefits' only (lint refuses otherwise; docs/architecture.md, Module graph).
 */
export { EffectiveBenefit, evaluatePlan, itemApplies } from './benefit.evaluator';
export { materials as printedMaterials, serializePlanJson } from './benefit.serializer';
export { benefitRows, label as benefitLabel, planNotes } from './benefit-table';
export { BENEFIT_FLAGS, BenefitFlag, BenefitItem, FlagEntry, Plan } from './benefit.types';
export type {
  BooleanListName,
  CarveOut,
  DoubleList,
  DoubleListName,
  IntegerListName,
  Network,
  OtherPayer,
} from './benefit.types';
export { EstimatePlanDto, PersonIdField, PlanBenefitItemDto } from './dto/plan.dto';
export {
  BENEFIT_CODE,
  BENEFIT_CODE_MESSAGE,
  FREQUENCY_LIMITS,
  FrequencyDto,
} from './dto/frequency.dto';
export { BenefitFrequencyDoc, LastServiceDoc, NextEligibleDoc } from './dto/frequency.response';
export { MaterialsDoc } from './dto/materials.response';
export { ProcedureCodesField } from './dto/procedure-codes.field';
export { planFromJson } from './plan-input';
export type { PlanJson } from './plan-input';
export {
  benefitCodeForProcedure,
  benefitCodeForServiceType,
  isPlanLevelServiceType,
  serviceCodeForBenefit,
} from './service-codes';
export type { BenefitServiceCode } from './service-codes';
export { addMonths, compareDates } from './calendar';
export { HISTORY_BENEFIT_CODES, historyBenefitOfCodes } from './history-codes';
export type { HistoryBenefitCode } from './history-codes';
export { nextEligible } from './next-eligible';
export { applyNextEligible, hasFrequency } from './plan-eligibility';
export { NEXT_ELIGIBLE_BASES, SERVICE_SOURCES } from './next-eligible.types';
export type {
  BenefitEligibility,
  Frequency,
  LastService,
  NextEligible,
  NextEligibleBasis,
  ServiceRecord,
  ServiceSource,
} from './next-eligible.types';
export {
  CONTACT_LENS_ENTRIES,
  CONTACT_LENS_KINDS,
  DISCOUNT_ON,
  FITTING_KINDS,
  IN_LIEU_SIDES,
  LENS_OPTIONS,
  LENS_TYPES,
  MATERIALS_SOURCES,
  isTiered,
  type ContactLensEntry,
  type ContactLensKind,
  type DiscountOn,
  type FittingKind,
  type InLieuPair,
  type InLieuSide,
  type LensEntry,
  type LensOption,
  type LensType,
  type MaterialsList,
  type MaterialsRule,
  type MaterialsSource,
  type TieredMaterialsRule,
} from './materials.types';
