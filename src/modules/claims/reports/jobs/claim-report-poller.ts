import { Injectable, Logger } from '@nestjs/common';
import { MaintenanceLoop } from '@/platform/jobs/maintenance-loop';
import { InjectConfig } from '@/platform/config/config.module';
import type { AppConfig } from '@/platform/config/env';
import { CallFailure, ClaimsClearinghouseClient } from '@/modules/insurers';
import { X12ParseError } from '@/lib/x12';
import { ClaimReportsRepository } from '../store/claim-reports.repository';
import { ClaimReportsService } from '../domain/claim-reports.service';

/** Pages read per tick: a backlog drains over a few ticks instead of holding one for long. */
const MAX_PAGES_PER_TICK = 20;

/**
 * Polls the clearinghouse's reports (docs/api.md, Claim reports and remittances) every
 * CLAIM_REPORTS_INTERVAL_MS in worker processes: each new report is stored and applied, and only
 * then deleted upstream, so one killed in between is found stored next tick and just deleted.
 * The page token is kept in `claim_report_polls`: a restart goes on where the last page left off.
 */
@Injectable()
export class ClaimReportPoller extends MaintenanceLoop {
  protected readonly logger = new Logger(ClaimReportPoller.name);

  constructor(
    @InjectConfig() config: AppConfig,
    private readonly stored: ClaimReportsRepository,
    private readonly client: ClaimsClearinghouseClient,
    private readonly reports: ClaimReportsService,
  ) {
    super(config);
  }

  protected override intervalMs(): number {
    return this.config.claims.reportsIntervalMs;
  }

  protected async runOnce(): Promise<void> {
    const url = this.config.claims.reportsUrl;
    if (!url || !this.client.pollsReports()) return;
    const timeout = this.config.insurerTimeoutMs;
    let token = await this.stored.pageToken(url);
    for (let page = 0; page < MAX_PAGES_PER_TICK; page++) {
      let list;
      try {
        list = await this.client.listReports(token, timeout);
      } catch (e) {
        if (!(e instanceof CallFailure)) throw e;
        this.logger.warn({ err: e.message }, 'claim reports not listed');
        return;
      }
      for (const item of list.items) await this.take(item.id, timeout);
      token = list.nextPageToken;
      await this.stored.savePageToken(url, token);
      if (!token) return;
    }
  }

  /** Store (and apply) one report, then delete it upstream; a failure leaves it for next time. */
  private async take(id: string, timeoutMs: number): Promise<void> {
    try {
      if (!(await this.stored.isStored(id))) {
        const x12 = await this.client.fetchReport(id, timeoutMs);
        const outcome = await this.reports.ingestPolled(x12, id);
        this.logger.log(
          { report: id, type: outcome.type, duplicate: outcome.duplicate },
          'report stored',
        );
      }
      await this.client.deleteReport(id, timeoutMs);
    } catch (e) {
      if (e instanceof X12ParseError) {
        // Kept upstream for the operator: deleting it would lose what the service cannot read.
        this.logger.warn(
          { report: id, err: e.redacted },
          'claim report not readable; left upstream',
        );
        return;
      }
      if (!(e instanceof CallFailure)) throw e;
      this.logger.warn({ report: id, err: e.message }, 'claim report not taken; next poll retries');
    }
  }
}
