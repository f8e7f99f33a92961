import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { DECIMAL4 } from '@/platform/http/api-docs';
import { CONTACT_LENS_ENTRIES, LENS_OPTIONS, LENS_TYPES, IN_LIEU_SIDES } from '../materials.types';

/** The OpenAPI text of `in_lieu_of`, the request's and the answer's alike. */
export const IN_LIEU_OF_DOC = {
  items: {
    type: 'array',
    items: { type: 'string', enum: [...IN_LIEU_SIDES] },
    minItems: 2,
    maxItems: 2,
  },
  example: [['contact_lenses', 'frame']],
  description: 'Pairs covered one instead of the other.',
};

/**
 * OpenAPI descriptions of a plan's materials price list as answers print it (docs/api.md, The
 * counter): every key of a rule optional (absent: not stated), money with four decimals.
 */

const money = (description: string) =>
  ApiPropertyOptional({ type: 'string', pattern: DECIMAL4, example: '45.0000', description });

export class MaterialsRuleDoc {
  @money('The patient pays this, covered in full after it.') copayment?: string;
  @money('The plan pays up to this.') allowance?: string;
  @money('Percent off (the overage, or retail).') discount_percent?: string;

  @ApiPropertyOptional({
    enum: ['overage', 'retail'],
    description: 'What the discount applies to.',
  })
  discount_on?: string;

  @money('The patient pays this price (or retail, when lower).') price?: string;

  @ApiPropertyOptional({ type: 'integer', example: 18, description: 'Free up to this age.' })
  max_age?: number;

  @ApiPropertyOptional({ example: 'V2784', description: 'The procedure code of the line.' })
  code?: string;
}

export class LensRuleDoc extends MaterialsRuleDoc {
  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: { $ref: '#/components/schemas/MaterialsRuleDoc' },
    description: 'Rules by tier ("1", "2", …) instead of one rule.',
  })
  tiers?: Record<string, MaterialsRuleDoc>;
}

/** A class with one optional property of `type` per name. */
function keyedDoc(names: readonly string[], type: new () => object, name: string) {
  const doc = class {};
  Object.defineProperty(doc, 'name', { value: name });
  for (const key of names) ApiPropertyOptional({ type })(doc.prototype, key);
  return doc;
}

const LensesDoc = keyedDoc(LENS_TYPES, LensRuleDoc, 'MaterialsLensesDoc');
const LensOptionsDoc = keyedDoc(LENS_OPTIONS, MaterialsRuleDoc, 'MaterialsLensOptionsDoc');
const ContactLensesDoc = keyedDoc(
  CONTACT_LENS_ENTRIES,
  MaterialsRuleDoc,
  'MaterialsContactLensesDoc',
);

export class MaterialsDoc {
  @ApiProperty({ enum: ['inn'], description: 'The list prices in network.' })
  network: string;

  @ApiPropertyOptional({ type: MaterialsRuleDoc }) frame?: MaterialsRuleDoc;
  @ApiPropertyOptional({ type: LensesDoc }) lenses?: object;
  @ApiPropertyOptional({ type: LensOptionsDoc }) lens_options?: object;
  @ApiPropertyOptional({ type: ContactLensesDoc }) contact_lenses?: object;

  @ApiPropertyOptional({
    type: 'array',
    ...IN_LIEU_OF_DOC,
  })
  in_lieu_of?: string[][];
}
