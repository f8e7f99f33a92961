import { ApiProperty } from '@nestjs/swagger';
import { ApiField, ApiNullable, ApiTimestamp } from '@/platform/http/api-docs';
import { NextCursorDoc } from '@/platform/http/pagination/page-query';
import { formatInstant } from '@/platform/kernel/time';
import type { EligibilityBatch } from '../../batches/store/batch.entity';

export class BatchCreatedResponse {
  @ApiProperty({ example: 'schedule-2026-11-22' })
  batch_uid: string;

  @ApiField('string', { enum: ['processing'], example: 'processing' })
  status: 'processing';

  @ApiField('integer', { example: 10000, description: 'How many items the batch holds.' })
  count: number;
}

export class BatchCounts {
  @ApiField('integer', { example: 120, minimum: 0 })
  processing: number;

  @ApiField('integer', { example: 9870, minimum: 0 })
  complete: number;

  @ApiField('integer', { example: 10, minimum: 0 })
  error: number;
}

/** The batch's GET body; also what `batch` webhooks receive when it completes. */
export class BatchResponse {
  @ApiProperty({ example: 'schedule-2026-11-22' })
  batch_uid: string;

  @ApiField('string', {
    enum: ['processing', 'complete'],
    example: 'processing',
    description: '`complete` once every item is `complete` or `error`.',
  })
  status: 'processing' | 'complete';

  @ApiField('integer', { example: 10000 })
  count: number;

  @ApiProperty({ type: BatchCounts, description: 'Items by status; they add up to `count`.' })
  counts: BatchCounts;

  @ApiTimestamp()
  created_at: string;

  @ApiNullable('date-time', { example: null, description: 'When the last item finished.' })
  completed_at: string | null;

  static from(b: EligibilityBatch): BatchResponse {
    return {
      batch_uid: b.uid,
      status: b.status,
      count: b.itemCount,
      counts: { processing: b.processingCount, complete: b.completeCount, error: b.errorCount },
      created_at: formatInstant(b.createdAt, 'api'),
      completed_at: b.completedAt ? formatInstant(b.completedAt, 'api') : null,
    };
  }
}

export class BatchItemResponse {
  @ApiProperty({
    example: 'visit-2026-11-22-0001',
    description: 'The item’s eligibility request: GET /api/auth/v2/eligibility/{request_uid}/.',
  })
  request_uid: string;

  @ApiField('string', { enum: ['processing', 'complete', 'error'], example: 'complete' })
  status: 'processing' | 'complete' | 'error';

  @ApiNullable('string', { enum: ['insurer_problem', 'unexpected_error'], example: null })
  error_code: string | null;
}

export class BatchItemsPage {
  @ApiProperty({ type: [BatchItemResponse], description: 'In the order the items were sent.' })
  result: BatchItemResponse[];

  @NextCursorDoc()
  next_cursor: string | null;
}
