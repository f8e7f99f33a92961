import { ValidateBy } from 'class-validator';
import { decimalPlaces, isDecimalInput, toMinor } from '@/platform/kernel/decimal';
import {
  CheckedListField,
  DecimalField,
  IntField,
  NestedField,
  StringField,
} from '@/platform/http/validation/fields';
import { CONTACT_LENS_ENTRIES, LENS_OPTIONS, LENS_TYPES, IN_LIEU_SIDES } from '../materials.types';
import { IN_LIEU_OF_DOC } from './materials.response';

/**
 * A plan's materials price list as a request gives it (docs/api.md, The counter): an inline plan
 * of a quote, a verifier's answer, a plan design. Every key of a rule optional; money as decimal
 * strings (numbers accepted), percentages 0–100.
 */

/** A percentage's upper bound (coinsurance, a price list's discount). */
export const atMostHundred = () =>
  ValidateBy({
    name: 'max',
    validator: {
      // Only a well-formed decimal is compared; the type rules report anything else.
      validate: (v: unknown) =>
        typeof v !== 'string' ||
        !isDecimalInput(v) ||
        decimalPlaces(v) > 4 ||
        toMinor(v) <= 100n * 10_000n,
      defaultMessage: () => 'Ensure this value is less than or equal to 100.',
    },
  });

const MONEY = { min: '0', maxDigits: 8 } as const;

export class MaterialsRuleDto {
  @DecimalField({ ...MONEY, example: '45.00', description: 'The patient pays this first.' })
  copayment?: string | null;

  @DecimalField({ ...MONEY, example: '150.00', description: 'The plan pays up to this.' })
  allowance?: string | null;

  @DecimalField({ min: '0', example: '20', description: 'Percent off, 0–100.' })
  @atMostHundred()
  discount_percent?: string | null;

  @StringField({
    choices: ['overage', 'retail'],
    example: 'overage',
    description: 'What the discount applies to: `overage` (default) or `retail`.',
  })
  discount_on?: 'overage' | 'retail' | null;

  @DecimalField({ ...MONEY, example: '60.00', description: 'The patient pays this price.' })
  price?: string | null;

  @IntField({ min: 0, max: 130, example: 18, description: 'Free up to this age.' })
  max_age?: number | null;

  @StringField({
    maxLength: 16,
    pattern: /^[A-Za-z0-9]+$/,
    patternMessage: 'Letters and digits only.',
    example: 'V2784',
  })
  code?: string | null;
}

/** A class of one optional nested field of `type` per name. */
function keyed<T extends object>(
  names: readonly string[],
  type: new () => T,
  name: string,
): new () => Record<string, T | null | undefined> {
  const dto = class {};
  Object.defineProperty(dto, 'name', { value: name });
  for (const key of names) NestedField(() => type)(dto.prototype, key);
  return dto as never;
}

const TIERS = ['1', '2', '3', '4', '5', '6', '7', '8', '9'];
const MaterialsTiersDto = keyed(TIERS, MaterialsRuleDto, 'MaterialsTiersDto');

export class LensRuleDto extends MaterialsRuleDto {
  @NestedField(() => MaterialsTiersDto, {
    description: 'Rules by tier ("1" to "9") instead of one rule; the order names its tier.',
  })
  tiers?: Record<string, MaterialsRuleDto | null | undefined> | null;
}

const MaterialsLensesDto = keyed(LENS_TYPES, LensRuleDto, 'MaterialsLensesDto');
const MaterialsLensOptionsDto = keyed(LENS_OPTIONS, MaterialsRuleDto, 'MaterialsLensOptionsDto');
const MaterialsContactLensesDto = keyed(
  CONTACT_LENS_ENTRIES,
  MaterialsRuleDto,
  'MaterialsContactLensesDto',
);

const PAIR_MESSAGE = `A pair of two different values of: ${IN_LIEU_SIDES.join(', ')}.`;

export class MaterialsDto {
  @StringField({ required: true, choices: ['inn'], example: 'inn', description: 'Always `inn`.' })
  network: 'inn';

  @NestedField(() => MaterialsRuleDto) frame?: MaterialsRuleDto | null;
  @NestedField(() => MaterialsLensesDto) lenses?: Record<
    string,
    LensRuleDto | null | undefined
  > | null;
  @NestedField(() => MaterialsLensOptionsDto) lens_options?: Record<
    string,
    MaterialsRuleDto | null | undefined
  > | null;
  @NestedField(() => MaterialsContactLensesDto) contact_lenses?: Record<
    string,
    MaterialsRuleDto | null | undefined
  > | null;

  @CheckedListField({
    maxItems: 3,
    itemError: (pair) =>
      Array.isArray(pair) &&
      pair.length === 2 &&
      pair[0] !== pair[1] &&
      pair.every((side) => (IN_LIEU_SIDES as readonly unknown[]).includes(side))
        ? null
        : PAIR_MESSAGE,
    ...IN_LIEU_OF_DOC,
  })
  in_lieu_of?: [string, string][] | null;
}
