import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { managerOf, type Tx } from '@/platform/db/database';
import type { MemberQuery } from '@/modules/insurers';
import { BatchSearchQueue } from '../jobs/batch-search.queue';
import type { StoredOptions } from '../domain/search-outcome';

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
  private readonly insertSql: string;

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    queue: BatchSearchQueue,
  ) {
    this.insertSql = `INSERT INTO eligibility_requests
        (account_id, uid, kind, location_id, insurer_codes, query, options, status, origin,
         ${queue.sql.insertColumns})
      SELECT x.account_id, x.uid, 'search', x.location_id,
             ARRAY(SELECT jsonb_array_elements_text(x.codes)), x.query, x.options, 'processing',
             'appointment', ${queue.sql.dueValues('now()')}
      FROM ROWS FROM (jsonb_to_recordset($1::jsonb) AS (account_id uuid, uid text,
             location_id uuid, codes jsonb, query jsonb, options jsonb))
           WITH ORDINALITY AS x(account_id, uid, location_id, codes, query, options, position)
      ORDER BY x.position
      RETURNING id`;
  }

  /** Stores the rows; answers their ids in the rows' order. */
  async insert(rows: CheckRequestRow[], tx?: Tx): Promise<string[]> {
    if (rows.length === 0) return [];
    const inserted: { id: string }[] = await managerOf(this.db, tx).query(this.insertSql, [
      JSON.stringify(rows),
    ]);
    // bigserial ids follow the insert order, which follows the rows' order.
    return inserted.map((r) => String(r.id)).sort((a, b) => Number(a) - Number(b));
  }
}
