import {
  BoolField,
  DateField,
  DecimalField,
  IntField,
  NestedField,
  NestedListField,
  StringField,
  StringListField,
} from '@/platform/http/validation/fields';
import { BENEFIT_FLAGS } from '../benefit.types';
import {
  crossRule,
  FREQUENCY_WORDS,
  LastServiceDto,
  NextEligibleDto,
  PlanFrequencyDto,
} from './frequency.dto';
import { atMostHundred, MaterialsDto } from './materials.dto';

/** The `person_id` beside a `request_uid`, of an estimate's and a quote's request alike. */
export const PersonIdField = () =>
  IntField({
    min: 1,
    acceptString: true,
    example: 97,
    description: "The person's `id` in the result of `request_uid`.",
  });

/**
 * An inline V2 plan (docs/api.md, V1 and V2 results) exactly as an eligibility result returns
 * it: doubles as decimal strings (numbers accepted too), integers, booleans, flag-based lists.
 * Checked strictly so a malformed plan is a 400 with the path of each problem
 * (`errors.plan.items.0.allowance.1.value.$`), never a 500. Bounds keep one request small: the
 * body caps of the HTTP pipeline (values, depth) bound the whole tree as well.
 */

const MAX_ENTRIES = 10;
const MAX_CHILDREN = 100;

const flagList = () =>
  StringListField({
    maxItems: BENEFIT_FLAGS.length,
    itemMaxLength: 32,
    choices: BENEFIT_FLAGS,
    example: ['oon'],
    description: 'Applies only when these flags match; absent = always applies.',
  });

class PlanEntryBase {
  @flagList()
  flags?: string[] | null;

  @StringField({ maxLength: 1000, allowBlank: true, example: 'reimbursed up to this amount' })
  comment?: string | null;
}

export class PlanDoubleEntryDto extends PlanEntryBase {
  @DecimalField({ required: true, example: '45.0000', description: 'A double (money or rate).' })
  value: string;
}

export class PlanPercentEntryDto extends PlanEntryBase {
  @DecimalField({ required: true, example: '20.0000', description: 'A percentage, 0–100.' })
  @atMostHundred()
  value: string;
}

export class PlanIntegerEntryDto extends PlanEntryBase {
  @IntField({ required: true, min: 0, max: 1_000_000, example: 1 })
  value: number;
}

export class PlanBooleanEntryDto extends PlanEntryBase {
  @BoolField({ required: true, example: true })
  value: boolean;
}

const doubles = (description: string) =>
  NestedListField(() => PlanDoubleEntryDto, { maxItems: MAX_ENTRIES, description });
const integers = (description: string) =>
  NestedListField(() => PlanIntegerEntryDto, { maxItems: MAX_ENTRIES, description });
const percents = (description: string) =>
  NestedListField(() => PlanPercentEntryDto, { maxItems: MAX_ENTRIES, description });
const booleans = () =>
  NestedListField(() => PlanBooleanEntryDto, {
    maxItems: MAX_ENTRIES,
    description: 'Whether authorisation is required.',
  });

/** The lists a plan and an item share. */
class PlanLists {
  @doubles('Fixed amount the member pays.') copayment?: PlanDoubleEntryDto[] | null;
  @percents('Percentage the member pays.') coinsurance?: PlanPercentEntryDto[] | null;
  @doubles('Amount the plan pays up to.') allowance?: PlanDoubleEntryDto[] | null;
  @doubles('Allowance already used.') allowance_accepted?: PlanDoubleEntryDto[] | null;
  @doubles('Allowance reserved by pending claims.') allowance_reserved?:
    PlanDoubleEntryDto[] | null;
  @doubles('Discount as a fraction.') discount?: PlanDoubleEntryDto[] | null;
  @doubles('Margin limit.') margin_limit?: PlanDoubleEntryDto[] | null;
  @doubles('Deductible.') deductible?: PlanDoubleEntryDto[] | null;
  @booleans() is_authorization_required?: PlanBooleanEntryDto[] | null;
}

