import { ApiProperty } from '@nestjs/swagger';
import { ValidateIf } from 'class-validator';
import {
  BoolField,
  DateField,
  NestedField,
  NestedListField,
  StringField,
} from '@/platform/http/validation/fields';
import { PAGE_SIZES, PageCursorField, PageSizeField } from '@/platform/http/pagination/page-query';
import { KNOWN_INSURER_CODES } from '@/modules/insurers';
import { EstimatePlanDto, PlanBenefitItemDto } from '@/lib/benefits';
import type { Evidence } from '../../store/verification-task.entity';
import {
  AddressLineField,
  CityField,
  MemberIdField,
  NameField,
  type Optional,
  StateField,
  type StreetAddress,
} from '@/lib/person';
import { EVIDENCE_SOURCES, FAIL_REASONS, TASK_STATES } from '../../store/verification-task.entity';

/**
 * What a verifier sends (docs/api.md, Insurers and assisted verification). `complete`'s plans are V2 plan results as the API
 * returns them: fields the service assigns (`id`, `full_name`, `plan_token`, `insurer_code` …)
 * are read past, and each person's `plan` is validated as an inline estimate plan is.
 */

export class TaskListQuery {
  @StringField({ choices: TASK_STATES, example: 'queued' })
  state?: string;

  @StringField({ choices: KNOWN_INSURER_CODES, example: 'insurer:vision:vsp' })
  insurer_code?: string;

  @StringField({
    maxLength: 40,
    pattern: /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:?\d{2})?)?$/,
    patternMessage: 'Enter a valid date/time (ISO 8601).',
    example: '2026-11-24T18:00:00Z',
    description: 'Only tasks due before this time.',
  })
  due_before?: string;

  @PageSizeField(PAGE_SIZES.list, { described: false })
  limit?: number;

  @PageCursorField('MjAyNi0xMS0yMVQxMzo1MToxNi45OTBafDBkM2My')
  cursor?: string;
}

export class VerifiedAddressDto implements Optional<StreetAddress, 'line2'> {
  @AddressLineField(true, '412 Oak Street') line1: string;
  @AddressLineField(false, 'Apt 4', true) line2?: string | null;
  @CityField(true) city: string;
  @StringField({ required: true, maxLength: 10, example: '78701' }) zipcode: string;
  @StateField(true, 2) state: string;
}

/**
 * A person's plan as a verifier gives it: an inline estimate plan, whose `items` may be left out
 * when the plan names a saved design (`plan_design_id`, docs/api.md "Plan designs"): the design's
 * items are then the person's. Whether they were needed is checked once the plan is known
 * (plansFromVerified), so estimates keep `items` required.
 */
export class VerifiedPersonPlanDto extends EstimatePlanDto {
  @ValidateIf((plan: VerifiedPersonPlanDto) => plan.items !== undefined)
  @ApiProperty({
    type: [PlanBenefitItemDto],
    required: false,
    description:
      "Required unless the plan gives `plan_design_id`: then the design's items, each item given " +
      "here replacing the design's item of the same `benefit_code`.",
  })
  declare items: PlanBenefitItemDto[];
}

/**
 * A person found: only `plan` is required. Names, date of birth and member id default to the
 * one asked for (verified-plans.ts: the subscriber for a person of type `self`/`subscriber`
 * when the search named one, else the patient); sex, address, e-mail and phone stay null.
 */
export class VerifiedPersonDto {
  @NameField('Maria', false) first_name?: string | null;
  @NameField('Garcia', false) last_name?: string | null;
  @DateField({ notFuture: true, example: '1984-06-15' }) dob?: string | null;
  @StringField({ maxLength: 20, example: 'female' }) sex?: string | null;
  @MemberIdField('DMV004512345') member_id?: string | null;
  @StringField({
    maxLength: 4,
    pattern: /^\d{4}$/,
    patternMessage: 'Enter the last four digits.',
    example: '6789',
  })
  ssn_last_four?: string | null;
  @StringField({
    maxLength: 32,
    example: 'self',
    description:
      'Relationship to the subscriber. When the search named a subscriber, `self` or ' +
      '`subscriber` is that subscriber and any other type the patient; absent: `self`, or ' +
      '`dependent` when the search named a subscriber.',
  })
  type?: string | null;
  @NestedField(() => VerifiedAddressDto) address?: VerifiedAddressDto | null;
  @StringField({ maxLength: 254, example: 'maria.garcia@example.com' }) email?: string | null;
  @StringField({ maxLength: 32, allowBlank: true, example: '512-555-0142' }) phone?: string | null;
  @BoolField({ example: true }) is_active?: boolean | null;
  @NestedField(() => VerifiedPersonPlanDto, { required: true }) plan: VerifiedPersonPlanDto;
}

