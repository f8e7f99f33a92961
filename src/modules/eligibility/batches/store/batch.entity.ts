import { Column, Entity } from 'typeorm';
import { AccountRecord, CreatedAtColumn, TimeColumn } from '@/platform/db/columns';

export type BatchStatus = 'processing' | 'complete';

/**
 * A batch of eligibility requests (docs/api.md, Batches). The counters move in the transaction that
 * finishes each item (BatchCompletion), so they always add up to `itemCount` and the batch
 * completes exactly once.
 */
@Entity('eligibility_batches')
export class EligibilityBatch extends AccountRecord {
  @Column({ type: 'varchar', length: 256 })
  uid: string;

  @Column({ type: 'varchar', length: 16 })
  status: BatchStatus;

  @Column({ name: 'item_count', type: 'integer' })
  itemCount: number;

  @Column({ name: 'processing_count', type: 'integer' })
  processingCount: number;

  @Column({ name: 'complete_count', type: 'integer' })
  completeCount: number;

  @Column({ name: 'error_count', type: 'integer' })
  errorCount: number;

  /** The GET body at completion: what `batch` webhooks received. */
  @Column({ type: 'text', nullable: true })
  body: string | null;

  @CreatedAtColumn()
  createdAt: Date;

  @TimeColumn('completed_at', { nullable: true })
  completedAt: Date | null;
}
