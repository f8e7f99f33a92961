import { Injectable, Logger } from '@nestjs/common';
import type { Tx } from '@/platform/db/database';
import { WebhookOutbox } from '@/modules/webhooks';
import type { EligibilityBatch } from '../store/batch.entity';
import { BatchResponse } from '../../api/dto/batch.response';
import { BatchProgressRepository, type BatchProgressRow } from '../store/batch-progress.repository';

export const EVENT_BATCH_FINISHED = 'eligibility.batch_finished';

/**
 * A batch's counters, moved by the transaction that finishes each of its items. The UPDATE takes
 * the batch's row lock until that transaction commits, so items finishing at once count one
 * after the other, and exactly one of them sees the count reach zero: that one completes the
 * batch and records its `batch` webhook deliveries in the same transaction.
 */
@Injectable()
export class BatchCompletion {
  private readonly logger = new Logger(BatchCompletion.name);

  constructor(
    private readonly progress: BatchProgressRepository,
    private readonly outbox: WebhookOutbox,
  ) {}

  /**
   * Counts one item of `batchId` as finished with `status`. Answers the ids of the batch
   * deliveries recorded when this was the last item (queued after the commit: recordEventInTx).
   */
  async itemFinishedInTx(tx: Tx, batchId: string, status: 'complete' | 'error'): Promise<string[]> {
    const row = await this.progress.countFinished(batchId, status, tx);
    if (!row || row.status !== 'complete') return [];
    const body = JSON.stringify(BatchResponse.from(toEntity(row)));
    await this.progress.setBody(batchId, body, tx);
    const ids = await this.outbox.recordEventInTx(tx, {
      accountId: row.account_id,
      topic: 'batch',
      event: EVENT_BATCH_FINISHED,
      resourceKey: `batch:${row.id}`,
      resourceUid: row.uid,
      body,
    });
    this.logger.log(
      { batchId, count: row.item_count, errors: row.error_count, deliveries: ids.length },
      'eligibility batch complete',
    );
    return ids;
  }
}

function toEntity(row: BatchProgressRow): EligibilityBatch {
  return {
    id: row.id,
    accountId: row.account_id,
    uid: row.uid,
    status: row.status,
    itemCount: row.item_count,
    processingCount: row.processing_count,
    completeCount: row.complete_count,
    errorCount: row.error_count,
    body: null,
    createdAt: new Date(row.created_at),
    completedAt: row.completed_at ? new Date(row.completed_at) : null,
  };
}
