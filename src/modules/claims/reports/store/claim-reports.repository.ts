import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { Tx } from '@/platform/db/database';
import { entityColumns } from '@/platform/db/entity-columns';
import { execute, queryOne, sql, type Sql } from '@/platform/db/sql';
import { ClaimReport, type ClaimReportSource, type ClaimReportType } from './claim-report.entity';

/** How a report received before is found: its upstream id, else its bytes for the account. */
export interface ReceivedKey {
  externalId: string | null;
  contentSha256: string;
  accountId: string | null;
}

export interface NewClaimReport {
  accountId: string | null;
  source: ClaimReportSource;
  externalId: string | null;
  contentSha256: string;
  type: ClaimReportType;
  x12: string;
  warnings: string[];
}

/**
 * Claim reports as received (`claim_reports`) and the poller's place in the clearinghouse's
 * report list (`claim_report_polls`).
 */
@Injectable()
export class ClaimReportsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** Stores the report; null when it was received before (same upstream id, or same bytes). */
  async insertOnce(r: NewClaimReport, tx?: Tx): Promise<string | null> {
    const row = await queryOne<{ id: string }>(
      this.db,
      sql`INSERT INTO claim_reports (account_id, source, external_id, content_sha256, type, x12, warnings)
       VALUES (${r.accountId}, ${r.source}, ${r.externalId}, ${r.contentSha256}, ${r.type}, ${r.x12},
         ${JSON.stringify(r.warnings)}) ON CONFLICT DO NOTHING RETURNING id`,
      tx,
    );
    return row?.id ?? null;
  }

  /** The report matching `where`. */
  private report(where: Sql, tx?: Tx): Promise<ClaimReport | null> {
    return queryOne(
      this.db,
      sql`SELECT ${entityColumns(this.db, ClaimReport, 'r')} FROM claim_reports r WHERE ${where} LIMIT 1`,
      tx,
    );
  }

  /**
   * The report `insertOnce` found stored before: by its upstream id when it has one, else by
   * its bytes' hash for the same account (or for no account).
   */
  async getReceived(key: ReceivedKey, tx?: Tx): Promise<ClaimReport> {
    const where = key.externalId
      ? sql`r.external_id = ${key.externalId}`
      : key.accountId
        ? sql`r.content_sha256 = ${key.contentSha256} AND r.account_id = ${key.accountId}`
        : sql`r.content_sha256 = ${key.contentSha256} AND r.account_id IS NULL`;
    const report = await this.report(where, tx);
    if (!report) throw new Error('The claim report received before is not stored.');
    return report;
  }

  /**
   * The same report received before, or null: looked up before the report is read, by the
   * unique index `insertOnce` conflicts on.
   */
  findReceived(key: ReceivedKey): Promise<ClaimReport | null> {
    if (key.externalId) return this.report(sql`r.external_id = ${key.externalId}`);
    return this.report(
      sql`coalesce(r.account_id::text, '') = ${key.accountId ?? ''}
        AND r.content_sha256 = ${key.contentSha256} AND r.external_id IS NULL`,
    );
  }

  /**
   * The account's uploaded reports stored in the last `hours`, and when the oldest of them was
   * (null when none): what the per-account quota counts.
   */
  async uploadsSince(
    accountId: string,
    hours: number,
  ): Promise<{ count: number; oldest: Date | null }> {
    const row = await queryOne<{ count: number; oldest: Date | null }>(
      this.db,
      sql`SELECT count(*)::int AS count, min(created_at) AS oldest FROM claim_reports
       WHERE account_id = ${accountId} AND source = 'upload' AND created_at > now() - make_interval(hours => ${hours})`,
    );
    return row!;
  }

  /** How many of the report's claims were found, and not. */
  async setCounts(id: string, matched: number, unmatched: number, tx?: Tx): Promise<void> {
    await execute(
      this.db,
      sql`UPDATE claim_reports SET claims_matched = ${matched}, claims_unmatched = ${unmatched} WHERE id = ${id}`,
      tx,
    );
  }

  /** Whether the clearinghouse's report `externalId` is stored. */
  async isStored(externalId: string): Promise<boolean> {
    const row = await queryOne(
      this.db,
      sql`SELECT 1 FROM claim_reports WHERE external_id = ${externalId}`,
    );
    return row !== null;
  }

  /** The report list's page token the poller of `url` goes on from (null: the first page). */
  async pageToken(url: string): Promise<string | null> {
    const row = await queryOne<{ page_token: string | null }>(
      this.db,
      sql`SELECT page_token FROM claim_report_polls WHERE url = ${url}`,
    );
    return row?.page_token ?? null;
  }

  async savePageToken(url: string, token: string | null): Promise<void> {
    await execute(
      this.db,
      sql`INSERT INTO claim_report_polls (url, page_token, polled_at) VALUES (${url}, ${token}, now())
       ON CONFLICT (url) DO UPDATE SET page_token = ${token}, polled_at = now()`,
    );
  }
}
