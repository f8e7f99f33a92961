import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { Tx } from '@/platform/db/database';
import { execute, query, queryOne, sql } from '@/platform/db/sql';

/** A part of a polled 835 no account owns: a CLP naming no claim, or a shared payment's PLB. */
export interface NewUnmatchedItem {
  kind: 'claim' | 'provider_adjustment';
  payerId: string;
  payerName: string;
  traceNumber: string;
  /** CLP01, or PLB03-2. */
  reference: string;
  /** CLP04, or the PLB amount. */
  amount: string;
  /** The CLP as a remittance entry, or the provider adjustment. */
  detail: object;
}

export interface UnmatchedItem {
  id: string;
  report_id: string;
  /** The clearinghouse's report id. */
  external_id: string | null;
  kind: string;
  payer_id: string;
  payer_name: string;
  trace_number: string;
  reference: string;
  amount: string;
  status_code: string | null;
  payer_claim_control_number: string | null;
  created_at: Date;
}

/**
 * Each account's part of a polled 835 (`claim_report_parts`) and what no account owns
 * (`unmatched_remittance_items`, the operator's only). `accountX12` also reads `claim_reports`.
 */
@Injectable()
export class PolledReportsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async insertParts(reportId: string, parts: Map<string, string>, tx?: Tx): Promise<void> {
    if (parts.size === 0) return;
    await execute(
      this.db,
      sql`INSERT INTO claim_report_parts (report_id, account_id, x12)
       SELECT ${reportId}, unnest(${[...parts.keys()]}::uuid[]), unnest(${[...parts.values()]}::text[])`,
      tx,
    );
  }

  async insertUnmatched(reportId: string, items: NewUnmatchedItem[], tx?: Tx): Promise<void> {
    if (items.length === 0) return;
    const recordset = JSON.stringify(
      items.map((i) => ({
        kind: i.kind,
        payer_id: i.payerId.slice(0, 80),
        payer_name: i.payerName.slice(0, 80),
        trace_number: i.traceNumber.slice(0, 80),
        reference: i.reference.slice(0, 80),
        amount: i.amount,
        detail: i.detail,
      })),
    );
    await execute(
      this.db,
      sql`INSERT INTO unmatched_remittance_items (report_id, kind, payer_id, payer_name, trace_number,
         reference, amount, detail)
       SELECT ${reportId}, i.kind, i.payer_id, i.payer_name, i.trace_number, i.reference, i.amount, i.detail
       FROM jsonb_to_recordset(${recordset}::jsonb) AS i(kind text, payer_id text, payer_name text,
         trace_number text, reference text, amount numeric, detail jsonb)`,
      tx,
    );
  }

  /**
   * The 835 an account may read of report `reportId`: its part of a polled interchange, or the
   * whole report when the account itself uploaded (or submitted) it; null otherwise.
   */
  async accountX12(reportId: string, accountId: string): Promise<string | null> {
    const row = await queryOne<{ x12: string | null }>(
      this.db,
      sql`SELECT coalesce(p.x12, CASE WHEN r.account_id = ${accountId} THEN r.x12 END) AS x12
       FROM claim_reports r
       LEFT JOIN claim_report_parts p ON p.report_id = r.id AND p.account_id = ${accountId}
       WHERE r.id = ${reportId}`,
    );
    return row?.x12 ?? null;
  }

  /** What waits for the operator, newest first. */
  unmatched(limit: number): Promise<UnmatchedItem[]> {
    return query(
      this.db,
      sql`SELECT u.id, u.report_id, r.external_id, u.kind, u.payer_id, u.payer_name, u.trace_number,
         u.reference, u.amount::text AS amount, u.detail->>'status_code' AS status_code,
         u.detail->>'payer_claim_control_number' AS payer_claim_control_number, u.created_at
       FROM unmatched_remittance_items u JOIN claim_reports r ON r.id = u.report_id
       ORDER BY u.created_at DESC, u.id DESC LIMIT ${limit}`,
    );
  }
}
