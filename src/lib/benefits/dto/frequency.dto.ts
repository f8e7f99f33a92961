import {
  DateField,
  IntField,
  NestedField,
  StringField,
  StringListField,
} from '@/platform/http/validation/fields';
import { ValidateBy, type ValidationArguments } from 'class-validator';
import {
  NEXT_ELIGIBLE_BASES,
  type NextEligibleBasis,
  PERIOD_KINDS,
  type PeriodKind,
  SERVICE_SOURCES,
  type ServiceSource,
} from '../next-eligible.types';

/**
 * A frequency rule and the dates of a benefit (docs/api.md, Next eligible dates): the request
 * objects of POST /api/auth/v1/benefits/next-eligible/ and of a plan's items (an inline estimate
 * plan, a verifier's answer), alike.
 */

/** The bounds of a frequency (docs/api.md, Next eligible dates). */
export const FREQUENCY_LIMITS = {
  sharedWith: 10,
  count: 99,
  /** Twenty years: no plan counts further. */
  months: 240,
} as const;

/** As plan items name benefits (docs/api.md, V1 and V2 results). */
export const BENEFIT_CODE = /^[A-Za-z0-9_.-]+$/;
export const BENEFIT_CODE_MESSAGE = 'Letters, digits, dots, hyphens and underscores only.';

export class FrequencyPeriodDto {
  @StringField({
    required: true,
    choices: PERIOD_KINDS,
    example: 'rolling',
    description:
      '`rolling` (counted from the last service), `calendar_year` (resets on 1 January) or ' +
      "`plan_year` (resets on the anniversary of the plan's begin date, which is then required).",
  })
  kind: PeriodKind;

  @IntField({
    min: 1,
    max: FREQUENCY_LIMITS.months,
    example: 24,
    description:
      'Rolling: the length in months (required). Calendar and plan years: whole years in months ' +
      '(12, 24, …; 12 when absent), counted from the start of the year of a service.',
  })
  months?: number | null;
}

const countField = () =>
  IntField({
    required: true,
    min: 1,
    max: FREQUENCY_LIMITS.count,
    example: 1,
    description: 'How many services the period allows.',
  });

const sharedWithField = () =>
  StringListField({
    maxItems: FREQUENCY_LIMITS.sharedWith,
    itemMaxLength: 128,
    itemPattern: BENEFIT_CODE,
    itemPatternMessage: BENEFIT_CODE_MESSAGE,
    unique: true,
    example: ['materials.contact_lenses'],
    description:
      'Benefits whose services count against this one and the other way round (contact lenses ' +
      'in lieu of frames).',
  });

/** The frequency of a next-eligible rule (its cross-field rules are the route's). */
export class FrequencyDto {
  @countField()
  count: number;

  @NestedField(() => FrequencyPeriodDto, { required: true })
  period: FrequencyPeriodDto;

  @sharedWithField()
  shared_with?: string[] | null;
}

export const FREQUENCY_WORDS = {
  monthsRequired: 'A rolling period needs its length in months.',
  wholeYears: 'Calendar-year and plan-year periods last whole years: 12, 24, 36, … months.',
  lastServiceDate: 'Must equal last_service.date.',
  nextEligibleDate: 'Must equal next_eligible.date.',
  basisDate: 'A date goes with basis payer_stated or computed, none with unknown.',
};

/**
 * The period rules that span its two fields, for a plan item's `frequency` (the next-eligible
 * route reports them under `months` with its other cross-field rules).
 */
function periodError(period: unknown): string | null {
  if (typeof period !== 'object' || period === null) return null;
  const { kind, months } = period as { kind?: unknown; months?: unknown };
  if (kind === 'rolling' && (months === undefined || months === null))
    return FREQUENCY_WORDS.monthsRequired;
  if ((kind === 'calendar_year' || kind === 'plan_year') && typeof months === 'number')
    return months % 12 === 0 ? null : FREQUENCY_WORDS.wholeYears;
  return null;
}

/**
 * A rule of a field that reads the object holding it too (class-validator hands it over): the
 * message when the value breaks it, null when it holds.
 */
export const crossRule = (name: string, check: (value: unknown, object: object) => string | null) =>
  ValidateBy({
    name,
    validator: {
      validate: (value: unknown, args?: ValidationArguments) =>
        check(value, args?.object ?? {}) === null,
      defaultMessage: (args?: ValidationArguments) => check(args?.value, args?.object ?? {}) ?? '',
    },
  });

/** A plan item's frequency: the rule's fields, and its period's cross-field rules. */
export class PlanFrequencyDto {
  @countField()
  count: number;

  @NestedField(() => FrequencyPeriodDto, { required: true })
  @crossRule('period', (period) => periodError(period))
  period: FrequencyPeriodDto;

  @sharedWithField()
  shared_with?: string[] | null;
}

export class LastServiceDto {
  @DateField({ required: true, example: '2025-03-10', description: 'The date of service.' })
  date: string;

  @StringField({
    required: true,
    choices: SERVICE_SOURCES,
    example: 'payer',
    description: 'Where the date comes from: `payer`, `claim`, `remittance` or `staff`.',
  })
  source: ServiceSource;
}

export class NextEligibleDto {
  @DateField({
    example: '2027-03-10',
    description: 'When the benefit can be had again; null when it cannot be said.',
  })
  date?: string | null;

  @StringField({
    required: true,
    choices: NEXT_ELIGIBLE_BASES,
    example: 'payer_stated',
    description:
      '`payer_stated` (a date the payer states: it is kept as the payer states it), `computed` ' +
      '(computed again when a search finishes) or `unknown`.',
  })
  @crossRule('basisDate', (basis, o) => {
    const date = (o as { date?: unknown }).date;
    if (!NEXT_ELIGIBLE_BASES.includes(basis as NextEligibleBasis)) return null;
    return (basis === 'unknown') === (date === null || date === undefined)
      ? null
      : FREQUENCY_WORDS.basisDate;
  })
  basis: NextEligibleBasis;

  @StringListField({
    maxItems: 20,
    itemMaxLength: 1000,
    example: ['The payer states it is available from 2027-03-10.'],
    description: 'Plain sentences a person can check the date with.',
  })
  explanation?: string[] | null;
}
