import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { NotFoundError } from '@/common/errors';
import { paginateKeyset } from '@/common/pagination/keyset-paginator';
import type { MemberQuery } from '@/modules/insurers/insurer-connector';
import { EligibilityBatch } from './batch.entity';
import { BatchItemsQuery, DEFAULT_BATCH_PAGE_SIZE } from './dto/create-batch.dto';
import { BatchItemsPage, BatchResponse } from './dto/batch.response';
import { EligibilityRequest } from './eligibility-request.entity';

/** One item with what a results download needs: the patient asked about and the V2 body. */
export interface BatchItemExport {
  requestUid: string;
  status: EligibilityRequest['status'];
  errorCode: string | null;
  query: MemberQuery;
  /** The V2 result body (null while processing). */
  bodyV2: string | null;
}

/** The read side of batches: status and counts, the items page, the items for a download. */
@Injectable()
export class BatchQueryService {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async get(accountId: string, uid: string): Promise<BatchResponse> {
    return BatchResponse.from(await this.find(accountId, uid));
  }

  /** The items in upload order, keyset-paged (the shared paginator, on the items' batch_key). */
  async items(accountId: string, uid: string, query: BatchItemsQuery): Promise<BatchItemsPage> {
    const batch = await this.find(accountId, uid);
    const qb = this.db
      .getRepository(EligibilityRequest)
      .createQueryBuilder('r')
      .select(['r.id', 'r.uid', 'r.status', 'r.errorCode'])
      .where('r.batch_id = :batchId', { batchId: batch.id });
    const page = await paginateKeyset(
      qb,
      { limit: query.limit ?? DEFAULT_BATCH_PAGE_SIZE, cursor: query.cursor },
      { id: 'batch_key' },
    );
    return {
      result: page.result.map((r) => ({
        request_uid: r.uid,
        status: r.status,
        error_code: r.errorCode,
      })),
      next_cursor: page.next_cursor,
    };
  }

  /** Every item in upload order, `chunk` at a time (a download of 10,000 never loads them at once). */
  async *export(accountId: string, uid: string, chunk = 500): AsyncGenerator<BatchItemExport[]> {
    const batch = await this.find(accountId, uid);
    let after: string | null = null;
    for (;;) {
      const rows: {
        uid: string;
        status: EligibilityRequest['status'];
        error_code: string | null;
        query: MemberQuery;
        body_v2: string | null;
        batch_key: string;
      }[] = await this.db.query(
        `SELECT uid, status, error_code, query, body_v2, batch_key FROM eligibility_requests
         WHERE batch_id = $1 AND ($2::uuid IS NULL OR batch_key < $2::uuid)
         ORDER BY batch_key DESC LIMIT $3`,
        [batch.id, after, chunk],
      );
      if (rows.length === 0) return;
      yield rows.map((r) => ({
        requestUid: r.uid,
        status: r.status,
        errorCode: r.error_code,
        query: r.query,
        bodyV2: r.body_v2,
      }));
      after = rows[rows.length - 1].batch_key;
    }
  }

  private async find(accountId: string, uid: string): Promise<EligibilityBatch> {
    const batch = await this.db
      .getRepository(EligibilityBatch)
      .findOne({ where: { accountId, uid } });
    if (!batch) throw new NotFoundError(`Batch ${uid} not found.`);
    return batch;
  }
}
