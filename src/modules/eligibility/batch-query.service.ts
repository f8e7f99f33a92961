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
  /** The insurers asked (a failed item has no result to name them). */
  insurerCodes: string[];
  /** Why an `error` item failed, in the insurers' words (the exchange log); null otherwise. */
  reason: string | null;
  /** The V2 result body (null while processing). */
  bodyV2: string | null;
}

/** An item a front desk must look at: it failed, or the insurer found no plan. */
export interface BatchAttentionItem {
  /** 1-based position in the upload (the CSV's data row, header not counted). */
  row: number;
  requestUid: string;
  outcome: 'error' | 'no_plan_found';
  errorCode: string | null;
  query: MemberQuery;
  insurerCodes: string[];
  /** Why it failed or found nothing, in the insurers' words (the exchange log), when they said. */
  reason: string | null;
}

/** Why an item found nothing: the distinct errors its insurer calls recorded, in one line. */
const REASON_SQL = `(SELECT string_agg(DISTINCT x.error, '; ') FROM insurer_exchanges x
    WHERE x.request_id = r.id AND x.account_id = r.account_id
      AND x.outcome <> 'found' AND x.error IS NOT NULL)`;

/** The read side of batches: status and counts, the items page, the items for a download. */
@Injectable()
export class BatchQueryService {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async get(accountId: string, uid: string): Promise<BatchResponse> {
    return BatchResponse.from(await this.find(accountId, uid));
  }

  /** The account's most recent batches, newest first. */
  async listRecent(accountId: string, limit = 50): Promise<BatchResponse[]> {
    const batches = await this.db.getRepository(EligibilityBatch).find({
      where: { accountId },
      order: { createdAt: 'DESC', id: 'DESC' },
      take: limit,
    });
    return batches.map((b) => BatchResponse.from(b));
  }

  /**
   * The items that failed or found no plan, in upload order with their row numbers, at most
   * `limit` of them, and how many there are in all.
   */
  async attention(
    accountId: string,
    uid: string,
    limit = 200,
  ): Promise<{ items: BatchAttentionItem[]; total: number; noPlanFound: number }> {
    const batch = await this.find(accountId, uid);
    const rows: {
      row: string;
      uid: string;
      outcome: 'error' | 'no_plan_found';
      error_code: string | null;
      query: MemberQuery;
      insurer_codes: string[];
      reason: string | null;
      total: string;
      no_plan: string;
    }[] = await this.db.query(
      `WITH items AS (
         SELECT r.id, r.account_id, r.uid, r.status, r.error_code, r.query, r.insurer_codes,
                row_number() OVER (ORDER BY r.batch_key DESC) AS row
         FROM eligibility_requests r WHERE r.batch_id = $1),
       marked AS (
         SELECT items.*, CASE WHEN status = 'error' THEN 'error' ELSE 'no_plan_found' END AS outcome
         FROM items
         WHERE status = 'error' OR (status = 'complete' AND NOT EXISTS (
           SELECT 1 FROM eligibility_results res WHERE res.request_id = items.id)))
       SELECT r.row, r.uid, r.outcome, r.error_code, r.query, r.insurer_codes, ${REASON_SQL} AS reason,
              count(*) OVER () AS total,
              count(*) FILTER (WHERE r.outcome = 'no_plan_found') OVER () AS no_plan
       FROM marked r ORDER BY r.row LIMIT $2`,
      [batch.id, limit],
    );
    return {
      items: rows.map((r) => ({
        row: Number(r.row),
        requestUid: r.uid,
        outcome: r.outcome,
        errorCode: r.error_code,
        query: r.query,
        insurerCodes: r.insurer_codes,
        reason: r.reason,
      })),
      total: rows.length > 0 ? Number(rows[0].total) : 0,
      noPlanFound: rows.length > 0 ? Number(rows[0].no_plan) : 0,
    };
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
        insurer_codes: string[];
        reason: string | null;
        body_v2: string | null;
        batch_key: string;
      }[] = await this.db.query(
        `SELECT r.uid, r.status, r.error_code, r.query, r.insurer_codes,
                CASE WHEN r.status = 'error' THEN ${REASON_SQL} END AS reason,
                r.body_v2, r.batch_key
         FROM eligibility_requests r
         WHERE r.batch_id = $1 AND ($2::uuid IS NULL OR r.batch_key < $2::uuid)
         ORDER BY r.batch_key DESC LIMIT $3`,
        [batch.id, after, chunk],
      );
      if (rows.length === 0) return;
      yield rows.map((r) => ({
        requestUid: r.uid,
        status: r.status,
        errorCode: r.error_code,
        query: r.query,
        insurerCodes: r.insurer_codes,
        reason: r.reason,
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
