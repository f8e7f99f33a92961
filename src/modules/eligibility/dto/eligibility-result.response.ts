import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { BENEFIT_FLAGS } from '@/modules/benefits/benefit.types';

/** OpenAPI descriptions of the result bodies (the bodies themselves are rendered by eligibility.renderer). */

export class RequestUidResponse {
  @ApiProperty({ example: 'visit-2026-11-21-0042' })
  request_uid: string;
}

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
  @ApiProperty({ example: '150.0000', description: 'A double, printed with four decimals.' })
  value: string;
}

export class IntegerEntry extends FlagEntryBase {
  @ApiProperty({ example: 1 })
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

  @ApiProperty({ example: '2027-01-01', format: 'date' })
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

  @ApiPropertyOptional({ example: '2026-12-31', format: 'date' })
  end_date?: string;
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

  @ApiProperty({ nullable: true, example: '2027-01-01', format: 'date' })
  refresh_date: string | null;

  @ApiProperty({ nullable: true, example: '2026-01-01', format: 'date' })
  begin_date: string | null;

  @ApiProperty({ nullable: true, example: '2026-12-31', format: 'date' })
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

  @ApiPropertyOptional({ type: [BooleanEntry] })
  is_authorization_required?: BooleanEntry[];
}

export class PersonAddressDoc {
  @ApiProperty({ example: '412 Oak Street' }) line1: string;
  @ApiProperty({ nullable: true, example: 'Apt 4' }) line2: string | null;
  @ApiProperty({ example: 'Austin' }) city: string;
  @ApiProperty({ example: '78701' }) zipcode: string;
  @ApiProperty({ example: 'TX' }) state: string;
}

export class PersonV1Doc {
  @ApiProperty({ example: 'Maria' }) first_name: string;
  @ApiProperty({ example: 'Garcia' }) last_name: string;
  @ApiProperty({ example: '1984-06-15', format: 'date' }) dob: string;
  @ApiProperty({ example: 'female' }) sex: string;
  @ApiProperty({ nullable: true, example: 'DMV004512345' }) member_id: string | null;
  @ApiProperty({ nullable: true, example: '6789' }) ssn_last_four: string | null;
  @ApiProperty({ example: 'self', description: 'Relationship of the person to the member.' })
  type: string;
  @ApiProperty({ type: PersonAddressDoc }) address: PersonAddressDoc;
  @ApiProperty({ nullable: true, example: 'maria.garcia@example.com' }) email: string | null;
  @ApiProperty({ example: '512-555-0142' }) phone: string;
  @ApiProperty({ example: 97, description: 'Person id: `person_id` of a details request.' })
  id: number;
  @ApiProperty({ example: 'Maria Garcia' }) full_name: string;
  @ApiProperty({ nullable: true, example: true, description: 'false when the person is inactive.' })
  is_active: boolean | null;

  @ApiPropertyOptional({
    example: '9f2c…',
    description:
      'Only on persons whose plan.insurer_state is `inn`; the key is absent otherwise. Opaque, valid 30 days.',
  })
  plan_token?: string;

  @ApiPropertyOptional({
    example: '2026-12-21',
    format: 'date',
    description: 'Same presence rule as plan_token.',
  })
  plan_token_expired_at?: string;
}

export class PersonV2Doc extends PersonV1Doc {
  @ApiProperty({ type: PlanDoc })
  plan: PlanDoc;
}

class ResultEntryBase {
  @ApiProperty({ example: 41, description: 'Result id: `result_id` of a details request.' })
  id: number;
  @ApiProperty({ enum: ['active', 'inactive', 'out_of_network', 'unavailable'], example: 'active' })
  status: string;
  @ApiProperty({ example: 'VisionCare Plus' }) plan_name: string;
  @ApiProperty({ example: 'Acme Manufacturing' }) plan_group: string;
  @ApiProperty({ nullable: true, example: 'GRP-104233' }) plan_group_id: string | null;
  @ApiProperty({ example: '2026-01-01', format: 'date' }) plan_begin_date: string;
  @ApiProperty({ nullable: true, example: '2026-12-31', format: 'date' }) plan_end_date:
    string | null;
  @ApiProperty({ nullable: true, example: '2027-01-01', format: 'date' }) plan_refresh_date:
    string | null;
  @ApiProperty({ example: 'insurer:demo:vision', pattern: '^insurer:[^:]+:[^:]+$' })
  insurer_code: string;
  @ApiProperty({ example: true }) plan_is_active: boolean;
}

export class ResultEntryV1 extends ResultEntryBase {
  @ApiProperty({ type: [PersonV1Doc] }) persons: PersonV1Doc[];
}

export class ResultEntryV2 extends ResultEntryBase {
  @ApiProperty({ type: [PersonV2Doc] }) persons: PersonV2Doc[];
}

class ResultBase {
  @ApiProperty({ example: 'visit-2026-11-21-0042' }) request_uid: string;
  @ApiProperty({
    enum: ['processing', 'complete', 'error'],
    example: 'complete',
    description: 'While `processing`, poll again later.',
  })
  status: string;
  @ApiProperty({ enum: ['insurer_problem', 'unexpected_error'], nullable: true, example: null })
  error_code: string | null;
}

export class EligibilityResultV1 extends ResultBase {
  @ApiProperty({
    type: [ResultEntryV1],
    nullable: true,
    description: 'null while processing and on error',
  })
  results: ResultEntryV1[] | null;
}

export class EligibilityResultV2 extends ResultBase {
  @ApiProperty({
    type: [ResultEntryV2],
    nullable: true,
    description: 'null while processing and on error',
  })
  results: ResultEntryV2[] | null;
}
