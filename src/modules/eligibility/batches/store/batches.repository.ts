import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { type KeysetPage, keysetPage } from '@/platform/http/pagination/keyset-paginator';
import type { Tx } from '@/platform/db/database';
import { entityColumns } from '@/platform/db/entity-columns';
import { query, queryOne, type Sql, sql } from '@/platform/db/sql';
import type { MemberQuery } from '@/modules/insurers';
import { EligibilityBatch } from './batch.entity';
import { BatchSearchQueue } from '../../jobs/batch-search.queue';
import { EligibilityRequest } from '../../store/eligibility-request.entity';

/** A batch item as intake stores it (an eligibility request of the batch). */
export interface BatchItemRow {
  uid: string;
  location_id: string;
  codes: string[];
  query: unknown;
  /** docs/api.md, Universal Search insurer by insurer: the item's own choices (null: defaults). */
  options: unknown;
  /** The item's key for keyset paging (descending in upload order). */
  key: string;
}

/** An item that failed or found no plan, with its 1-based row in the upload. */
export interface AttentionRow {
  row: string;
  uid: string;
  outcome: 'error' | 'no_plan_found';
  error_code: string | null;
  query: MemberQuery;
  insurer_codes: string[];
  reason: string | null;
  /** How many such items the batch has in all, and how many of them found no plan. */
  total: string;
  no_plan: string;
}

/** An item as a results download reads it. */
export interface ExportRow {
  uid: string;
  status: EligibilityRequest['status'];
  error_code: string | null;
  query: MemberQuery;
  insurer_codes: string[];
  reason: string | null;
  body_v2: string | null;
  batch_key: string;
}

/** Why an item found nothing: the distinct errors its insurer calls recorded, in one line. */
const REASON_SQL = sql`(SELECT string_agg(DISTINCT x.error, '; ') FROM insurer_exchanges x
    WHERE x.request_id = r.id AND x.account_id = r.account_id
      AND x.outcome <> 'found' AND x.error IS NOT NULL)`;

/**
 * Eligibility batches (docs/api.md, Batches) and their items (eligibility_requests with a batch): batch
 * intake's INSERTs (the items stored due now in BatchSearchQueue: its columns are the queue's
 * SQL, `queue.sql`) and the batch reads. The items' reasons read the insurer exchange log
 * (insurer_exchanges) and their results (eligibility_results).
 */
