import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { Tx } from '@/platform/db/database';
import { execute, queryOne, sql } from '@/platform/db/sql';

/** A batch row as the counting UPDATE answers it. */
export interface BatchProgressRow {
  id: string;
  account_id: string;
  uid: string;
  status: 'processing' | 'complete';
  item_count: number;
  processing_count: number;
  complete_count: number;
  error_count: number;
  created_at: Date;
  completed_at: Date | null;
}

/**
 * A batch's counters on `eligibility_batches` as its items finish (intake and reads of batches
 * are BatchesRepository's): each count runs in the transaction that finishes the item.
 */
@Injectable()
export class BatchProgressRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /**
   * Counts one item of `batchId` as finished with `status`; the batch completes with its last
   * item. Answers the batch as counted, or null when it had no item left in progress.
   */
  async countFinished(
    batchId: string,
    status: 'complete' | 'error',
    tx?: Tx,
  ): Promise<BatchProgressRow | null> {
    return queryOne<BatchProgressRow>(
      this.db,
      sql`WITH counted AS (
         UPDATE eligibility_batches SET
           processing_count = processing_count - 1,
           complete_count = complete_count + CASE WHEN ${status} = 'complete' THEN 1 ELSE 0 END,
           error_count = error_count + CASE WHEN ${status} = 'error' THEN 1 ELSE 0 END,
           status = CASE WHEN processing_count = 1 THEN 'complete' ELSE status END,
           completed_at = CASE WHEN processing_count = 1 THEN clock_timestamp() ELSE completed_at END
         WHERE id = ${batchId} AND processing_count > 0
         RETURNING *)
       SELECT * FROM counted`,
      tx,
    );
  }

  /** Stores the finished batch's GET body. */
  async setBody(batchId: string, body: string, tx?: Tx): Promise<void> {
    await execute(
      this.db,
      sql`UPDATE eligibility_batches SET body = ${body} WHERE id = ${batchId}`,
      tx,
    );
  }
}
