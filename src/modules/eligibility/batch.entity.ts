import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';

export type BatchStatus = 'processing' | 'complete';

/**
 * A batch of eligibility requests (docs/api.md, Batches). The counters move in the transaction that
 * finishes each item (BatchCompletion), so they always add up to `itemCount` and the batch
 * completes exactly once.
 */
@Entity('eligibility_batches')
export class EligibilityBatch {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ name: 'account_id', type: 'uuid' })
  accountId: string;

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

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @Column({ name: 'completed_at', type: 'timestamptz', nullable: true })
  completedAt: Date | null;
}
