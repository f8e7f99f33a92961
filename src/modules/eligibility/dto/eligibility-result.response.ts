import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ApiField, ApiNullable, DECIMAL4 } from '@/common/api-docs';
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
    example: '2025-06-12',
    description: 'When the benefit was last used, when the insurer says (X12 DTP 304).',
  })
  last_service_date?: string;

  @ApiField('date', {
    required: false,
    example: '2026-06-12',
    description:
      'When the benefit can be used again, when the insurer says or its frequency and last use tell.',
  })
  next_eligible_date?: string;
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
}

export class PersonAddressDoc {
  @ApiProperty({ example: '412 Oak Street' }) line1: string;
  @ApiNullable('string', { example: 'Apt 4' }) line2: string | null;
  @ApiProperty({ example: 'Austin' }) city: string;
  @ApiProperty({ example: '78701' }) zipcode: string;
  @ApiProperty({ example: 'TX' }) state: string;
}

export class PersonV1Doc {
  @ApiProperty({ example: 'Maria' }) first_name: string;
  @ApiProperty({ example: 'Garcia' }) last_name: string;
  @ApiField('date', { example: '1984-06-15' }) dob: string;
  @ApiProperty({ example: 'female' }) sex: string;
  @ApiNullable('string', { example: 'DMV004512345' }) member_id: string | null;
  @ApiNullable('string', { example: '6789' }) ssn_last_four: string | null;
  @ApiProperty({ example: 'self', description: 'Relationship of the person to the member.' })
  type: string;
  @ApiProperty({ type: PersonAddressDoc }) address: PersonAddressDoc;
  @ApiNullable('string', { example: 'maria.garcia@example.com' }) email: string | null;
  @ApiProperty({ example: '512-555-0142' }) phone: string;
  @ApiField('integer', {
    example: 97,
    description:
      'Person id: `person_id` of a details request. Stable across V1, V2 and repeated GETs.',
  })
  id: number;
  @ApiProperty({ example: 'Maria Garcia' }) full_name: string;
  @ApiNullable('boolean', {
    example: true,
    description: 'false when the person is inactive; true or null when the plan is active.',
  })
  is_active: boolean | null;

  @ApiNullable('string', {
    required: false,
    example: '9f2c4e0b7a51d8c3e6f90a2b4d7c1e8f5a3b6d9c0e2f4a7b1c5d8e0f3a6b9c2d',
    description:
      'Only on persons whose plan.insurer_state is `inn`; the key is absent otherwise. Opaque, valid 30 days.',
  })
  plan_token?: string | null;

  @ApiField('date', {
    required: false,
    example: '2026-12-21',
    description: 'Same presence rule as plan_token.',
  })
  plan_token_expired_at?: string;
}

export class PersonV2Doc extends PersonV1Doc {
  @ApiProperty({ type: PlanDoc })
  plan: PlanDoc;
}

class ResultEntryBase {
  @ApiField('integer', {
    example: 41,
    description:
      'Result id: `result_id` of a details request. Stable across V1, V2 and repeated GETs.',
  })
  id: number;
  @ApiProperty({ enum: ['active', 'inactive', 'out_of_network', 'unavailable'], example: 'active' })
  status: string;
  @ApiProperty({ example: 'VisionCare Plus' }) plan_name: string;
  @ApiProperty({ example: 'Acme Manufacturing' }) plan_group: string;
  @ApiNullable('string', { example: 'GRP-104233' }) plan_group_id: string | null;
  @ApiField('date', { example: '2026-01-01' }) plan_begin_date: string;
  @ApiNullable('date', { example: '2026-12-31' }) plan_end_date: string | null;
  @ApiNullable('date', { example: '2027-01-01' }) plan_refresh_date: string | null;
  @ApiProperty({
    example: 'insurer:demo:vision',
    pattern: '^insurer:[^:]+:[^:]+$',
    description: 'The insurer that found this plan (with Universal Search, one of those asked).',
  })
  insurer_code: string;
  @ApiProperty({ example: true }) plan_is_active: boolean;
}

export class ResultEntryV1 extends ResultEntryBase {
  @ApiProperty({ type: [PersonV1Doc] }) persons: PersonV1Doc[];
}

export class ResultEntryV2 extends ResultEntryBase {
  @ApiProperty({ type: [PersonV2Doc] }) persons: PersonV2Doc[];
}

/** CONTRACT §18: the task a person is answering for this request. */
class VerificationRefDoc {
  @ApiProperty({ format: 'uuid', example: '0b8f3c2d-5b0c-4c53-9a55-6f9e1d2a0f1b' }) task_id: string;
  @ApiField('string', { enum: ['queued', 'in_progress', 'needs_info'], example: 'queued' })
  state: string;
  @ApiField('date-time', { example: '2026-11-24T19:04:00.000Z' }) due_by: string;
}

class ResultBase {
  @ApiProperty({ example: 'visit-2026-11-21-0042' }) request_uid: string;
  @ApiProperty({
    enum: ['processing', 'complete', 'error'],
    example: 'complete',
    description: 'While `processing`, poll again later.',
  })
  status: string;
  @ApiNullable('string', {
    enum: ['insurer_problem', 'unexpected_error'],
    example: null,
    description:
      'Set when `status` is `error`, otherwise null: `insurer_problem` (the insurer was ' +
      'unavailable; retry later) or `unexpected_error`. With Universal Search, only when every ' +
      'insurer asked failed (`insurer_problem` when all were unavailable).',
  })
  error_code: string | null;
  @ApiNullable('string', {
    example: null,
    description:
      'Set when `status` is `error`, otherwise null: why the check failed, in one sentence ' +
      '(no patient data), for people reading the answer; program against `error_code`.',
  })
  error_detail: string | null;
  @ApiProperty({
    type: Boolean,
    required: false,
    enum: [true],
    example: true,
    description:
      'Present (always `true`) only when the patient data of this request was erased after ' +
      'the retention period (`PHI_RETENTION_DAYS`): `results` is then `[]`, whatever was found. ' +
      'Absent otherwise.',
  })
  purged?: true;

  @ApiPropertyOptional({
    type: VerificationRefDoc,
    description:
      'While `processing` and a person checks an insurer that has no 270/271 (CONTRACT §18): the ' +
      'verification task, its state and when it is due.',
  })
  verification?: VerificationRefDoc;
}

export class EligibilityResultV1 extends ResultBase {
  @ApiProperty({
    type: [ResultEntryV1],
    nullable: true,
    description:
      'null while processing and on error. With Universal Search (`insurer_code_list`) the ' +
      'request is `complete` as soon as every insurer has answered or failed and at least one ' +
      'answered: the plans of all insurers that answered are listed together, and an insurer ' +
      'that failed (unavailable after retries, or an unexpected error) is left out without an ' +
      'error. An insurer asked but absent from `results` either has no plan for the patient or ' +
      'failed; the result does not say which.',
  })
  results: ResultEntryV1[] | null;
}

export class EligibilityResultV2 extends ResultBase {
  @ApiProperty({
    type: [ResultEntryV2],
    nullable: true,
    description:
      'null while processing and on error. With Universal Search (`insurer_code_list`) the ' +
      'request is `complete` as soon as every insurer has answered or failed and at least one ' +
      'answered: the plans of all insurers that answered are listed together, and an insurer ' +
      'that failed (unavailable after retries, or an unexpected error) is left out without an ' +
      'error. An insurer asked but absent from `results` either has no plan for the patient or ' +
      'failed; the result does not say which.',
  })
  results: ResultEntryV2[] | null;
}
