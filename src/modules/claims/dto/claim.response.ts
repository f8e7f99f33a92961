import { ApiProperty } from '@nestjs/swagger';
import { ApiField, ApiNullable, ApiTimestamp, DECIMAL4 } from '@/common/api-docs';
import { SEX_CHOICES } from '@/modules/patients/dto/person-fields';
import { isoDate, isoWithOffset } from '@/common/dates';
import { formatDecimal4 } from '@/common/decimal';
import { LocationRef } from '@/modules/accounts/dto/location.dto';
import { claimTotalCost } from '../claim-charges';
import type { ClaimServiceLine } from '../claim-service-line.entity';
import {
  RemittanceAdjustmentResponse,
  RemittanceRemarkResponse,
} from '../reports/dto/remittance.response';
import { CLAIM_STATUSES } from '../claim.entity';
import type { Claim, ClaimAddress, ClaimPerson } from '../claim.entity';

export class ClaimAddressResponse {
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

  @ApiTimestamp()
  submitted_at: string;

  @ApiNullable('string', {
    example: 'The location LOC7K2M9QXA has no tax id.',
    description:
      'On paper: why the claim could not be filed electronically (what the location or the claim lacks, CONTRACT §15); null for an 837P.',
  })
  detail: string | null;
}

export class ClaimRenderingProviderResponse {
  @ApiProperty({ example: '1245319599' })
  npi: string;

  @ApiProperty({ example: 'Ana' })
  first_name: string;

  @ApiProperty({ example: 'Ruiz' })
  last_name: string;

  @ApiNullable('string', {
    example: '152W00000X',
    description: "Null: the location's taxonomy code.",
  })
  taxonomy_code: string | null;
}

export class ClaimRemittanceServiceLineResponse {
  @ApiProperty({ type: [String], example: ['92014'] })
  codes: string[];

  @ApiProperty({ example: '150.0000', pattern: DECIMAL4 })
  charge: string;

  @ApiProperty({ example: '110.0000', pattern: DECIMAL4 })
  paid: string;

  @ApiProperty({ type: [RemittanceAdjustmentResponse] })
  adjustments: RemittanceAdjustmentResponse[];
}

/** CONTRACT §16: what the last 835 that named the claim said. */
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

export class ClaimResponse {
  @ApiProperty({ example: 'CLM8D3K6TQW' })
  code: string;

  @ApiProperty({
    enum: CLAIM_STATUSES,
    example: 'ready',
    description:
      '`ready` → `submitted` → `accepted` | `rejected` → `paid` | `denied`; `submission_failed` ' +
      'when the clearinghouse refuses the file (retried when the refusal is transient). A claim ' +
      'with no electronic route goes `ready` → `ready_to_mail` (its CMS-1500 form waits to be ' +
      'mailed) → `submitted` when POST .../mailed/ (or the web button) says it was. An 835 ' +
      'reversal (CLP02 22) takes a `paid` or `denied` claim to `reversed`; a later 835 pays or ' +
      'denies it again (CONTRACT §16).',
  })
  status: string;

  @ApiProperty({
    type: [ClaimStatusChangeResponse],
    description: 'Every status the claim has had, oldest first (the first is `ready`).',
  })
  status_history: ClaimStatusChangeResponse[];

  @ApiProperty({
    type: ClaimSubmissionResponse,
    nullable: true,
    description:
      'How and when the claim went out; null until it did (a `ready_to_mail` claim has not).',
  })
  submission: ClaimSubmissionResponse | null;

  @ApiProperty({
    type: ClaimRemittanceResponse,
    nullable: true,
    description:
      'What the last 835 naming the claim (CLP01 = the claim code) said, CARC/RARC with their words; null until one did.',
  })
  remittance: ClaimRemittanceResponse | null;

  @ApiProperty({ type: ClaimPersonResponse })
  patient: ClaimPersonResponse;

  @ApiProperty({ type: ClaimPrimaryMemberResponse })
  primary_member: ClaimPrimaryMemberResponse;

