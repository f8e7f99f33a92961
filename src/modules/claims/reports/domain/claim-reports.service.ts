import { createHash } from 'node:crypto';
import { NotFoundError, QuotaExceededError } from '@/platform/kernel/errors';
import { Injectable, Logger } from '@nestjs/common';
import { InjectConfig } from '@/platform/config/config.module';
import type { AppConfig } from '@/platform/config/env';
import { Database, type Tx } from '@/platform/db/database';
import { type ClaimReport as ParsedReport, readClaimReport, split835 } from '@/lib/x12';
import type { ClaimReport, ClaimReportSource } from '../store/claim-report.entity';
import { ClaimReportApplier, type Work } from './claim-report-apply';
import { ClaimReportsRepository } from '../store/claim-reports.repository';
import {
  RemittanceListResponse,
  RemittanceResponse,
  RemittanceSummaryResponse,
} from '../api/dto/remittance.response';
import { PolledRemittanceApplier } from './polled-remittance-apply';
import { PolledReportsRepository } from '../store/polled-reports.repository';
import type { Remittance } from '../store/remittance.entity';
import { RemittancesRepository } from '../store/remittances.repository';
import { isUuid } from '@/platform/kernel/codes';

export { EVENT_REMITTANCE_RECEIVED } from './claim-report-apply';

const DAY_MS = 86_400_000;
export interface ReportOrigin {
  /** The uploading account (only its claims are matched); null: any account's (the poller). */
  accountId: string | null;
  source: ClaimReportSource;
  /** The clearinghouse's report id, for the poller. */
  externalId?: string | null;
}

export interface ReportOutcome {
  id: string;
  type: string;
  claims_matched: number;
  claims_unmatched: number;
  /** True when the report had been received before: nothing was done again. */
  duplicate: boolean;
}

/**
 * Processes claim reports (docs/api.md, Claim reports and remittances): 999 and TA1 rejections,
 * 277CA acceptances and rejections, 835 remittances. A report is stored once (same upstream id,
 * or the same bytes for the same account) and applied in the same transaction; a claim moves
 * only along the lifecycle's arrows; webhook deliveries and the claims' next runs are queued
 * after the commit (`tx.afterCommit`).
 */
@Injectable()
export class ClaimReportsService {
  private readonly logger = new Logger(ClaimReportsService.name);
  // Polled reports' lines keep the context they have always had (operators filter on it).
  private readonly pollLogger = new Logger('PolledReports');

  constructor(
    @InjectConfig() private readonly config: AppConfig,
    private readonly database: Database,
    private readonly reports: ClaimReportsRepository,
    private readonly remittances: RemittancesRepository,
    private readonly applier: ClaimReportApplier,
    private readonly polled: PolledReportsRepository,
    private readonly polledRemittances: PolledRemittanceApplier,
  ) {}

  /**
   * An uploaded report, or a submit answer's own. One received before is answered from its row
   * unread (reading costs in proportion to its size and would change nothing); an upload past
   * the daily quota is refused; an X12ParseError stores nothing.
   */
  async ingest(text: string, origin: ReportOrigin): Promise<ReportOutcome> {
    const received = receivedOf(text, origin);
    const before = await this.reports.findReceived(received);
    if (before) {
      this.logger.log({ report: before.id, source: origin.source }, 'claim report seen before');
      return { ...summary(before), duplicate: true };
    }
    if (origin.source === 'upload' && origin.accountId) await this.withinQuota(origin.accountId);
    const parsed = readClaimReport(text);
    const outcome = await this.store(text, parsed, origin, received);
    this.logger.log(
      outcomeLog(outcome, parsed.warnings.length, origin.source),
      'claim report processed',
    );
    return outcome;
  }

  /**
   * A report taken by the poller: it belongs to no account and may name claims of any. It is
   * stored whole for the operator only; each account gets its own part of an 835 (the only
   * interchange `GET .../remittances/{id}/x12/` answers it), its own remittance and webhook;
   * what no account owns waits for the operator (`reports:unmatched`).
   */
  async ingestPolled(text: string, externalId: string): Promise<ReportOutcome> {
    const parsed = readClaimReport(text);
    const origin = { accountId: null, source: 'poller' as const, externalId };
    const outcome = await this.store(
      text,
      parsed,
      origin,
      receivedOf(text, origin),
      async (tx, id, work) => {
        if (parsed.remittances.length === 0) return;
        const owners = await this.polledRemittances.apply(tx, id, parsed.remittances, work);
        await this.polled.insertParts(
          id,
          split835(text, (code) => owners.get(code) ?? null),
          tx,
        );
      },
    );
    this.pollLogger.log(
      outcomeLog(outcome, parsed.warnings.length),
      'polled claim report processed',
    );
    return outcome;
  }

