import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { execute, query, sql } from '@/platform/db/sql';

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

/** One insurer's calls of an account in a window, as the statement answers them. */
export interface InsurerCallsRow {
  insurer_code: string;
  searches: number;
  calls: number;
  answered_share: number;
  p50_seconds: number;
  p95_seconds: number;
  /** The latest unanswered call's outcome and when it ended; both null when every call was answered. */
  last_error_kind: string | null;
  last_error_at: Date | null;
}

/** The insurer exchange log's table, `insurer_exchanges` (docs/api.md, Real insurers). */
@Injectable()
export class InsurerExchangesRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** Stores `rows` in one prepared statement (the log's group commit). */
  async insertMany(rows: readonly NewInsurerExchange[]): Promise<void> {
    await execute(
      this.db,
      sql`INSERT INTO insurer_exchanges (account_id, request_id, insurer_code, attempt, started_at,
         duration_ms, url, request, response, http_status, aaa_codes, outcome, error, trace_number)
       SELECT account_id, request_id, insurer_code, attempt, started_at, duration_ms, url, request,
         response, http_status, aaa_codes, outcome, error, trace_number
       FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS x(account_id uuid, request_id bigint,
         insurer_code varchar, attempt integer, started_at timestamptz, duration_ms integer, url text,
         request text, response text, http_status integer, aaa_codes text[], outcome varchar,
         error text, trace_number varchar)`,
    );
  }

  /** The calls made for one request of the account, oldest first. */
  async forRequest(accountId: string, requestId: string): Promise<InsurerExchangeRow[]> {
    return query(
      this.db,
      sql`SELECT insurer_code, attempt, started_at, duration_ms, url, request, response, http_status,
              aaa_codes, outcome, error, trace_number
       FROM insurer_exchanges WHERE account_id = ${accountId} AND request_id = ${requestId} ORDER BY id`,
    );
  }

  /**
   * Per insurer, the account's calls started at or after `since`, `deferred` ones left out
   * (docs/api.md, Insurer health): distinct requests, calls, the share answered (`found` or
   * `not_found`), the median and 95th percentile of the durations (percentile_cont: interpolated
   * between the two nearest calls), and the latest unanswered call by its end. One statement over
   * the account's rows of the window (insurer_exchanges_account_started_idx).
   */
  callsSince(accountId: string, since: Date): Promise<InsurerCallsRow[]> {
    return query(
      this.db,
      sql`SELECT insurer_code,
         count(DISTINCT request_id)::int AS searches,
         count(*)::int AS calls,
         round(count(*) FILTER (WHERE answered)::numeric / count(*), 3)::float8 AS answered_share,
         round((percentile_cont(0.5) WITHIN GROUP (ORDER BY duration_ms))::numeric / 1000, 3)::float8
           AS p50_seconds,
         round((percentile_cont(0.95) WITHIN GROUP (ORDER BY duration_ms))::numeric / 1000, 3)::float8
           AS p95_seconds,
         (array_agg(outcome ORDER BY ended_at DESC, id DESC) FILTER (WHERE NOT answered))[1]
           AS last_error_kind,
         max(ended_at) FILTER (WHERE NOT answered) AS last_error_at
       FROM (
         SELECT id, insurer_code, request_id, duration_ms, outcome,
                outcome IN ('found', 'not_found') AS answered,
                started_at + duration_ms * interval '1 millisecond' AS ended_at
         FROM insurer_exchanges
         WHERE account_id = ${accountId} AND started_at >= ${since} AND outcome <> 'deferred'
       ) x
       GROUP BY insurer_code
       ORDER BY insurer_code`,
    );
  }
}
