import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ApiField, ApiNullable, DECIMAL4 } from '@/platform/http/api-docs';
import {
  BENEFIT_FLAGS,
  BenefitFrequencyDoc,
  LastServiceDoc,
  MATERIALS_SOURCES,
  MaterialsDoc,
  NextEligibleDoc,
} from '@/lib/benefits';

/** OpenAPI descriptions of a V2 person's plan and its benefit items (benefit.serializer renders them). */

class FlagEntryBase {
  @ApiPropertyOptional({
    enum: BENEFIT_FLAGS,
    isArray: true,
    example: ['inn'],
    description: 'Applies only when these flags match; absent = always applies.',
  })
  flags?: string[];

  @ApiPropertyOptional({ example: 'reimbursed up to this amount' })
  comment?: string;
}

export class DoubleEntry extends FlagEntryBase {
  @ApiProperty({
    example: '150.0000',
    pattern: DECIMAL4,
    description: 'A double, printed as a decimal string with four decimals.',
  })
  value: string;
}

export class IntegerEntry extends FlagEntryBase {
  @ApiField('integer', { example: 1 })
  value: number;
}

export class BooleanEntry extends FlagEntryBase {
  @ApiProperty({ example: true })
  value: boolean;
}

const doubles = (description: string) => ApiPropertyOptional({ type: [DoubleEntry], description });
const integers = (description: string) =>
  ApiPropertyOptional({ type: [IntegerEntry], description });

export class BenefitItemDoc {
  @ApiProperty({ example: 'materials.frames' })
  benefit_code: string;

  @ApiField('date', { example: '2027-01-01' })
  refresh_date: string;

  @ApiProperty({ enum: BENEFIT_FLAGS, isArray: true, example: ['exclusive-use'] })
  flags: string[];

  @ApiPropertyOptional({ example: 'One frame every 24 months.' })
  comment?: string;

  @doubles('Fixed amount the member pays.') copayment?: DoubleEntry[];
  @doubles('Percentage the member pays.') coinsurance?: DoubleEntry[];
  @doubles('Amount the plan pays up to.') allowance?: DoubleEntry[];
  @doubles('Allowance already used.') allowance_accepted?: DoubleEntry[];
  @doubles('Allowance reserved by pending claims.') allowance_reserved?: DoubleEntry[];
  @doubles('Discount as a fraction (0.2 = 20%).') discount?: DoubleEntry[];
  @doubles('Most the member pays, or the cap of a package item.') margin_limit?: DoubleEntry[];
  @doubles('Deductible before the plan pays (X12 EB01 `C`).') deductible?: DoubleEntry[];
  @integers('Units covered per benefit period.') quantity?: IntegerEntry[];
  @integers('Units already used.') quantity_accepted?: IntegerEntry[];
  @integers('Units reserved by pending claims.') quantity_reserved?: IntegerEntry[];

  @ApiPropertyOptional({ type: [BooleanEntry] })
  is_authorization_required?: BooleanEntry[];

  @ApiProperty({
    type: () => [BenefitItemDoc],
    description:
      'Child benefits (any depth). They inherit the flag-dependent properties of their parent.',
  })
  items: BenefitItemDoc[];

  @ApiField('date', {
    required: false,
    example: '2026-12-31',
    description: 'Present on some items.',
  })
  end_date?: string;

  @ApiField('date', {
    required: false,
    example: '2025-08-31',
    description: '`last_service.date`, where there is one.',
  })
  last_service_date?: string;

  @ApiField('date', {
    required: false,
    example: '2027-08-31',
    description: '`next_eligible.date`, where there is one.',
  })
  next_eligible_date?: string;

  @ApiPropertyOptional({
    type: BenefitFrequencyDoc,
    description:
      'How often the plan allows the benefit, where the plan says (docs/api.md, Next eligible dates).',
  })
  frequency?: BenefitFrequencyDoc;

  @ApiPropertyOptional({
    type: LastServiceDoc,
    description:
      "The latest service on record: the payer's, or the practice's own (its claims, their " +
      'remittances, staff entries) for the benefit of an item with a frequency.',
  })
  last_service?: LastServiceDoc;

  @ApiPropertyOptional({
    type: NextEligibleDoc,
    description:
      'When the benefit can be had again, on items with a frequency or a date the payer states.',
  })
  next_eligible?: NextEligibleDoc;
}

export class CarveOutDoc {
  @ApiProperty({ example: 'EYEMED VISION CARE' })
  name: string;

  @ApiNullable('string', { example: 'EYEMD' })
  payer_id: string | null;

  @ApiNullable('string', { example: '8665550100' })
  phone: string | null;
}

export class OtherPayerDoc {
  @ApiProperty({ example: 'BLUE CROSS MEDICAL' })
  name: string;

  @ApiNullable('string', { example: '00590' })
  payer_id: string | null;

  @ApiNullable('string', { example: 'XYZ123456' })
  member_id: string | null;
}

export class PlanDoc {
  @ApiProperty({
    enum: ['inn', 'oon'],
    example: 'oon',
    description: '`inn`: only in-network benefits; `oon`: also out-of-network benefits.',
  })
  insurer_state: string;

  @ApiProperty({ type: [BenefitItemDoc] })
  items: BenefitItemDoc[];

  @ApiNullable('date', { example: '2027-01-01' })
  refresh_date: string | null;

  @ApiNullable('date', { example: '2026-01-01' })
  begin_date: string | null;

  @ApiNullable('date', { example: '2026-12-31' })
  end_date: string | null;

  @ApiProperty({ type: [String], example: ['lens-options-covered'] })
  flags: string[];

  @doubles('Plan-level copayment.') copayment?: DoubleEntry[];
  @doubles('Plan-level coinsurance.') coinsurance?: DoubleEntry[];
  @doubles('Plan-level allowance.') allowance?: DoubleEntry[];
  @doubles('Plan-level allowance used.') allowance_accepted?: DoubleEntry[];
  @doubles('Plan-level allowance reserved.') allowance_reserved?: DoubleEntry[];
  @doubles('Plan-level discount.') discount?: DoubleEntry[];
  @doubles('Plan-level margin limit.') margin_limit?: DoubleEntry[];
  @doubles('Plan-level deductible.') deductible?: DoubleEntry[];

  @ApiPropertyOptional({ type: [BooleanEntry] })
  is_authorization_required?: BooleanEntry[];

  @ApiPropertyOptional({
    example: '53 (inquired benefit inconsistent with provider type) (service type AM)',
    description:
      'What the insurer said about the plan as a whole, e.g. a service type it would not answer.',
  })
  comment?: string;

  @ApiPropertyOptional({
    type: CarveOutDoc,
    description: 'Vision benefits administered by another company: ask that one.',
  })
  carve_out?: CarveOutDoc;

  @ApiPropertyOptional({ type: [OtherPayerDoc], description: 'Other payers the insurer names.' })
  other_payers?: OtherPayerDoc[];

  @ApiProperty({
    type: MaterialsDoc,
    nullable: true,
    description: 'The materials price list (docs/api.md, The counter); null when unknown.',
  })
  materials: MaterialsDoc | null;

  @ApiNullable('string', {
    enum: MATERIALS_SOURCES,
    example: 'payer',
    description: "`payer`, `verifier` or `plan_design` (the account's design for the group).",
  })
  materials_source: string | null;
}
