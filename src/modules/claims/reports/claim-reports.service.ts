import { createHash } from 'node:crypto';
import { formatDecimal4 } from '@/common/decimal';
import { NotFoundError } from '@/common/errors';
import { paginateKeyset } from '@/common/pagination/keyset-paginator';
import { InjectConfig } from '@/config/config.module';
import type { AppConfig } from '@/config/env';
import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager, In, IsNull } from 'typeorm';
import { ClaimsClearinghouseClient } from '@/modules/insurers/clearinghouse/claims-clearinghouse.client';
import { WebhookOutbox } from '@/modules/webhooks/webhook-outbox';
import {
  readClaimReport,
  type ClaimReport as ParsedReport,
} from '@/modules/x12/claim-report.reader';
import type { Remittance as Remittance835 } from '@/modules/x12/x835.reader';
import { isRejection } from '@/modules/x12/x999.reader';
import { BillingProviders } from '../claim-billing-provider';
import type { ClaimChange, ClaimMoved } from '../claim-transitions';
import { ClaimTransitions } from '../claim-transitions';
import { Claim } from '../claim.entity';
import { ClaimReport, type ClaimReportSource } from './claim-report.entity';
import {
  claimRemittance,
  describe277ca,
  describe999,
  describeClp,
  describeTa1,
  remittanceEntry,
  statusFromClp,
} from './claim-report-words';
import {
  RemittanceListResponse,
  RemittanceResponse,
  RemittanceSummaryResponse,
} from './dto/remittance.response';
import { Remittance } from './remittance.entity';

export const EVENT_REMITTANCE_RECEIVED = 'remittance.received';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

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

interface Work {
  moved: ClaimMoved[];
  deliveries: string[];
  matched: number;
  unmatched: number;
}

/**
 * Processes claim reports (CONTRACT §16): 999 and TA1 rejections, 277CA acceptances and
 * rejections, 835 remittances. A report is parsed first (an X12ParseError stores nothing), then
 * stored and applied in one transaction: a report received again (same upstream id, or the same
 * bytes for the same account) changes nothing, a remittance is stored once per (account, payer,
 * TRN02), and a claim moves only along the lifecycle's arrows. Webhook deliveries and the claims'
 * next runs are queued after the commit.
 */
@Injectable()
export class ClaimReportsService {
  private readonly logger = new Logger(ClaimReportsService.name);

  constructor(
    @InjectConfig() private readonly config: AppConfig,
    @InjectDataSource() private readonly db: DataSource,
    private readonly transitions: ClaimTransitions,
    private readonly providers: BillingProviders,
    private readonly outbox: WebhookOutbox,
    private readonly clearinghouse: ClaimsClearinghouseClient,
  ) {}

  async ingest(text: string, origin: ReportOrigin): Promise<ReportOutcome> {
    const parsed = readClaimReport(text);
    const sha = createHash('sha256').update(text).digest('hex');
    const work: Work = { moved: [], deliveries: [], matched: 0, unmatched: 0 };
    const outcome = await this.db.transaction(async (em) => {
      const rows: { id: string }[] = await em.query(
        `INSERT INTO claim_reports (account_id, source, external_id, content_sha256, type, x12, warnings)
         VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT DO NOTHING RETURNING id`,
        [
          origin.accountId,
          origin.source,
          origin.externalId ?? null,
          sha,
          parsed.type,
          text,
          JSON.stringify(parsed.warnings),
        ],
      );
      if (rows.length === 0) {
        const existing = await em.findOneOrFail(ClaimReport, {
          where: origin.externalId
            ? { externalId: origin.externalId }
            : { contentSha256: sha, accountId: origin.accountId ?? IsNull() },
        });
        return { ...summary(existing), duplicate: true };
      }
      const id = rows[0].id;
      await this.apply(em, id, parsed, origin, work);
      await em.update(ClaimReport, id, {
        claimsMatched: work.matched,
        claimsUnmatched: work.unmatched,
      });
      return {
        id,
        type: parsed.type,
        claims_matched: work.matched,
        claims_unmatched: work.unmatched,
        duplicate: false,
      };
    });
    for (const m of work.moved) await this.transitions.afterCommit(m);
    await this.outbox.dispatch(work.deliveries);
    this.logger.log(
      {
        report: outcome.id,
        type: outcome.type,
        source: origin.source,
        matched: outcome.claims_matched,
        unmatched: outcome.claims_unmatched,
        duplicate: outcome.duplicate,
        warnings: parsed.warnings.length,
      },
      'claim report processed',
    );
    return outcome;
  }