export class VerifiedPlanDto {
  @StringField({
    required: true,
    choices: ['active', 'inactive', 'out_of_network', 'unavailable'],
    example: 'active',
  })
  status: 'active' | 'inactive' | 'out_of_network' | 'unavailable';

  @StringField({ required: true, maxLength: 200, example: 'VSP Choice' }) plan_name: string;
  @StringField({ maxLength: 200, allowBlank: true, example: 'Acme Manufacturing' })
  plan_group?: string | null;
  @StringField({ maxLength: 64, example: 'GRP-104233' }) plan_group_id?: string | null;
  @DateField({ required: true, example: '2026-01-01' }) plan_begin_date: string;
  @DateField({ example: '2026-12-31' }) plan_end_date?: string | null;
  @DateField({ example: '2027-01-01' }) plan_refresh_date?: string | null;
  @BoolField({ required: true, example: true }) plan_is_active: boolean;

  @StringField({
    maxLength: 64,
    example: '7c1e2f4a-93b5-4d0e-8a61-2b9f0c3d5e78',
    description:
      "A saved plan design of the task's insurer (docs/api.md, Plan designs) to start from: each " +
      "person's `plan.items` may then be left out (the design's items are used), and items given " +
      "replace the design's items of the same `benefit_code`. Unknown, or of another insurer: a " +
      'field error here.',
  })
  plan_design_id?: string | null;

  @NestedListField(() => VerifiedPersonDto, { required: true, minItems: 1, maxItems: 20 })
  persons: VerifiedPersonDto[];
}

export class EvidenceDto {
  @StringField({ required: true, choices: EVIDENCE_SOURCES, example: 'portal' })
  source: (typeof EVIDENCE_SOURCES)[number];

  @StringField({ maxLength: 100, example: 'CALL-20261124-0042' }) reference_number?: string | null;
  @StringField({ maxLength: 200, example: 'Dana at VSP provider services' })
  representative?: string | null;

  @ApiProperty({ type: 'string', format: 'date-time' })
  @StringField({
    required: true,
    maxLength: 40,
    pattern: /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:?\d{2})$/,
    patternMessage: 'Enter a date and time with its offset (ISO 8601), e.g. 2026-11-24T15:04:00Z.',
    example: '2026-11-24T15:04:00Z',
  })
  checked_at: string;
}

/** Evidence as a task stores it: every field, a reference or representative not given as null. */
export const storedEvidence = (e: EvidenceDto): Evidence => ({
  source: e.source,
  reference_number: e.reference_number ?? null,
  representative: e.representative ?? null,
  checked_at: e.checked_at,
});

export class CompleteTaskDto {
  @NestedListField(() => VerifiedPlanDto, {
    required: true,
    minItems: 1,
    maxItems: 10,
    description:
      'The plans found, as V2 results show them (with persons and their plans). No member: use fail with `member_not_found`.',
  })
  plans: VerifiedPlanDto[];

  @NestedField(() => EvidenceDto, { required: true }) evidence: EvidenceDto;
}

export class FailTaskDto {
  @StringField({ required: true, choices: FAIL_REASONS, example: 'portal_down' })
  reason: (typeof FAIL_REASONS)[number];

  @StringField({ maxLength: 2000, allowBlank: true, example: 'Portal maintenance until 6 pm ET.' })
  detail?: string | null;
}

export class TaskNoteDto {
  @StringField({
    required: true,
    maxLength: 2000,
    example: 'Which member id is on the card: the subscriber is the spouse?',
  })
  detail: string;
}
