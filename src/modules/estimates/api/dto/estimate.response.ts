import { ApiProperty } from '@nestjs/swagger';
import { ApiField, ApiNullable, DECIMAL4 } from '@/platform/http/api-docs';
import type { Estimate, EstimateGroup, EstimateLine } from '../../domain/estimate.types';

/** OpenAPI description of the answer (docs/api.md, Estimates); money as four-decimal strings. */

export class EstimateGroupResponse implements EstimateGroup {
  @ApiProperty({
    example: 'exam.routine',
    description: 'The benefit of the group: a package item, or the one benefit of its lines.',
  })
  benefit_code: string;

  @ApiProperty({
    pattern: DECIMAL4,
    example: '0.0000',
    description: 'The group copayment on the network (once).',
  })
  copayment: string;

  @ApiProperty({
    pattern: DECIMAL4,
    example: '120.0000',
    description: 'Σ charges − copayment, at least 0.',
  })
  max_after_copayment: string;

  @ApiProperty({
    pattern: DECIMAL4,
    example: '45.0000',
    description: 'Σ capped amounts of the lines.',
  })
  sum_of_caps: string;

  @ApiProperty({
    pattern: DECIMAL4,
    example: '45.0000',
    description: 'min(max_after_copayment, sum_of_caps), at least 0.',
  })
  reimbursement: string;
}

export class EstimateLineResponse implements EstimateLine {
  @ApiField('integer', {
    example: 0,
    minimum: 0,
    description: 'Position of the line in `services`.',
  })
  index: number;

  @ApiProperty({ type: [String], example: ['92014'] })
  codes: string[];

  @ApiNullable('string', {
    example: 'exam.routine',
    description: 'The benefit the line was estimated on; null when none of its codes maps.',
  })
  benefit_code: string | null;

  @ApiProperty({ pattern: DECIMAL4, example: '120.0000', description: 'Cost of one unit.' })
  cost: string;

  @ApiField('integer', { example: 1, minimum: 1 })
  quantity: number;

  @ApiProperty({ pattern: DECIMAL4, example: '120.0000', description: 'cost × quantity.' })
  charge: string;

  @ApiNullable('string', {
    pattern: DECIMAL4,
    example: '45.0000',
    description: 'The allowance left for this line on the network; null where none applies.',
  })
  cap: string | null;

  @ApiProperty({
    pattern: DECIMAL4,
    example: '45.0000',
    description: 'min(charge, cap), less coinsurance; 0 without a cap.',
  })
  capped: string;

  @ApiProperty({
    type: [String],
    example: [
      '92014 maps to exam.routine',
      'out-of-network allowance $45.00 on exam, inherited by exam.routine',
      'charge $120.00 is over the cap: $45.00 counts',
    ],
    description: 'Why the cap is what it is, one reason per entry.',
  })
  notes: string[];
}

export class EstimateResponse implements Estimate {
  @ApiProperty({ enum: ['oon', 'inn'], example: 'oon' })
  network: 'oon' | 'inn';

  @ApiProperty({ pattern: DECIMAL4, example: '410.0000', description: 'Σ charges.' })
  total_cost: string;

  @ApiProperty({ pattern: DECIMAL4, example: '145.0000', description: 'Σ group reimbursements.' })
  estimated_reimbursement: string;

  @ApiProperty({
    pattern: DECIMAL4,
    example: '265.0000',
    description: 'total_cost − estimated_reimbursement.',
  })
  patient_responsibility: string;

  @ApiProperty({ type: [EstimateGroupResponse] })
  groups: EstimateGroupResponse[];

  @ApiProperty({ type: [EstimateLineResponse] })
  lines: EstimateLineResponse[];
}
