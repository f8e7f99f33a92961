import { ApiProperty } from '@nestjs/swagger';
import { ApiField, ApiNullable } from '@/platform/http/api-docs';
import {
  type BenefitEligibility,
  NEXT_ELIGIBLE_BASES,
  type NextEligibleBasis,
  SERVICE_SOURCES,
  type ServiceSource,
} from '@/lib/benefits';

/** The answer of POST /api/auth/v1/benefits/next-eligible/ (docs/api.md, Next eligible dates). */

export class NextEligibleDateResponse {
  @ApiNullable('date', {
    example: '2027-03-10',
    description:
      'The first day, on or after `as_of`, the benefit can be had again (a payer-stated date as ' +
      'the payer states it); null when it cannot be said.',
  })
  date: string | null;

  @ApiField('string', {
    enum: NEXT_ELIGIBLE_BASES,
    example: 'computed',
    description: '`payer_stated`, `computed` (from the frequency and the services) or `unknown`.',
  })
  basis: NextEligibleBasis;

  @ApiProperty({
    type: [String],
    example: [
      'Frames: once every 24 months, counted from the last service.',
      'Services of contact lenses count against it too (shared benefits).',
      'The last service that counts was on 2025-03-10 (contact lenses); a new one is allowed ' +
        'from 2027-03-10, 24 months after it.',
    ],
    description: 'Plain sentences a person can check the date with.',
  })
  explanation: string[];
}

export class LastServiceResponse {
  @ApiField('date', { example: '2025-03-10' }) date: string;
  @ApiField('string', { enum: SERVICE_SOURCES, example: 'claim' }) source: ServiceSource;
}

export class NextEligibleBenefitResponse {
  @ApiProperty({ example: 'materials.frames' }) benefit_code: string;

  @ApiProperty({ type: NextEligibleDateResponse }) next_eligible: NextEligibleDateResponse;

  @ApiProperty({
    type: LastServiceResponse,
    nullable: true,
    description:
      'The latest service of the benefit itself (or one under it); services of shared ' +
      'benefits are named in the explanation. Null when none is on record.',
  })
  last_service: LastServiceResponse | null;
}

export class NextEligibleResponse {
  @ApiProperty({ type: [NextEligibleBenefitResponse], description: 'One per rule, in order.' })
  result: NextEligibleBenefitResponse[];

  static from(results: readonly BenefitEligibility[]): NextEligibleResponse {
    return {
      result: results.map((r) => ({
        benefit_code: r.benefit_code,
        next_eligible: {
          date: r.next_eligible.date,
          basis: r.next_eligible.basis,
          explanation: [...r.next_eligible.explanation],
        },
        last_service: r.last_service && {
          date: r.last_service.date,
          source: r.last_service.source,
        },
      })),
    };
  }
}
