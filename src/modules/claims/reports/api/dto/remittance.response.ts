import { ApiProperty } from '@nestjs/swagger';
import { ApiField, ApiNullable, ApiTimestamp, DECIMAL4 } from '@/platform/http/api-docs';
import { NextCursorDoc } from '@/platform/http/pagination/page-query';
import { formatInstant } from '@/platform/kernel/time';
import { formatDecimal4 } from '@/platform/kernel/decimal';
import type { Remittance } from '../../store/remittance.entity';

export class RemittanceAdjustmentResponse {
  @ApiProperty({
    enum: ['CO', 'CR', 'OA', 'PI', 'PR'],
    example: 'CO',
    description:
      'CAS01: CO contractual obligation, CR correction/reversal, OA other, PI payer initiated, PR patient responsibility.',
  })
  group: string;

  @ApiProperty({ example: '45', description: 'The Claim Adjustment Reason Code (CARC).' })
  reason_code: string;

  @ApiProperty({ example: '15.0000', pattern: DECIMAL4 })
  amount: string;

  @ApiProperty({
    example:
      'Charge exceeds fee schedule/maximum allowable or contracted/legislated fee arrangement.',
    description: 'The CARC\'s words from the shipped table; "Unknown code X" for a code it lacks.',
  })
  description: string;
}

export class RemittanceRemarkResponse {
  @ApiProperty({ example: 'N130', description: 'A Remittance Advice Remark Code (RARC).' })
  code: string;

  @ApiProperty({
    example:
      'Consult plan benefit documents/guidelines for information about restrictions for this service.',
  })
  description: string;
}

/** A service line (SVC) of a claim's `remittance`. */
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

/** The same line in a remittance's claims, its codes described. */
export class RemittanceServiceLineResponse extends ClaimRemittanceServiceLineResponse {}
ApiProperty({ type: [String], description: 'SVC01: the procedure code, then its modifiers.' })(
  RemittanceServiceLineResponse.prototype,
  'codes',
);

export class RemittanceClaimResponse {
  @ApiNullable('string', {
    example: 'CLM8D3K6TQW',
    description: 'The claim CLP01 names, or null: no claim of the account has that code.',
  })
  claim_code: string | null;

  @ApiProperty({ example: 'CLM8D3K6TQW', description: 'CLP01 as the payer sent it.' })
  patient_control_number: string;

  @ApiProperty({
    example: '1',
    description:
      'CLP02: 1/2/3/19-21 processed (paid, even at zero), 4 denied, 22 reversal of a previous payment, 23 not our claim, 25 predetermination.',
  })
  status_code: string;

  @ApiProperty({ example: '250.0000', pattern: DECIMAL4, description: 'CLP03.' })
  charge: string;

  @ApiProperty({ example: '180.0000', pattern: DECIMAL4, description: 'CLP04.' })
  paid_amount: string;

  @ApiProperty({ example: '40.0000', pattern: DECIMAL4, description: 'CLP05.' })
  patient_responsibility: string;

  @ApiNullable('string', { example: 'VBP2026011500001', description: 'CLP07.' })
  payer_claim_control_number: string | null;

  @ApiProperty({ example: 'JANE DOE', description: 'NM1*QC: the patient as the payer names them.' })
  patient_name: string;

  @ApiProperty({ type: [RemittanceAdjustmentResponse], description: 'Claim-level CAS.' })
  adjustments: RemittanceAdjustmentResponse[];

  @ApiProperty({ type: [RemittanceRemarkResponse] })
  remarks: RemittanceRemarkResponse[];

  @ApiProperty({ type: [RemittanceServiceLineResponse] })
  service_lines: RemittanceServiceLineResponse[];
}

export class RemittancePayerResponse {
  @ApiProperty({
    example: '1512345678',
    description: "TRN03 (the payer's identifier), else REF*2U, else N1*PR's id.",
  })
  id: string;

