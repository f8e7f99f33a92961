import { ApiProperty } from '@nestjs/swagger';
import { ApiField, ApiNullable, ApiTimestamp, DECIMAL4 } from '@/platform/http/api-docs';
import { RenderingProviderIdentityResponse } from '@/modules/accounts';
import { type MailingAddress, SEX_CHOICES } from '@/lib/person';
import {
  ClaimRemittanceServiceLineResponse,
  RemittanceAdjustmentResponse,
  RemittanceRemarkResponse,
} from '../../reports/api/dto/remittance.response';
import { CLAIM_STATUSES } from '../../store/claim.entity';

export class ClaimAddressResponse implements MailingAddress {
  @ApiProperty({ example: '1208 Congress Ave' })
  line1: string;

  @ApiNullable('string', { example: 'Apt 4B' })
  line2: string | null;

  @ApiProperty({ example: 'Austin' })
  city: string;

  @ApiProperty({ example: '78701' })
  zipcode: string;

  @ApiProperty({ example: 'TX' })
  state: string;

  @ApiNullable('string', { example: null })
  recipient: string | null;
}

export class ClaimPersonResponse {
  @ApiProperty({ example: 'Maria' })
  first_name: string;

  @ApiProperty({ example: 'Gonzalez' })
  last_name: string;

  @ApiField('date', { example: '1986-04-12' })
  dob: string;

  @ApiNullable('string', { example: 'self' })
  type: string | null;

  @ApiNullable('string', { enum: SEX_CHOICES, example: 'female' })
  sex: string | null;

  @ApiNullable('string', { example: 'VSP104882211' })
  member_id: string | null;

  @ApiNullable('string', { example: '4321' })
  ssn_last_four: string | null;

  @ApiNullable('string', { example: 'maria.gonzalez@example.com' })
  email: string | null;

  @ApiNullable('string', { example: '512-555-0142' })
  phone: string | null;

  @ApiProperty({ type: ClaimAddressResponse, nullable: true })
  address: ClaimAddressResponse | null;
}

export class ClaimPrimaryMemberResponse extends ClaimPersonResponse {
  @ApiProperty({ example: 'insurer:vision:vsp' })
  insurer_code: string;
}

export class ClaimServiceResponse {
  @ApiProperty({ type: [String], example: ['V2100'] })
  codes: string[];

  @ApiField('date', { example: '2026-11-14' })
  date: string;

  @ApiField('integer', { example: 2, minimum: 1 })
  quantity: number;

  @ApiProperty({
    example: '45.0000',
    pattern: DECIMAL4,
    description: 'Price of one unit, four decimals.',
  })
  cost: string;

  @ApiProperty({ type: [String], example: ['H52.13'], description: '`[]` when none were given.' })
  diagnosis_codes: string[];
}

export class ClaimStatusChangeResponse {
  @ApiProperty({ enum: CLAIM_STATUSES, example: 'submitted' })
  status: string;

  @ApiTimestamp()
  at: string;

  @ApiNullable('string', {
    example: 'Submitted as 837P; clearinghouse id 01KA7Y0B5P3S.',
    description: "Why: the clearinghouse's reason, the payer's status; null when nothing to add.",
  })
  detail: string | null;
}

export class ClaimSubmissionResponse {
  @ApiProperty({
    enum: ['x12', 'paper'],
    example: 'x12',
    description:
      '`x12`: an 837P through the clearinghouse; `paper`: the claim form the patient mails.',
  })
  channel: string;

  @ApiNullable('string', {
    example: '01KA7Y0B5P3S',
    description: "The clearinghouse's id of the submitted claim; null on paper.",
  })
  clearinghouse_id: string | null;

  @ApiNullable('date-time', {
    example: '2026-11-21T13:51:16.926+00:00',
    description: 'When it went out; null while a `ready_to_mail` claim waits to be mailed.',
  })
  submitted_at: string | null;

  @ApiNullable('string', {
    example: 'The location LOC7K2M9QXA has no tax id.',
    description:
      'On paper: why the claim could not be filed electronically (what the location or the claim lacks, docs/api.md, Claims); null for an 837P.',
  })
  detail: string | null;
}

export class ClaimRenderingProviderResponse extends RenderingProviderIdentityResponse {
  @ApiNullable('string', {
    example: '152W00000X',
    description: "Null: the location's taxonomy code.",
  })
  taxonomy_code: string | null;
}

/** docs/api.md, Claim reports and remittances: what the last 835 that named the claim said. */
export class ClaimRemittanceResponse {
  @ApiProperty({
    example: '5b1f0d4e-2c1a-4f7e-9d51-0c3b7f7e2a10',
    description: 'The remittance (GET /api/auth/v1/remittances/{id}/).',
  })
  remittance_id: string;

  @ApiProperty({
    example: '1',
    description: 'CLP02: 1/2/3/19-21 processed, 4 denied, 22 reversal.',
  })
  status_code: string;

  @ApiProperty({ example: '180.0000', pattern: DECIMAL4, description: 'CLP04.' })
  paid_amount: string;

  @ApiProperty({ example: '40.0000', pattern: DECIMAL4, description: 'CLP05.' })
  patient_responsibility: string;

  @ApiProperty({ example: '250.0000', pattern: DECIMAL4, description: 'CLP03.' })
  charge: string;

  @ApiNullable('string', { example: 'VBP2026011500001', description: 'CLP07.' })
  payer_claim_control_number: string | null;

  @ApiNullable('date', { example: '2026-01-15', description: 'BPR16, else DTM*405.' })
  paid_at: string | null;

  @ApiProperty({ enum: ['ACH', 'BOP', 'CHK', 'FWT', 'NON'], example: 'ACH', description: 'BPR04.' })
  payment_method: string;

  @ApiProperty({ example: 'EFT20260115A', description: 'TRN02: the check or EFT trace number.' })
  trace_number: string;

  @ApiProperty({ type: [RemittanceAdjustmentResponse], description: 'Claim-level CAS.' })
  adjustments: RemittanceAdjustmentResponse[];

  @ApiProperty({
    type: [RemittanceRemarkResponse],
    description: "MIA/MOA and the lines' LQ remark codes (RARC) with their words.",
  })
  remarks: RemittanceRemarkResponse[];

  @ApiProperty({ type: [ClaimRemittanceServiceLineResponse] })
  service_lines: ClaimRemittanceServiceLineResponse[];
}
