import { ApiProperty } from '@nestjs/swagger';
import { ApiField, ApiNullable } from '@/platform/http/api-docs';
import { NEXT_ELIGIBLE_BASES, PERIOD_KINDS, SERVICE_SOURCES } from '../next-eligible.types';

/**
 * OpenAPI descriptions of a benefit item's frequency and dates as answers print them (docs/api.md,
 * Next eligible dates in results): the V2 results' items, and a plan design's frequency.
 */

export class FrequencyPeriodDoc {
  @ApiField('string', {
    enum: PERIOD_KINDS,
    example: 'rolling',
    description:
      '`rolling` (counted from the last service), `calendar_year` (resets on 1 January), ' +
      "`plan_year` (resets on the anniversary of the plan's begin date).",
  })
  kind: string;

  @ApiNullable('integer', {
    example: 24,
    description: 'Rolling: its length. Calendar and plan years: whole years in months (null: 12).',
  })
  months: number | null;
}

export class BenefitFrequencyDoc {
  @ApiField('integer', { example: 1, description: 'How many services the period allows.' })
  count: number;

  @ApiProperty({ type: FrequencyPeriodDoc })
  period: FrequencyPeriodDoc;

  @ApiProperty({
    type: [String],
    example: ['materials.contact_lenses'],
    description: 'Benefits whose services count against this one and the other way round.',
  })
  shared_with: string[];
}

export class LastServiceDoc {
  @ApiField('date', { example: '2025-08-31' })
  date: string;

  @ApiField('string', {
    enum: SERVICE_SOURCES,
    example: 'claim',
    description:
      "`payer` (the 271's DTP 304, a verifier's answer), `claim` (a claim the practice filed " +
      'through the service), `remittance` (its 835 paid the line) or `staff` (a staff entry).',
  })
  source: string;
}

export class NextEligibleDoc {
  @ApiNullable('date', { example: '2027-08-31', description: 'Null when it cannot be said.' })
  date: string | null;

  @ApiField('string', {
    enum: NEXT_ELIGIBLE_BASES,
    example: 'computed',
    description:
      "`payer_stated` (DTP 348, a verifier's answer), `computed` (from the frequency and the " +
      'services on record) or `unknown`.',
  })
  basis: string;

  @ApiProperty({
    type: [String],
    example: [
      'Frames: once every 24 months, counted from the last service.',
      'Services of contact lenses count against it too (shared benefits).',
      'The last service that counts was on 2025-08-31; a new one is allowed from 2027-08-31, ' +
        '24 months after it.',
    ],
    description: 'Plain sentences a person can check the date with.',
  })
  explanation: string[];
}