  /** CONTRACT §16: the account's remittances, newest first. */
  async listRemittances(
    accountId: string,
    query: { limit?: number | null; cursor?: string | null },
  ): Promise<RemittanceListResponse> {
    const page = await paginateKeyset(
      this.db
        .getRepository(Remittance)
        .createQueryBuilder('r')
        .where('r.account_id = :accountId', { accountId }),
      { limit: query.limit ?? 50, cursor: query.cursor },
    );
    return {
      result: page.result.map((r) => RemittanceSummaryResponse.from(r)),
      next_cursor: page.next_cursor,
    };
  }

  async getRemittance(accountId: string, id: string): Promise<RemittanceResponse> {
    return RemittanceResponse.from(await this.remittance(accountId, id));
  }

  /** The interchange the remittance came in (its 835). */
  async remittanceX12(accountId: string, id: string): Promise<string> {
    const r = await this.remittance(accountId, id);
    const report = await this.db.getRepository(ClaimReport).findOneByOrFail({ id: r.reportId });
    return report.x12;
  }

  private async remittance(accountId: string, id: string): Promise<Remittance> {
    const found = UUID.test(id)
      ? await this.db.getRepository(Remittance).findOneBy({ id, accountId })
      : null;
    if (!found) throw new NotFoundError(`Remittance ${id} not found.`);
    return found;
  }

  private async apply(
    em: EntityManager,
    reportId: string,
    report: ParsedReport,
    origin: ReportOrigin,
    work: Work,
  ): Promise<void> {
    const scope = origin.accountId ? { accountId: origin.accountId } : {};
    for (const ta1 of report.interchangeAcknowledgments) {
      const claims = await this.byControlNumber(em, scope, ta1.controlNumber);
      count(work, claims.length);
      if (ta1.status.code !== 'R') continue;
      for (const c of claims)
        await this.move(em, c, work, {
          status: 'rejected',
          detail: describeTa1(ta1),
          nextInMs: null,
        });
    }
    for (const group of report.groupAcknowledgments) {
      const groupRejected = isRejection(group.status.code);
      for (const set of group.sets) {
        const claims = await this.byControlNumber(em, scope, set.setControlNumber);
        count(work, claims.length);
        if (!isRejection(set.status.code) && !(groupRejected && set.status.code === '')) continue;
        for (const c of claims)
          await this.move(em, c, work, {
            status: 'rejected',
            detail: describe999(set, groupRejected),
            nextInMs: null,
          });
      }
      if (group.sets.length === 0 && groupRejected) {
        // A group rejected as a whole (AK9*R without AK2): its 837Ps by GS06.
        const claims = await this.byControlNumber(em, scope, group.groupControlNumber);
        count(work, claims.length);
        const detail = `999: the 837P functional group ${group.groupControlNumber} was rejected: ${[group.status, ...group.syntaxErrors].map((e) => `${e.description} (${e.code})`).join('. ')}.`;
        for (const c of claims)
          await this.move(em, c, work, { status: 'rejected', detail, nextInMs: null });
      }
    }
    for (const ack of report.claimAcknowledgments) {
      for (const claimAck of ack.claims) {
        const where = [
          { ...scope, code: claimAck.patientControlNumber },
          ...(claimAck.clearinghouseTrace
            ? [{ ...scope, clearinghouseId: claimAck.clearinghouseTrace }]
            : []),
        ];
        const claim = await em.findOne(Claim, { where });
        count(work, claim ? 1 : 0);
        if (!claim || !claimAck.outcome) continue;
        await this.move(em, claim, work, {
          status: claimAck.outcome,
          detail: describe277ca(claimAck),
          // Accepted: status checks go on where they run at all; otherwise the 835 will tell.
          nextInMs:
            claimAck.outcome === 'accepted' &&
            this.clearinghouse.checksStatusOf(claim.insurerCode) &&
            claim.statusChecks < this.config.claims.statusMaxChecks
              ? this.config.claims.statusIntervalMs
              : null,
        });
      }
    }
    for (const r of report.remittances) await this.applyRemittance(em, reportId, r, scope, work);
  }

