import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { queryPrepared } from '@/platform/db/pg-pool';

/** One row of `insurer_exchanges`, as stored and as read (column names). */
export interface InsurerExchangeRow {
  insurer_code: string;
  attempt: number;
  started_at: Date;
  duration_ms: number;
  url: string | null;
  request: string | null;
  response: string | null;
  http_status: number | null;
  aaa_codes: string[];
  outcome: string;
  error: string | null;
  trace_number: string | null;
}

/** A row to store: the request it belongs to and the call. */
export type NewInsurerExchange = InsurerExchangeRow & { account_id: string; request_id: string };

/** The insurer exchange log's table, `insurer_exchanges` (docs/api.md, Real insurers). */
@Injectable()
export class InsurerExchangesRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** Stores `rows` in one prepared statement (the log's group commit). */
  async insertMany(rows: readonly NewInsurerExchange[]): Promise<void> {
    await queryPrepared(
      this.db,
      `INSERT INTO insurer_exchanges (account_id, request_id, insurer_code, attempt, started_at,
         duration_ms, url, request, response, http_status, aaa_codes, outcome, error, trace_number)
       SELECT account_id, request_id, insurer_code, attempt, started_at, duration_ms, url, request,
         response, http_status, aaa_codes, outcome, error, trace_number
       FROM jsonb_to_recordset($1::jsonb) AS x(account_id uuid, request_id bigint,
         insurer_code varchar, attempt integer, started_at timestamptz, duration_ms integer, url text,
         request text, response text, http_status integer, aaa_codes text[], outcome varchar,
         error text, trace_number varchar)`,
      [JSON.stringify(rows)],
    );
  }

  /** The calls made for one request of the account, oldest first. */
  async forRequest(accountId: string, requestId: string): Promise<InsurerExchangeRow[]> {
    return this.db.query(
      `SELECT insurer_code, attempt, started_at, duration_ms, url, request, response, http_status,
              aaa_codes, outcome, error, trace_number
       FROM insurer_exchanges WHERE account_id = $1 AND request_id = $2 ORDER BY id`,
      [accountId, requestId],
    );
  }
}
