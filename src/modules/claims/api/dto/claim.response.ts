import { ApiProperty } from '@nestjs/swagger';
import { ApiTimestamp, DECIMAL4 } from '@/platform/http/api-docs';
import { NextCursorDoc } from '@/platform/http/pagination/page-query';
import { isoDate, formatInstant } from '@/platform/kernel/time';
import { formatDecimal4 } from '@/platform/kernel/decimal';
import { type Location, LocationRef } from '@/modules/accounts';
import { claimWarnings } from '../../domain/claim-billing-provider';
import { claimTotalCost } from '../../domain/claim-charges';
import type { ClaimServiceLine } from '../../store/claim-service-line.entity';
import { CLAIM_STATUSES } from '../../store/claim.entity';
import type { Claim, ClaimRemittance, RemittanceAdjustment } from '../../store/claim.entity';
import { claimPerson } from '../../domain/claim-person';
import {
  ClaimPersonResponse,
  ClaimPrimaryMemberResponse,
  ClaimRemittanceResponse,
  ClaimRenderingProviderResponse,
  ClaimServiceResponse,
  ClaimStatusChangeResponse,
  ClaimSubmissionResponse,
} from './claim-parts.response';

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
      'denies it again (docs/api.md, Claim reports and remittances).',
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
      'How and when the claim went out; null until it did, but for a `ready_to_mail` claim: ' +
      'channel `paper`, `submitted_at` null until it is mailed, `detail` why it goes on paper.',
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

  @ApiProperty({
    type: [String],
    example: [],
    description:
      'What the claim will lack, in sentences, from its location as it is now; `[]` when nothing. ' +
      'A location without an address: boxes 32 and 33 of the claim form print none, and the ' +
      'claim can only go on paper.',
  })
  warnings: string[];

  static from(claim: Claim, services: ClaimServiceLine[], location: Location): ClaimResponse {
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
      submission: submissionOf(claim),
      remittance: claim.remittance ? remittanceView(claim.remittance) : null,
      patient: claimPerson(claim.patient),
      primary_member: { ...claimPerson(claim.primaryMember), insurer_code: claim.insurerCode },
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
      location: LocationRef.from(location),
      created_at: formatInstant(claim.createdAt, 'api'),
      warnings: claimWarnings(location),
    };
  }
}

export class ClaimListResponse {
  @ApiProperty({ type: [ClaimResponse], description: 'Newest first.' })
  result: ClaimResponse[];

  @NextCursorDoc()
  next_cursor: string | null;
}

const adjustmentView = (a: RemittanceAdjustment): RemittanceAdjustment => ({
  group: a.group,
  reason_code: a.reason_code,
  amount: a.amount,
  description: a.description,
});

/**
 * The claim's `remittance` with its keys in the documented order, wherever the object came
 * from: read back from its jsonb column, PostgreSQL orders them its own way (shortest first),
 * and the `claim.status_changed` body, built before that, must be the GET's bytes
 * (docs/api.md, Webhooks).
 */
function remittanceView(r: ClaimRemittance): ClaimRemittance {
  return {
    remittance_id: r.remittance_id,
    status_code: r.status_code,
    charge: r.charge,
    paid_amount: r.paid_amount,
    patient_responsibility: r.patient_responsibility,
    payer_claim_control_number: r.payer_claim_control_number ?? null,
    paid_at: r.paid_at ?? null,
    payment_method: r.payment_method,
    trace_number: r.trace_number,
    adjustments: (r.adjustments ?? []).map(adjustmentView),
    remarks: (r.remarks ?? []).map((m) => ({ code: m.code, description: m.description })),
    service_lines: (r.service_lines ?? []).map((l) => ({
      codes: l.codes,
      charge: l.charge,
      paid: l.paid,
      adjustments: (l.adjustments ?? []).map(adjustmentView),
    })),
  };
}

/**
 * docs/api.md, Claims: how the claim goes out. A `ready_to_mail` claim has its route already
 * (paper, the claim form; `detail` says why), not yet a time it went.
 */
function submissionOf(claim: Claim): ClaimSubmissionResponse | null {
  if (claim.submissionChannel && claim.submittedAt)
    return {
      channel: claim.submissionChannel,
      clearinghouse_id: claim.clearinghouseId ?? null,
      submitted_at: formatInstant(claim.submittedAt, 'api'),
      detail: claim.submissionDetail ?? null,
    };
  if (claim.status === 'ready_to_mail')
    return {
      channel: 'paper',
      clearinghouse_id: null,
      submitted_at: null,
      detail: claim.submissionDetail ?? null,
    };
  return null;
}