export class PlanBenefitItemDto extends PlanLists {
  @StringField({
    required: true,
    maxLength: 128,
    pattern: /^[A-Za-z0-9_.-]+$/,
    patternMessage: 'Letters, digits, dots, hyphens and underscores only.',
    example: 'materials.frames',
  })
  benefit_code: string;

  @DateField({ required: true, example: '2027-01-01' })
  refresh_date: string;

  @DateField({ example: '2026-12-31' })
  end_date?: string | null;

  @DateField({
    example: '2025-06-12',
    description: 'When the benefit was last used (`last_service.date` when both are given).',
  })
  @crossRule('lastServiceDate', (date, item) => {
    const given = (item as PlanBenefitItemDto).last_service?.date;
    return typeof given === 'string' && given !== date ? FREQUENCY_WORDS.lastServiceDate : null;
  })
  last_service_date?: string | null;

  @DateField({
    example: '2026-06-12',
    description:
      'When the benefit can be used again: before it, the estimate pays nothing ' +
      '(`next_eligible.date` when both are given).',
  })
  @crossRule('nextEligibleDate', (date, item) => {
    const given = (item as PlanBenefitItemDto).next_eligible;
    return given && typeof given === 'object' && (given.date ?? null) !== date
      ? FREQUENCY_WORDS.nextEligibleDate
      : null;
  })
  next_eligible_date?: string | null;

  @NestedField(() => PlanFrequencyDto, {
    description: 'How often the plan allows the benefit (docs/api.md, Next eligible dates).',
  })
  frequency?: PlanFrequencyDto | null;

  @NestedField(() => LastServiceDto, {
    description:
      'The latest service on record; a verifier gives the one the payer shows (source `payer`).',
  })
  last_service?: LastServiceDto | null;

  @NestedField(() => NextEligibleDto, {
    description:
      'When the benefit can be had again: a verifier gives the date the payer states (basis ' +
      '`payer_stated`); a `computed` one is computed again when the search finishes.',
  })
  next_eligible?: NextEligibleDto | null;

  @flagList()
  flags?: string[] | null;

  @StringField({ maxLength: 1000, allowBlank: true, example: 'One frame every 24 months.' })
  comment?: string | null;

  @integers('Units covered per benefit period.') quantity?: PlanIntegerEntryDto[] | null;
  @integers('Units already used.') quantity_accepted?: PlanIntegerEntryDto[] | null;
  @integers('Units reserved by pending claims.') quantity_reserved?: PlanIntegerEntryDto[] | null;

  @NestedListField(() => PlanBenefitItemDto, {
    maxItems: MAX_CHILDREN,
    description: 'Child benefits; they inherit the flag-dependent properties of their parent.',
  })
  items?: PlanBenefitItemDto[] | null;
}

export class EstimatePlanDto extends PlanLists {
  @StringField({
    required: true,
    choices: ['inn', 'oon'],
    example: 'oon',
    description: '`inn`: only in-network benefits; `oon`: also out-of-network benefits.',
  })
  insurer_state: 'inn' | 'oon';

  @NestedListField(() => PlanBenefitItemDto, { required: true, maxItems: MAX_CHILDREN })
  items: PlanBenefitItemDto[];

  @DateField({ example: '2027-01-01' })
  refresh_date?: string | null;

  @DateField({ example: '2026-01-01' })
  begin_date?: string | null;

  @DateField({ example: '2026-12-31' })
  end_date?: string | null;

  @StringListField({ maxItems: 50, itemMaxLength: 128, example: ['lens-options-covered'] })
  flags?: string[] | null;

  @NestedField(() => MaterialsDto, {
    description: 'The materials price list, in network (docs/api.md, The counter).',
  })
  materials?: MaterialsDto | null;
}
