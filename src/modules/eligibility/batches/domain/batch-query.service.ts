import { Injectable } from '@nestjs/common';
import { NotFoundError } from '@/platform/kernel/errors';
import type { MemberQuery } from '@/modules/insurers';
import type { EligibilityBatch } from '../store/batch.entity';
import { BatchesRepository } from '../store/batches.repository';
import { BatchItemsQuery, DEFAULT_BATCH_PAGE_SIZE } from '../../api/dto/create-batch.dto';
import { BatchItemsPage, BatchResponse } from '../../api/dto/batch.response';
import type { EligibilityRequest } from '../../store/eligibility-request.entity';

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

/** The read side of batches: status and counts, the items page, the items for a download. */
@Injectable()
export class BatchQueryService {
  constructor(private readonly batches: BatchesRepository) {}

  async get(accountId: string, uid: string): Promise<BatchResponse> {
    return BatchResponse.from(await this.find(accountId, uid));
  }

  /** The account's most recent batches, newest first. */
  async listRecent(accountId: string, limit = 50): Promise<BatchResponse[]> {
    const batches = await this.batches.listRecent(accountId, limit);
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
    const rows = await this.batches.attention(batch.id, limit);
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
    const page = await this.batches.itemsPage(batch.id, {
      limit: query.limit ?? DEFAULT_BATCH_PAGE_SIZE,
      cursor: query.cursor,
    });
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
      const rows = await this.batches.exportChunk(batch.id, after, chunk);
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
    const batch = await this.batches.findByUid(accountId, uid);
    if (!batch) throw new NotFoundError(`Batch ${uid} not found.`);
    return batch;
  }
}
