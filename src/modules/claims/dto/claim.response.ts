import { ApiProperty } from '@nestjs/swagger';
import { isoDate, isoWithOffset } from '@/common/dates';
import { formatDecimal4, sumDecimals } from '@/common/decimal';
import { LocationRef } from '@/modules/accounts/dto/location.dto';
import type { ClaimServiceLine } from '../claim-service-line.entity';
import type { Claim, ClaimAddress, ClaimPerson } from '../claim.entity';

export class ClaimAddressResponse {
  @ApiProperty({ example: '1208 Congress Ave' })
  line1: string;

  @ApiProperty({ type: String, nullable: true, example: 'Apt 4B' })
  line2: string | null;

  @ApiProperty({ example: 'Austin' })
  city: string;

  @ApiProperty({ example: '78701' })
  zipcode: string;

  @ApiProperty({ example: 'TX' })
  state: string;

  @ApiProperty({ type: String, nullable: true, example: null })
  recipient: string | null;
}

export class ClaimPersonResponse {
  @ApiProperty({ example: 'Maria' })
  first_name: string;

  @ApiProperty({ example: 'Gonzalez' })
  last_name: string;

  @ApiProperty({ format: 'date', example: '1986-04-12' })
  dob: string;

  @ApiProperty({ type: String, nullable: true, example: 'self' })
  type: string | null;

  @ApiProperty({ type: String, nullable: true, example: 'female' })
  sex: string | null;

  @ApiProperty({ type: String, nullable: true, example: 'VSP104882211' })
  member_id: string | null;

  @ApiProperty({ type: String, nullable: true, example: '4321' })
  ssn_last_four: string | null;

  @ApiProperty({ type: String, nullable: true, example: 'maria.gonzalez@example.com' })
  email: string | null;

  @ApiProperty({ type: String, nullable: true, example: '512-555-0142' })
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

  @ApiProperty({ format: 'date', example: '2026-11-14' })
  date: string;

  @ApiProperty({ example: 2 })
  quantity: number;

  @ApiProperty({ example: '90.0000', description: 'Four decimals.' })
  cost: string;

  @ApiProperty({ type: [String], example: ['H52.13'], description: '`[]` when none were given.' })
  diagnosis_codes: string[];
}

export class ClaimResponse {
  @ApiProperty({ example: 'CLM8D3K6TQW' })
  code: string;

  @ApiProperty({ enum: ['ready'], example: 'ready' })
  status: string;

  @ApiProperty({ type: ClaimPersonResponse })
  patient: ClaimPersonResponse;

  @ApiProperty({ type: ClaimPrimaryMemberResponse })
  primary_member: ClaimPrimaryMemberResponse;

  @ApiProperty({ type: [ClaimServiceResponse] })
  services: ClaimServiceResponse[];

  @ApiProperty({ example: '310.0000', description: 'Four decimals.' })
  paid_amount: string;

  @ApiProperty({
    example: '310.0000',
    description: 'Sum of the service costs, four decimals (computed exactly).',
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

  @ApiProperty({ example: 'LOC7K2M9QXA', description: 'Code of `location`.' })
  location_code: string;

  @ApiProperty({ type: LocationRef })
  location: LocationRef;

  @ApiProperty({ example: '2026-11-21T13:51:16.926+00:00' })
  created_at: string;

  static from(claim: Claim, services: ClaimServiceLine[], location: LocationRef): ClaimResponse {
    const lines = [...services].sort((a, b) => a.position - b.position);
    return {
      code: claim.code,
      status: claim.status,
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
      total_cost: sumDecimals(lines.map((s) => formatDecimal4(s.cost)!)),
      accept_assignment: claim.acceptAssignment,
      metadata: claim.metadata ?? null,
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

  @ApiProperty({
    type: String,
    nullable: true,
    example: null,
    description: 'Pass as `cursor` for the next page; null on the last page.',
  })
  next_cursor: string | null;
}
