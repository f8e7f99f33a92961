import { createHash } from 'node:crypto';
import { Injectable, Logger } from '@nestjs/common';
import { Database } from '@/platform/db/database';
import { readClaimReport, split835 } from '@/lib/x12';
import { ClaimReportApplier, newWork, storedOutcome } from './claim-report-apply';
import { ClaimReportsRepository } from '../store/claim-reports.repository';
import { outcomeLog, type ReportOutcome, summary } from './claim-reports.service';
import { PolledRemittanceApplier } from './polled-remittance-apply';
import { PolledReportsRepository } from '../store/polled-reports.repository';

/**
 * A report taken by the poller (docs/api.md, Claim reports and remittances): it belongs to no account and may name claims of
 * any. It is stored whole for the operator only; each account gets its own part of an 835 (the
 * only interchange `GET .../remittances/{id}/x12/` answers it), its own remittance and webhook;
 * what no account owns waits for the operator (`reports:unmatched`). A 999, TA1 or 277CA moves
 * the claims of one account at most (ClaimReportApplier). Stored once per upstream id, applied
 * in the same transaction; what follows the moves and the webhook deliveries runs after the
 * commit (`tx.afterCommit`).
 */
@Injectable()
export class PolledReports {
  private readonly logger = new Logger(PolledReports.name);

  constructor(
    private readonly database: Database,
    private readonly reports: ClaimReportsRepository,
    private readonly parts: PolledReportsRepository,
    private readonly applier: ClaimReportApplier,
    private readonly remittances: PolledRemittanceApplier,
  ) {}

  async ingest(text: string, externalId: string): Promise<ReportOutcome> {
    const parsed = readClaimReport(text);
    const origin = { accountId: null, source: 'poller' as const, externalId };
    const received = {
      accountId: null,
      externalId,
      contentSha256: createHash('sha256').update(text).digest('hex'),
    };
    const work = newWork();
    const outcome = await this.database.transaction(async (tx) => {
      const id = await this.reports.insertOnce(
        { ...received, source: 'poller', type: parsed.type, x12: text, warnings: parsed.warnings },
        tx,
      );
      if (id === null)
        return { ...summary(await this.reports.getReceived(received, tx)), duplicate: true };
      await this.applier.apply(tx, id, parsed, origin, work);
      if (parsed.remittances.length > 0) {
        const owners = await this.remittances.apply(tx, id, parsed.remittances, work);
        await this.parts.insertParts(
          id,
          split835(text, (code) => owners.get(code) ?? null),
          tx,
        );
      }
      await this.reports.setCounts(id, work.matched, work.unmatched, tx);
      return storedOutcome(id, parsed.type, work);
    });
    this.logger.log(outcomeLog(outcome, parsed.warnings.length), 'polled claim report processed');
    return outcome;
  }
}
