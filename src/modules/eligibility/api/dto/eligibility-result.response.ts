import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ApiField, ApiNullable } from '@/platform/http/api-docs';
import type { StreetAddress } from '@/lib/person';
import { PlanDoc } from './plan.response';

/** OpenAPI descriptions of the result bodies (the bodies themselves are rendered by eligibility.renderer). */

export class RequestUidResponse {
  @ApiProperty({ example: 'visit-2026-11-21-0042' })
  request_uid: string;
}

export class PersonAddressDoc implements StreetAddress {
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
  @ApiNullable('string', {
    example: 'female',
    description: 'null only on a person a verifier entered without it (an assisted insurer).',
  })
  sex: string | null;
  @ApiNullable('string', { example: 'DMV004512345' }) member_id: string | null;
  @ApiNullable('string', { example: '6789' }) ssn_last_four: string | null;
  @ApiProperty({ example: 'self', description: 'Relationship of the person to the member.' })
  type: string;
  @ApiProperty({
    type: PersonAddressDoc,
    nullable: true,
    description: 'null only on a person a verifier entered without it (an assisted insurer).',
  })
  address: PersonAddressDoc | null;
  @ApiNullable('string', { example: 'maria.garcia@example.com' }) email: string | null;
  @ApiNullable('string', {
    example: '512-555-0142',
    description: 'null only on a person a verifier entered without it (an assisted insurer).',
  })
  phone: string | null;
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

/** docs/api.md, Insurers and assisted verification: the task a person is answering for this request. */
class VerificationRefDoc {
  @ApiProperty({ format: 'uuid', example: '0b8f3c2d-5b0c-4c53-9a55-6f9e1d2a0f1b' }) task_id: string;
  @ApiField('string', { enum: ['queued', 'in_progress', 'needs_info'], example: 'queued' })
  state: string;
  @ApiField('date-time', { example: '2026-11-24T19:04:00.000Z' }) due_by: string;
}

class ResultBase {
  @ApiProperty({ example: 'visit-2026-11-21-0042' }) request_uid: string;
  @ApiNullable('string', {
    enum: ['appointment'],
    example: null,
    description:
      "`appointment`: a check the service runs before an appointment (docs/api.md, Appointments); null for the client's own requests.",
  })
  origin: 'appointment' | null;
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
      'While `processing` and a person checks an insurer that has no 270/271 (docs/api.md, Insurers and assisted verification): the ' +
      'verification task, its state and when it is due.',
  })
  verification?: VerificationRefDoc;

  @ApiPropertyOptional({
    type: [VerificationRefDoc],
    description:
      'Beside `verification`, present with it (docs/api.md, Insurers and assisted verification): every ' +
      'open verification task of the request, soonest due first (`verification` is the first). A ' +
      'Universal Search of several insurers answered by a person has one task each.',
  })
  verifications?: VerificationRefDoc[];
}

/** The task behind an insurer's answer: this request's own, or an earlier one reused. */
class InsurerTaskDoc {
  @ApiProperty({ format: 'uuid', example: '5b0f7c9e-3a41-4d2b-9e57-0c8a1f6d2b34' }) task_id: string;
  @ApiProperty({
    enum: ['queued', 'in_progress', 'needs_info', 'completed', 'failed'],
    example: 'queued',
  })
  state: string;
  @ApiField('date-time', { example: '2026-11-24T18:00:00.000Z' }) due_by: string;
  @ApiPropertyOptional({
    enum: [true],
    description: 'Present (true) when an earlier task answered this request without a new one.',
  })
  reused?: true;
  @ApiPropertyOptional({
    type: 'string',
    format: 'date-time',
    example: '2026-11-24T15:04:00.000Z',
    description: 'Reused answers: when the person answered.',
  })
  checked_at?: string;
}

/** docs/api.md, Universal Search insurer by insurer: one insurer asked, and where it stands. */
export class InsurerEntryDoc {
  @ApiProperty({ example: 'insurer:vision:vsp' }) insurer_code: string;
  @ApiProperty({
    enum: ['queued', 'running', 'found', 'no_plan', 'failed', 'waiting_for_person', 'not_asked'],
    example: 'found',
    description:
      '`queued`/`running`: not answered yet; `found`: plans in `results` (`result_ids`); ' +
      '`no_plan`: answered, no plan for the patient; `failed`: could not be asked or answered ' +
      '(`detail` says why); `waiting_for_person`: a verification task is open (`verification`); ' +
      '`not_asked`: not asked, and not waited for (`detail` says why).',
  })
  state: string;
  @ApiProperty({
    type: 'integer',
    isArray: true,
    example: [41],
    description: "The ids of this insurer's entries in `results`.",
  })
  result_ids: number[];
  @ApiNullable('string', {
    example: 'An active plan was found with Davis Vision.',
    description:
      'A sentence without patient data: why it failed, why it was not asked, whom it waits for.',
  })
  detail: string | null;
  @ApiNullable('date-time', {
    example: '2026-11-24T15:04:00.000Z',
    description: 'When it settled; null while queued, running or waiting for a person.',
  })
  finished_at: string | null;
  @ApiProperty({
    type: InsurerTaskDoc,
    nullable: true,
    description: 'The verification task behind this insurer (assisted verification), else null.',
  })
  verification: InsurerTaskDoc | null;
}

const INSURERS_DESCRIPTION =
  "One entry per insurer asked, in the request's order (docs/api.md, Universal Search insurer " +
  'by insurer), on every answer: processing, complete and error.';

/** `results` of both versions: only the entries' shape differs. */
const RESULTS_DESCRIPTION =
  'null while processing and on error. With Universal Search (`insurer_code_list`) the plans ' +
  'of all insurers that answered are listed together; `insurers` says, insurer by insurer, ' +
  'which found a plan, which found none, which failed and why, which a person is still ' +
  'checking and which were not asked. With `wait_for: "electronic"` a person\'s later answer ' +
  'adds its plans here (the status stays `complete`; `eligibility.updated` delivers the new body).';

/** A result body with `Entry` results (OpenAPI names the subclass, not this one). */
function resultOf<Entry>(entry: new () => Entry) {
  class Result extends ResultBase {
    @ApiProperty({ type: [entry], nullable: true, description: RESULTS_DESCRIPTION })
    results: Entry[] | null;

    @ApiProperty({ type: [InsurerEntryDoc], description: INSURERS_DESCRIPTION })
    insurers: InsurerEntryDoc[];
  }
  return Result;
}

export class EligibilityResultV1 extends resultOf(ResultEntryV1) {}

export class EligibilityResultV2 extends resultOf(ResultEntryV2) {}
