import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { Tx } from '@/platform/db/database';
import { query, sql } from '@/platform/db/sql';
import type { MemberQuery } from '@/modules/insurers';
import { BatchSearchQueue } from '../../jobs/batch-search.queue';
import type { StoredOptions } from '../../domain/search-outcome';

/** One appointment's check as stored: an ordinary search request of origin `appointment`. */
export interface CheckRequestRow {
  account_id: string;
  uid: string;
  location_id: string;
  codes: string[];
  query: MemberQuery;
  options: StoredOptions;
}

/**
 * Appointments' checks (docs/api.md, Appointments): search requests stored `processing` and due
 * now in BatchSearchQueue (its columns are the queue's SQL), many in one set-based INSERT.
 */
@Injectable()
export class CheckRequestsRepository {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly queue: BatchSearchQueue,
  ) {}

  /** Stores the rows; answers their ids in the rows' order. */
  async insert(rows: CheckRequestRow[], tx?: Tx): Promise<string[]> {
    if (rows.length === 0) return [];
    const q = this.queue.sql;
    const inserted = await query<{ id: string }>(
      this.db,
      sql`INSERT INTO eligibility_requests
        (account_id, uid, kind, location_id, insurer_codes, query, options, status, origin,
         ${q.insertColumns})
      SELECT x.account_id, x.uid, 'search', x.location_id,
             ARRAY(SELECT jsonb_array_elements_text(x.codes)), x.query, x.options, 'processing',
             'appointment', ${q.dueValues(sql`now()`)}
      FROM ROWS FROM (jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS (account_id uuid, uid text,
             location_id uuid, codes jsonb, query jsonb, options jsonb))
           WITH ORDINALITY AS x(account_id, uid, location_id, codes, query, options, position)
      ORDER BY x.position
      RETURNING id`,
      tx,
    );
    // bigserial ids follow the insert order, which follows the rows' order.
    return inserted.map((r) => String(r.id)).sort((a, b) => Number(a) - Number(b));
  }
}
