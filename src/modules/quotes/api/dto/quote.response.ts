import { ApiProperty } from '@nestjs/swagger';
import { MATERIALS_SOURCES, type MaterialsSource } from '@/lib/benefits';
import { ApiNullable, DECIMAL4 } from '@/platform/http/api-docs';
import type { NotEstimableLine, QuoteLine } from '../../domain/quote.types';
import type { QuoteBody } from '../../domain/quotes.service';

/** OpenAPI description of a quote (docs/api.md, The counter); money as four-decimal strings. */

const money = (example: string, description: string) =>
  ApiProperty({ pattern: DECIMAL4, example, description });

export class QuoteLineResponse implements QuoteLine {
  @ApiProperty({
    example: 'frame',
    description: "`frame`, `lenses`, the option's name, `contact_lenses` or `fitting`.",
  })
  item: string;

  @ApiNullable('string', { example: 'V2020', description: "The list's procedure code, if any." })
  code: string | null;

  @money('189.0000', 'The retail price.')
  retail: string;

  @money('157.8000', 'What the patient does not pay under the plan: retail − patient_pays.')
  plan_covers: string;

  @money('31.2000', 'What the patient pays.')
  patient_pays: string;

  @ApiProperty({
    example: 'allowance $150.00, then 20 % off the $39.00 over it',
    description: 'Which step of the rule applied, with its figures (or why it covers nothing).',
  })
  reason: string;
}

export class NotEstimableResponse implements NotEstimableLine {
  @ApiProperty({ example: 'photochromic' })
  item: string;

  @money('120.0000', 'The retail price.')
  retail: string;

  @ApiProperty({ example: 'the price list states nothing for photochromic' })
  reason: string;
}

export class QuoteResponse implements QuoteBody {
  @ApiProperty({
    format: 'uuid',
    example: '3f0c2a9e-8d6b-4c1e-9a57-2b4d6e8f0a13',
    description: 'The quote, for its GET and its printed page.',
  })
  id: string;

  @ApiProperty({ type: [QuoteLineResponse] })
  lines: QuoteLineResponse[];

  @money('664.0000', 'Σ retail of `lines`.')
  retail: string;

  @money('477.8000', 'Σ plan_covers of `lines`.')
  plan_covers: string;

  @money('186.2000', 'Σ patient_pays of `lines`.')
  patient_pays: string;

  @ApiProperty({
    type: [NotEstimableResponse],
    description: 'Lines the list does not state: never guessed, out of the totals.',
  })
  not_estimable: NotEstimableResponse[];

  @ApiNullable('string', {
    enum: MATERIALS_SOURCES,
    example: 'payer',
    description: "Where the plan's price list comes from; null when the plan has none.",
  })
  materials_source: MaterialsSource | null;

  @ApiProperty({
    type: [String],
    description: 'What the quote says as a whole (which side of an `in_lieu_of` pair is covered).',
  })
  notes: string[];
}