  private async applyRemittance(
    em: EntityManager,
    reportId: string,
    r: Remittance835,
    scope: { accountId?: string },
    work: Work,
  ): Promise<void> {
    const codes = [...new Set(r.claims.map((c) => c.patientControlNumber))];
    const found = codes.length
      ? await em.find(Claim, { where: { ...scope, code: In(codes) } })
      : [];
    const byCode = new Map(found.map((c) => [c.code, c]));
    const accounts = scope.accountId
      ? [scope.accountId]
      : [...new Set(found.map((c) => c.accountId))];
    if (accounts.length === 0) {
      // A polled 835 naming no claim of any account: kept as the stored report only.
      count(work, 0, r.claims.length);
      return;
    }
    for (const accountId of accounts) {
      const mine = r.claims.filter((c) => {
        const claim = byCode.get(c.patientControlNumber);
        return !claim || claim.accountId === accountId;
      });
      const entries = mine.map((c) => {
        const claim = byCode.get(c.patientControlNumber);
        return remittanceEntry(c, claim ? claim.code : null);
      });
      const matched = entries.filter((e) => e.claim_code !== null).length;
      const inserted: { id: string }[] = await em.query(
        `INSERT INTO remittances (account_id, report_id, payer_id, payer_name, trace_number,
           payment_amount, payment_method, paid_at, claims, provider_adjustments, claims_matched,
           claims_unmatched)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
         ON CONFLICT ON CONSTRAINT remittances_once DO NOTHING RETURNING id`,
        [
          accountId,
          reportId,
          r.payerId.slice(0, 80),
          r.payerName.slice(0, 80),
          r.traceNumber.slice(0, 80),
          r.paymentAmount,
          r.paymentMethod,
          r.paidAt,
          JSON.stringify(entries),
          JSON.stringify(
            r.providerAdjustments.map((p) => ({
              reason: p.reason,
              reference: p.reference,
              amount: formatDecimal4(p.amount),
              fiscal_period_end: p.fiscalPeriodEnd,
            })),
          ),
          matched,
          entries.length - matched,
        ],
      );
      count(work, matched, entries.length - matched);
      if (inserted.length === 0) continue; // this payment was received before
      const remittanceId = inserted[0].id;
      for (const c of mine) {
        const claim = byCode.get(c.patientControlNumber);
        if (!claim) continue;
        const remittance = claimRemittance(remittanceId, r, c);
        const status = statusFromClp(c.statusCode);
        const moved = status
          ? await this.move(em, claim, work, {
              status,
              detail: describeClp(r, c),
              set: { remittance },
              nextInMs: null,
            })
          : false;
        // A supplemental payment (or a CLP02 23/25) changes the remittance, not the state.
        if (!moved) await em.update(Claim, claim.id, { remittance });
      }
      const row = await em.findOneByOrFail(Remittance, { id: remittanceId });
      work.deliveries.push(
        ...(await this.outbox.recordEventInTx(em, {
          accountId,
          topic: 'remittance',
          event: EVENT_REMITTANCE_RECEIVED,
          resourceKey: `remittance:${remittanceId}`,
          resourceUid: remittanceId,
          body: JSON.stringify(RemittanceResponse.from(row)),
        })),
      );
    }
  }

  private async move(
    em: EntityManager,
    claim: Claim,
    work: Work,
    change: ClaimChange,
  ): Promise<boolean> {
    const { location } = await this.providers.forLocation(claim.accountId, claim.locationId);
    const moved = await this.transitions.moveInTx(em, claim.id, location, change);
    if (moved) work.moved.push(moved);
    return moved !== null;
  }

  /** The claims whose 837P interchange had this control number (ISA13 = GS06 = ST02). */
  private byControlNumber(
    em: EntityManager,
    scope: { accountId?: string },
    controlNumber: string,
  ): Promise<Claim[]> {
    if (!/^\d{1,9}$/.test(controlNumber)) return Promise.resolve([]);
    return em.find(Claim, { where: { ...scope, x12ControlNumber: Number(controlNumber) } });
  }
}

function count(work: Work, matched: number, unmatched = matched === 0 ? 1 : 0): void {
  work.matched += matched;
  work.unmatched += unmatched;
}

function summary(r: ClaimReport): Omit<ReportOutcome, 'duplicate'> {
  return {
    id: r.id,
    type: r.type,
    claims_matched: r.claimsMatched,
    claims_unmatched: r.claimsUnmatched,
  };
}