  @ApiProperty({ example: 'VISION BENEFITS PLAN' })
  name: string;
}

export class ProviderAdjustmentResponse {
  @ApiProperty({ example: 'WO', description: 'PLB03-1: WO overpayment recovery, L6 interest, ...' })
  reason: string;

  @ApiProperty({ example: 'VBP2025OVERPAY' })
  reference: string;

  @ApiProperty({
    example: '10.0000',
    pattern: DECIMAL4,
    description: 'Positive: taken from the payment; negative: added to it.',
  })
  amount: string;

  @ApiField('date', { example: '2026-12-31' })
  fiscal_period_end: string;
}

export class RemittanceSummaryResponse {
  @ApiProperty({ example: '5b1f0d4e-2c1a-4f7e-9d51-0c3b7f7e2a10' })
  id: string;

  @ApiProperty({ type: RemittancePayerResponse })
  payer: RemittancePayerResponse;

  @ApiProperty({ example: '262.5000', pattern: DECIMAL4, description: 'BPR02.' })
  payment_amount: string;

  @ApiProperty({
    enum: ['ACH', 'BOP', 'CHK', 'FWT', 'NON'],
    example: 'ACH',
    description: 'BPR04: ACH (EFT), CHK (check), BOP, FWT (wire), NON (no payment).',
  })
  payment_method: string;

  @ApiProperty({ example: 'EFT20260115A', description: 'TRN02: the check or EFT trace number.' })
  trace_number: string;

  @ApiNullable('date', { example: '2026-01-15', description: 'BPR16, else DTM*405.' })
  paid_at: string | null;

  @ApiField('integer', { example: 3, minimum: 0 })
  claims_matched: number;

  @ApiField('integer', { example: 1, minimum: 0 })
  claims_unmatched: number;

  @ApiTimestamp({ description: 'When the service received it.' })
  created_at: string;

  static from(r: Remittance): RemittanceSummaryResponse {
    return {
      id: r.id,
      payer: { id: r.payerId, name: r.payerName },
      payment_amount: formatDecimal4(r.paymentAmount)!,
      payment_method: r.paymentMethod,
      trace_number: r.traceNumber,
      paid_at: r.paidAt,
      claims_matched: r.claimsMatched,
      claims_unmatched: r.claimsUnmatched,
      created_at: formatInstant(r.createdAt, 'api'),
    };
  }
}

export class RemittanceResponse extends RemittanceSummaryResponse {
  @ApiProperty({ type: [RemittanceClaimResponse], description: "Every CLP, in the 835's order." })
  claims: RemittanceClaimResponse[];

  @ApiProperty({ type: [ProviderAdjustmentResponse], description: 'PLB.' })
  provider_adjustments: ProviderAdjustmentResponse[];

  static override from(r: Remittance): RemittanceResponse {
    return {
      ...RemittanceSummaryResponse.from(r),
      claims: r.claims,
      provider_adjustments: r.providerAdjustments,
    };
  }
}

export class RemittanceListResponse {
  @ApiProperty({ type: [RemittanceSummaryResponse], description: 'Newest first.' })
  result: RemittanceSummaryResponse[];

  @NextCursorDoc()
  next_cursor: string | null;
}

export class ClaimReportAcceptedResponse {
  @ApiProperty({ example: '0d9b7c35-6a41-4f0c-8a7e-2f1e0b9d3c11' })
  id: string;

  @ApiProperty({
    enum: ['999', 'TA1', '277', '835'],
    example: '835',
    description: '`277` is a 277CA claim acknowledgement.',
  })
  type: string;

  @ApiField('integer', {
    example: 3,
    minimum: 0,
    description: "Claims (or 837P interchanges) the report names that are the account's.",
  })
  claims_matched: number;

  @ApiField('integer', {
    example: 1,
    minimum: 0,
    description: 'Claims the report names that match no claim.',
  })
  claims_unmatched: number;
}