  @ApiProperty({ type: [ClaimServiceResponse] })
  services: ClaimServiceResponse[];

  @ApiProperty({ example: '310.0000', pattern: DECIMAL4, description: 'Four decimals.' })
  paid_amount: string;

  @ApiProperty({
    example: '310.0000',
    pattern: DECIMAL4,
    description: 'Sum of the line charges (cost × quantity), four decimals (computed exactly).',
  })
  total_cost: string;

  @ApiProperty({ example: false })
  accept_assignment: boolean;

  @ApiProperty({
    type: 'object',
    nullable: true,
    additionalProperties: true,
    example: { account_number: 'CHART-20931' },
  })
  metadata: Record<string, unknown> | null;

  @ApiProperty({
    type: ClaimRenderingProviderResponse,
    nullable: true,
    description: "The claim's own rendering provider; null: the location's.",
  })
  rendering_provider: ClaimRenderingProviderResponse | null;

  @ApiProperty({ example: 'LOC7K2M9QXA', description: 'Code of `location`.' })
  location_code: string;

  @ApiProperty({ type: LocationRef })
  location: LocationRef;

  @ApiTimestamp()
  created_at: string;

  static from(claim: Claim, services: ClaimServiceLine[], location: LocationRef): ClaimResponse {
    const lines = [...services].sort((a, b) => a.position - b.position);
    const costs = lines.map((s) => ({ cost: formatDecimal4(s.cost)!, quantity: s.quantity }));
    return {
      code: claim.code,
      status: claim.status,
      status_history: (claim.statusHistory ?? []).map((h) => ({
        status: h.status,
        at: h.at,
        detail: h.detail ?? null,
      })),
      submission:
        claim.submissionChannel && claim.submittedAt
          ? {
              channel: claim.submissionChannel,
              clearinghouse_id: claim.clearinghouseId ?? null,
              submitted_at: isoWithOffset(claim.submittedAt),
              detail: claim.submissionDetail ?? null,
            }
          : null,
      remittance: claim.remittance ?? null,
      patient: person(claim.patient),
      primary_member: { ...person(claim.primaryMember), insurer_code: claim.insurerCode },
      services: lines.map((s) => ({
        codes: s.codes,
        date: isoDate(s.serviceDate)!,
        quantity: s.quantity,
        cost: formatDecimal4(s.cost)!,
        diagnosis_codes: s.diagnosisCodes ?? [],
      })),
      paid_amount: formatDecimal4(claim.paidAmount)!,
      total_cost: claimTotalCost(costs),
      accept_assignment: claim.acceptAssignment,
      metadata: claim.metadata ?? null,
      rendering_provider: claim.renderingProvider
        ? {
            npi: claim.renderingProvider.npi,
            first_name: claim.renderingProvider.first_name,
            last_name: claim.renderingProvider.last_name,
            taxonomy_code: claim.renderingProvider.taxonomy_code ?? null,
          }
        : null,
      location_code: location.code,
      location,
      created_at: isoWithOffset(claim.createdAt),
    };
  }
}

function person(p: ClaimPerson): ClaimPersonResponse {
  return {
    first_name: p.first_name,
    last_name: p.last_name,
    dob: p.dob,
    type: p.type ?? null,
    sex: p.sex ?? null,
    member_id: p.member_id ?? null,
    ssn_last_four: p.ssn_last_four ?? null,
    email: p.email ?? null,
    phone: p.phone ?? null,
    address: p.address ? address(p.address) : null,
  };
}

function address(a: ClaimAddress): ClaimAddressResponse {
  return {
    line1: a.line1,
    line2: a.line2 ?? null,
    city: a.city,
    zipcode: a.zipcode,
    state: a.state,
    recipient: a.recipient ?? null,
  };
}

export class ClaimListResponse {
  @ApiProperty({ type: [ClaimResponse], description: 'Newest first.' })
  result: ClaimResponse[];

  @ApiNullable('string', {
    example: null,
    description: 'Pass as `cursor` for the next page; null on the last page.',
  })
  next_cursor: string | null;
}