@Injectable()
export class BatchesRepository {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly queue: BatchSearchQueue,
  ) {}

  async exists(accountId: string, uid: string, tx?: Tx): Promise<boolean> {
    const row = await queryOne(
      this.db,
      sql`SELECT 1 FROM eligibility_batches WHERE account_id = ${accountId} AND uid = ${uid}`,
      tx,
    );
    return row !== null;
  }

  /** Stores a batch of `itemCount` items, all processing; answers its id. */
  async insert(accountId: string, uid: string, itemCount: number, tx?: Tx): Promise<string> {
    const batch = await queryOne<{ id: string }>(
      this.db,
      sql`INSERT INTO eligibility_batches (account_id, uid, item_count, processing_count)
       VALUES (${accountId}, ${uid}, ${itemCount}, ${itemCount}) RETURNING id`,
      tx,
    );
    return batch!.id;
  }

  /**
   * Stores the batch's items in one set-based INSERT, `processing` and due now; answers their ids
   * in the items' order.
   */
  async insertItems(
    accountId: string,
    batchId: string,
    rows: BatchItemRow[],
    tx?: Tx,
  ): Promise<string[]> {
    const q = this.queue.sql;
    const inserted = await query<{ id: string }>(
      this.db,
      sql`WITH created AS (
         INSERT INTO eligibility_requests
           (account_id, uid, kind, location_id, insurer_codes, query, options, status, batch_id, batch_key,
            ${q.insertColumns})
         SELECT ${accountId}, x.uid, 'search', x.location_id,
                ARRAY(SELECT jsonb_array_elements_text(x.codes)), x.query, x.options, 'processing', ${batchId}, x.key,
                ${q.dueValues(sql`now()`)}
         FROM ROWS FROM (jsonb_to_recordset(${JSON.stringify(rows)}::jsonb)
                AS (uid text, location_id uuid, codes jsonb, query jsonb, options jsonb, key uuid))
              WITH ORDINALITY AS x(uid, location_id, codes, query, options, key, position)
         ORDER BY x.position
         RETURNING id)
       SELECT id FROM created`,
      tx,
    );
    // bigserial ids follow the insert order, which follows the items' order.
    return inserted.map((r) => String(r.id)).sort((a, b) => Number(a) - Number(b));
  }

  findByUid(accountId: string, uid: string, tx?: Tx): Promise<EligibilityBatch | null> {
    return queryOne(
      this.db,
      sql`SELECT ${this.columns} FROM eligibility_batches b WHERE b.account_id = ${accountId} AND b.uid = ${uid}`,
      tx,
    );
  }

  /** The account's `limit` most recent batches, newest first. */
  listRecent(accountId: string, limit: number, tx?: Tx): Promise<EligibilityBatch[]> {
    return query(
      this.db,
      sql`SELECT ${this.columns} FROM eligibility_batches b WHERE b.account_id = ${accountId}
       ORDER BY b.created_at DESC, b.id DESC LIMIT ${limit}`,
      tx,
    );
  }

  private get columns(): Sql {
    return entityColumns(this.db, EligibilityBatch, 'b');
  }

  /** The items that failed or found no plan, in upload order, at most `limit` of them. */
  attention(batchId: string, limit: number, tx?: Tx): Promise<AttentionRow[]> {
    return query(
      this.db,
      sql`WITH items AS (
         SELECT r.id, r.account_id, r.uid, r.status, r.error_code, r.query, r.insurer_codes,
                row_number() OVER (ORDER BY r.batch_key DESC) AS row
         FROM eligibility_requests r WHERE r.batch_id = ${batchId}),
       marked AS (
         SELECT items.*, CASE WHEN status = 'error' THEN 'error' ELSE 'no_plan_found' END AS outcome
         FROM items
         WHERE status = 'error' OR (status = 'complete' AND NOT EXISTS (
           SELECT 1 FROM eligibility_results res WHERE res.request_id = items.id)))
       SELECT r.row, r.uid, r.outcome, r.error_code, r.query, r.insurer_codes, ${REASON_SQL} AS reason,
              count(*) OVER () AS total,
              count(*) FILTER (WHERE r.outcome = 'no_plan_found') OVER () AS no_plan
       FROM marked r ORDER BY r.row LIMIT ${limit}`,
      tx,
    );
  }

  /** A page of the batch's items in upload order (the shared paginator, on `batch_key`). */
  itemsPage(
    batchId: string,
    page: { limit: number; cursor?: string | null },
  ): Promise<KeysetPage<EligibilityRequest>> {
    const columns = entityColumns(this.db, EligibilityRequest, 'r', [
      'id',
      'uid',
      'status',
      'errorCode',
      'createdAt',
      'batchKey',
    ]);
    const select = sql`SELECT ${columns} FROM eligibility_requests r WHERE r.batch_id = ${batchId}`;
    return keysetPage(this.db, select, page, { id: 'batchKey' });
  }

  /** Up to `limit` items in upload order after the one keyed `after` (null: from the first). */
  exportChunk(batchId: string, after: string | null, limit: number, tx?: Tx): Promise<ExportRow[]> {
    return query(
      this.db,
      sql`SELECT r.uid, r.status, r.error_code, r.query, r.insurer_codes,
                CASE WHEN r.status = 'error' THEN ${REASON_SQL} END AS reason,
                r.body_v2, r.batch_key
         FROM eligibility_requests r
         WHERE r.batch_id = ${batchId} AND (${after}::uuid IS NULL OR r.batch_key < ${after}::uuid)
         ORDER BY r.batch_key DESC LIMIT ${limit}`,
      tx,
    );
  }
}
