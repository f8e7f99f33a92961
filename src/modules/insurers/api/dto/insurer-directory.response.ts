import { ApiProperty } from '@nestjs/swagger';
import { ApiField, ApiNullable } from '@/platform/http/api-docs';

/** The insurer directory's answer (docs/api.md, The insurer directory). */

class PayerIdsDoc {
  @ApiNullable('string', { example: 'QKZWY' }) eligibility: string | null;
  @ApiNullable('string', { example: 'QKZWY' }) claims: string | null;
}

export class InsurerDirectoryEntryDoc {
  @ApiProperty({ example: 'insurer:vision:cigna_vision' }) insurer_code: string;
  @ApiProperty({ example: 'Cigna Vision' }) name: string;
  @ApiProperty({ type: [String], example: ['Cigna Vision (EyeMed)'] }) aliases: string[];
  @ApiNullable('string', { example: 'insurer:vision:eye_med' }) network_parent: string | null;
  @ApiField('string', { enum: ['sandbox', 'x12', 'assisted', 'none'], example: 'assisted' })
  eligibility: string;
  @ApiField('string', { enum: ['x12', 'paper'], example: 'paper' }) claims: string;
  @ApiField('string', { enum: ['276', 'reports', 'none'], example: 'none' }) claim_status: string;
  @ApiField('string', { enum: ['835', 'none'], example: 'none' }) remittance: string;
  @ApiProperty({ type: PayerIdsDoc }) payer_ids: PayerIdsDoc;
  @ApiField('string', { enum: ['none', 'ok', 'needs_attention'], example: 'ok' })
  credentials: string;
  @ApiNullable('string', { example: 'https://www.eyemedinfocus.com/' }) portal_url: string | null;
  /**
   * Sent on entries whose `eligibility` is `assisted` only; absent on every other entry (the
   * figures are of the tasks people answer, docs/api.md, The insurer directory).
   */
  @ApiField('integer', {
    required: false,
    minimum: 0,
    example: 3,
    description:
      'Assisted insurers only (absent on the others): the account’s verification tasks of this ' +
      'insurer that are `queued`, `in_progress` or `needs_info`.',
  })
  tasks_open?: number;
  @ApiProperty({
    type: 'number',
    nullable: true,
    required: false,
    minimum: 0,
    example: 42.5,
    description:
      'Assisted insurers only (absent on the others): the median, over the account’s tasks of ' +
      'this insurer answered (completed or failed) in the last 30 days, of the minutes from a ' +
      'task’s creation to its answer, rounded to one decimal; null when none was answered.',
  })
  median_minutes_to_answer?: number | null;
}

export class InsurerDirectoryResponse {
  @ApiProperty({ type: [InsurerDirectoryEntryDoc] }) result: InsurerDirectoryEntryDoc[];
}
