import { ApiProperty } from '@nestjs/swagger';
import { ApiField, ApiTimestamp } from '@/platform/http/api-docs';

/** Insurer health's answer (docs/api.md, Insurer health). */

class InsurerLastErrorDoc {
  @ApiField('string', {
    enum: ['unavailable', 'unexpected', 'rejected'],
    example: 'unavailable',
    description:
      'The outcome of the latest call the insurer did not answer: `unavailable` (no answer in ' +
      'time, the clearinghouse or payer down or throttling), `rejected` (the insurer refused the ' +
      'question: the practice’s setup), `unexpected` (an answer the service could not read).',
  })
  kind: string;
  @ApiTimestamp({ example: '2026-11-21T13:51:16.926Z', description: 'When that call ended.' })
  at: string;
}

export class InsurerHealthEntryDoc {
  @ApiProperty({ example: 'insurer:vision:davis_vision' }) insurer_code: string;
  @ApiProperty({ example: 'Davis Vision' }) name: string;
  @ApiField('integer', {
    minimum: 0,
    example: 12,
    description:
      'The account’s eligibility requests (searches and details) that called the insurer in the window.',
  })
  searches: number;
  @ApiField('integer', {
    minimum: 0,
    example: 14,
    description: 'The calls themselves: each attempt of a retried request counts.',
  })
  calls: number;
  @ApiProperty({
    type: 'number',
    nullable: true,
    minimum: 0,
    maximum: 1,
    example: 0.857,
    description:
      'Of the calls, the share the insurer answered (a plan, or no such member), to 3 decimals; ' +
      'null when there was no call.',
  })
  answered_share: number | null;
  @ApiProperty({
    type: 'number',
    nullable: true,
    minimum: 0,
    example: 0.42,
    description: 'The median duration of the calls, in seconds (3 decimals); null when none.',
  })
  p50_seconds: number | null;
  @ApiProperty({
    type: 'number',
    nullable: true,
    minimum: 0,
    example: 1.873,
    description:
      'The 95th percentile of the calls’ durations (interpolated), in seconds (3 decimals); null when none.',
  })
  p95_seconds: number | null;
  @ApiProperty({
    type: InsurerLastErrorDoc,
    nullable: true,
    description: 'The latest call of the window that the insurer did not answer; null when none.',
  })
  last_error: InsurerLastErrorDoc | null;
}

export class InsurerHealthResponse {
  @ApiField('integer', { example: 3600, description: 'The window, in seconds, ending at `as_of`.' })
  window_seconds: number;
  @ApiTimestamp({ example: '2026-11-21T14:00:00.000Z' }) as_of: string;
  @ApiProperty({ type: [InsurerHealthEntryDoc] }) result: InsurerHealthEntryDoc[];
}