  /** Stores the report once and applies it in one transaction; `more` runs after the moves. */
  private store(
    text: string,
    parsed: ParsedReport,
    origin: ReportOrigin,
    received: ReturnType<typeof receivedOf>,
    more?: (tx: Tx, id: string, work: Work) => Promise<void>,
  ): Promise<ReportOutcome> {
    const work: Work = { matched: 0, unmatched: 0 };
    return this.database.transaction(async (tx) => {
      const id = await this.reports.insertOnce(
        {
          ...received,
          source: origin.source,
          type: parsed.type,
          x12: text,
          warnings: parsed.warnings,
        },
        tx,
      );
      if (id === null) {
        const existing = await this.reports.getReceived(received, tx);
        return { ...summary(existing), duplicate: true };
      }
      await this.applier.apply(tx, id, parsed, origin, work);
      await more?.(tx, id, work);
      await this.reports.setCounts(id, work.matched, work.unmatched, tx);
      return {
        id,
        type: parsed.type,
        claims_matched: work.matched,
        claims_unmatched: work.unmatched,
        duplicate: false,
      };
    });
  }

  /**
   * An account stores at most CLAIM_REPORTS_MAX_PER_DAY uploaded reports in 24 hours
   * (docs/api.md "Claim reports and remittances"); the answer says when the next may come.
   */
  private async withinQuota(accountId: string): Promise<void> {
    const most = this.config.claims.reportsMaxPerDay;
    const { count, oldest } = await this.reports.uploadsSince(accountId, 24);
    if (count < most || !oldest) return;
    const retryAfter = (oldest.getTime() + DAY_MS - Date.now()) / 1000;
    throw new QuotaExceededError(
      `This account has uploaded ${most} claim reports in the last 24 hours, the most it may; ` +
        'upload again later.',
      retryAfter,
    );
  }

  /** docs/api.md, Claim reports and remittances: the account's remittances, newest first. */
  async listRemittances(
    accountId: string,
    query: { limit?: number | null; cursor?: string | null },
  ): Promise<RemittanceListResponse> {
    const page = await this.remittances.page(accountId, query.limit ?? 50, query.cursor);
    return {
      result: page.result.map((r) => RemittanceSummaryResponse.from(r)),
      next_cursor: page.next_cursor,
    };
  }

  async getRemittance(accountId: string, id: string): Promise<RemittanceResponse> {
    return RemittanceResponse.from(await this.remittance(accountId, id));
  }

  /**
   * The 835 the remittance came in: the account's own upload as received, or the account's part
   * of a polled interchange (never another account's claims).
   */
  async remittanceX12(accountId: string, id: string): Promise<string> {
    const r = await this.remittance(accountId, id);
    const x12 = await this.polled.accountX12(r.reportId, accountId);
    if (x12 === null) throw new NotFoundError(`The 835 of remittance ${id} is not kept.`);
    return x12;
  }

  private async remittance(accountId: string, id: string): Promise<Remittance> {
    const found = isUuid(id) ? await this.remittances.findOfAccount(accountId, id) : null;
    if (!found) throw new NotFoundError(`Remittance ${id} not found.`);
    return found;
  }
}

function receivedOf(text: string, origin: ReportOrigin) {
  return {
    accountId: origin.accountId,
    externalId: origin.externalId ?? null,
    contentSha256: createHash('sha256').update(text).digest('hex'),
  };
}

function summary(r: ClaimReport): Omit<ReportOutcome, 'duplicate'> {
  return {
    id: r.id,
    type: r.type,
    claims_matched: r.claimsMatched,
    claims_unmatched: r.claimsUnmatched,
  };
}

/** The operator's log line of a processed report (`source` for those not polled). */
function outcomeLog(outcome: ReportOutcome, warnings: number, source?: ClaimReportSource) {
  return {
    report: outcome.id,
    type: outcome.type,
    ...(source && { source }),
    matched: outcome.claims_matched,
    unmatched: outcome.claims_unmatched,
    duplicate: outcome.duplicate,
    warnings,
  };
}
