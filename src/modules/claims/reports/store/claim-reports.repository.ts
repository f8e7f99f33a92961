import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, IsNull } from 'typeorm';
import { managerOf, type Tx } from '@/platform/db/database';
import { ClaimReport, type ClaimReportSource, type ClaimReportType } from './claim-report.entity';

/** How a report received before is found: its upstream id, else its bytes for the account. */
export interface ReceivedKey {
  externalId: string | null;
  contentSha256: string;
  accountId: string | null;
}

function receivedWhere(key: ReceivedKey) {
  return key.externalId
    ? { externalId: key.externalId }
    : { contentSha256: key.contentSha256, accountId: key.accountId ?? IsNull() };
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
    const rows: { id: string }[] = await managerOf(this.db, tx).query(
      `INSERT INTO claim_reports (account_id, source, external_id, content_sha256, type, x12, warnings)
       VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT DO NOTHING RETURNING id`,
      [
        r.accountId,
        r.source,
        r.externalId,
        r.contentSha256,
        r.type,
        r.x12,
        JSON.stringify(r.warnings),
      ],
    );
    return rows[0]?.id ?? null;
  }

  /**
   * The report `insertOnce` found stored before: by its upstream id when it has one, else by
   * its bytes' hash for the same account (or for no account).
   */
  async getReceived(key: ReceivedKey, tx?: Tx): Promise<ClaimReport> {
    return managerOf(this.db, tx).findOneOrFail(ClaimReport, { where: receivedWhere(key) });
  }

  /**
   * The same report received before, or null: looked up before the report is read, by the
   * unique index `insertOnce` conflicts on.
   */
  findReceived(key: ReceivedKey): Promise<ClaimReport | null> {
    const query = this.db.getRepository(ClaimReport).createQueryBuilder('r');
    if (key.externalId) return query.where('r.external_id = :id', { id: key.externalId }).getOne();
    return query
      .where("coalesce(r.account_id::text, '') = :account", { account: key.accountId ?? '' })
      .andWhere('r.content_sha256 = :sha AND r.external_id IS NULL', { sha: key.contentSha256 })
      .getOne();
  }

  /**
   * The account's uploaded reports stored in the last `hours`, and when the oldest of them was
   * (null when none): what the per-account quota counts.
   */
  async uploadsSince(
    accountId: string,
    hours: number,
  ): Promise<{ count: number; oldest: Date | null }> {
    const [row]: { count: number; oldest: Date | null }[] = await this.db.query(
      `SELECT count(*)::int AS count, min(created_at) AS oldest FROM claim_reports
       WHERE account_id = $1 AND source = 'upload' AND created_at > now() - make_interval(hours => $2)`,
      [accountId, hours],
    );
    return row;
  }

  /** How many of the report's claims were found, and not. */
  async setCounts(id: string, matched: number, unmatched: number, tx?: Tx): Promise<void> {
    await managerOf(this.db, tx).update(ClaimReport, id, {
      claimsMatched: matched,
      claimsUnmatched: unmatched,
    });
  }

  /** Whether the clearinghouse's report `externalId` is stored. */
  async isStored(externalId: string): Promise<boolean> {
    const rows: unknown[] = await this.db.query(
      'SELECT 1 FROM claim_reports WHERE external_id = $1',
      [externalId],
    );
    return rows.length > 0;
  }

  /** The report list's page token the poller of `url` goes on from (null: the first page). */
  async pageToken(url: string): Promise<string | null> {
    const rows: { page_token: string | null }[] = await this.db.query(
      'SELECT page_token FROM claim_report_polls WHERE url = $1',
      [url],
    );
    return rows[0]?.page_token ?? null;
  }

  async savePageToken(url: string, token: string | null): Promise<void> {
    await this.db.query(
      `INSERT INTO claim_report_polls (url, page_token, polled_at) VALUES ($1, $2, now())
       ON CONFLICT (url) DO UPDATE SET page_token = $2, polled_at = now()`,
      [url, token],
    );
  }
}
