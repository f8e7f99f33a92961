import {
  DateField,
  DecimalField,
  IntField,
  NestedField,
  NestedListField,
  StringField,
} from '@/platform/http/validation/fields';
import {
  CONTACT_LENS_KINDS,
  type ContactLensKind,
  EstimatePlanDto,
  PersonIdField,
  FITTING_KINDS,
  type FittingKind,
  IN_LIEU_SIDES,
  type InLieuSide,
  LENS_OPTIONS,
  LENS_TYPES,
  type LensOption,
  type LensType,
} from '@/lib/benefits';

/** The money of an ordered item, as the house takes money (docs/api.md, Conventions). */
const RETAIL = { required: true, min: '0', description: 'The retail price, a decimal string.' };

export class QuoteFrameDto {
  @DecimalField({ ...RETAIL, example: '189.00' })
  retail: string;
}

export class QuoteLensesDto {
  @StringField({ required: true, choices: LENS_TYPES, example: 'progressive_premium' })
  type: LensType;

  @IntField({
    acceptString: true,
    inBody: true,
    min: 1,
    max: 9,
    example: 2,
    description: 'The tier, for a lens type the list prices by tier.',
  })
  tier?: number | null;

  @DecimalField({ ...RETAIL, example: '320.00' })
  retail: string;
}

export class QuoteLensOptionDto {
  @StringField({ required: true, choices: LENS_OPTIONS, example: 'anti_reflective_standard' })
  option: LensOption;

  @DecimalField({ ...RETAIL, example: '95.00' })
  retail: string;
}

export class QuoteContactLensesDto {
  @StringField({ required: true, choices: CONTACT_LENS_KINDS, example: 'elective' })
  kind: ContactLensKind;

  @DecimalField({ ...RETAIL, example: '180.00' })
  retail: string;
}

export class QuoteFittingDto {
  @StringField({ required: true, choices: FITTING_KINDS, example: 'standard' })
  kind: FittingKind;

  @DecimalField({ ...RETAIL, example: '75.00' })
  retail: string;
}

/** What the patient orders (docs/api.md, The counter). */
export class QuoteOrderDto {
  @NestedField(() => QuoteFrameDto, { description: 'A frame.' })
  frame?: QuoteFrameDto | null;

  @NestedField(() => QuoteLensesDto, { description: 'A pair of spectacle lenses.' })
  lenses?: QuoteLensesDto | null;

  @NestedListField(() => QuoteLensOptionDto, {
    maxItems: LENS_OPTIONS.length,
    description: 'Options of the lenses; they follow the lenses.',
  })
  lens_options?: QuoteLensOptionDto[] | null;

  @NestedField(() => QuoteContactLensesDto, { description: 'Contact lenses.' })
  contact_lenses?: QuoteContactLensesDto | null;

  @NestedField(() => QuoteFittingDto, {
    description: 'A contact lens fitting; it follows the contact lenses.',
  })
  fitting?: QuoteFittingDto | null;

  @StringField({
    choices: IN_LIEU_SIDES,
    example: 'frame',
    description:
      'The side of an `in_lieu_of` pair the plan covers when the order holds both (else the ' +
      'side with the lower patient total).',
  })
  in_lieu_keep?: InLieuSide | null;
}

export class CreateQuoteDto {
  @StringField({
    maxLength: 256,
    example: 'visit-2026-11-21-0042',
    description:
      'A `complete` eligibility request of your account; with `person_id`, quotes on that ' +
      "person's plan and its materials price list. Give these two or `plan`, not both.",
  })
  request_uid?: string | null;

  @PersonIdField() person_id?: number | null;

  @NestedField(() => EstimatePlanDto, {
    description:
      'A V2 plan object (`persons[].plan`) given inline, with its `materials` price list.',
  })
  plan?: EstimatePlanDto | null;

  @DateField({
    example: '2026-11-21',
    description:
      'The day of the visit (today when absent): benefits not available then cover nothing, ' +
      'and the patient age is counted on it.',
  })
  date_of_service?: string | null;

  @IntField({
    min: 0,
    max: 130,
    acceptString: true,
    example: 9,
    description:
      "The patient's age in whole years on `date_of_service`. Required with an inline plan " +
      "whose list states a `max_age`; without it, a stored person's age is counted from their " +
      'date of birth.',
  })
  patient_age?: number | null;

  @NestedField(() => QuoteOrderDto, { required: true, description: 'What the patient orders.' })
  order: QuoteOrderDto;
}
