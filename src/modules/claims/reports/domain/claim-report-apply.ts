import { formatDecimal4 } from '@/platform/kernel/decimal';
import { InjectConfig } from '@/platform/config/config.module';
import type { AppConfig } from '@/platform/config/env';
import { Injectable, Logger } from '@nestjs/common';
import type { Tx } from '@/platform/db/database';
import { ClaimsClearinghouseClient } from '@/modules/insurers';
import { WebhookOutbox } from '@/modules/webhooks';
import {
  type ClaimReport as ParsedReport,
  isRejection,
  type ProviderAdjustment,
  type Remittance as Remittance835,
  type RemittanceClaim,
} from '@/lib/x12';
import { BillingProviders } from '../../domain/claim-billing-provider';
import type { ClaimChange } from '../../domain/claim-transitions';
import { ClaimTransitions } from '../../domain/claim-transitions';
import type { Claim } from '../../store/claim.entity';
import { type ClaimScope, ClaimsRepository } from '../../store/claims.repository';
import type { ReportOrigin } from './claim-reports.service';
import {
  claimRemittance,
  describe277ca,
  describe999,
  describeClp,
  describeTa1,
  remittanceEntry,
  statusFromClp,
} from './claim-report-words';
import { RemittanceResponse } from '../api/dto/remittance.response';
import { RemittancesRepository } from '../store/remittances.repository';

export const EVENT_REMITTANCE_RECEIVED = 'remittance.received';

/** What applying a report counted (what it moved and recorded is handed off at the commit). */
export interface Work {
  matched: number;
  unmatched: number;
}

/** One account's remittance of an 835 payment: its CLPs, and the PLB it gets. */
export interface AccountRemittance {
  reportId: string;
  remittance: Remittance835;
  accountId: string;
  clps: RemittanceClaim[];
  /** The account's claims, by code (a CLP naming none of them is unmatched). */
  byCode: Map<string, Claim>;
  providerAdjustments: ProviderAdjustment[];
  /** BPR02, or the account's share of a payment polled for several accounts. */
  paymentAmount: string;
}

/**
 * Applies a parsed claim report to the claims it names, inside the report's transaction
 * (docs/api.md, Claim reports and remittances): 999/TA1 rejections, 277CA acceptances and
 * rejections, an uploaded 835's remittances (a polled 835's: PolledRemittanceApplier). A polled
 * report names claims of any account: what it would move of two accounts (a control number or a
 * 277CA claim shared by chance) moves none, and the operator's log says so.
 */
@Injectable()
export class ClaimReportApplier {
  private readonly logger = new Logger(ClaimReportApplier.name);

  constructor(
    @InjectConfig() private readonly config: AppConfig,
    private readonly transitions: ClaimTransitions,
    private readonly providers: BillingProviders,
    private readonly outbox: WebhookOutbox,
    private readonly clearinghouse: ClaimsClearinghouseClient,
    private readonly claims: ClaimsRepository,
    private readonly remittances: RemittancesRepository,
  ) {}

  async apply(
    tx: Tx,
    reportId: string,
    report: ParsedReport,
    origin: ReportOrigin,
    work: Work,
  ): Promise<void> {
    const scope = origin.accountId ? { accountId: origin.accountId } : {};
    // Counts the 837Ps of a control number; rejects them when `rejection` says why.
    const interchange = async (controlNumber: string, rejection: string | null) => {
      const claims = await this.byControlNumber(tx, reportId, scope, controlNumber);
      count(work, claims.length);
      if (rejection === null) return;
      for (const c of claims)
        await this.move(tx, c, { status: 'rejected', detail: rejection, nextInMs: null });
    };
    for (const ta1 of report.interchangeAcknowledgments)
      await interchange(ta1.controlNumber, ta1.status.code === 'R' ? describeTa1(ta1) : null);
    for (const group of report.groupAcknowledgments) {
      const groupRejected = isRejection(group.status.code);
      for (const set of group.sets) {
        const rejected = isRejection(set.status.code) || (groupRejected && set.status.code === '');
        await interchange(set.setControlNumber, rejected ? describe999(set, groupRejected) : null);
      }
      if (group.sets.length === 0 && groupRejected) {
        // A group rejected as a whole (AK9*R without AK2): its 837Ps by GS06.
        const detail = `999: the 837P functional group ${group.groupControlNumber} was rejected: ${[group.status, ...group.syntaxErrors].map((e) => `${e.description} (${e.code})`).join('. ')}.`;
        await interchange(group.groupControlNumber, detail);
      }
    }
    for (const ack of report.claimAcknowledgments) {
      for (const claimAck of ack.claims) {
        const found = this.ofOneAccount(
          reportId,
          await this.claims.byCodeOrTrace(
            scope,
            claimAck.patientControlNumber,
            claimAck.clearinghouseTrace,
            tx,
          ),
        );
        const claim =
          found.find((c) => c.code === claimAck.patientControlNumber) ?? found[0] ?? null;
        count(work, claim ? 1 : 0);
        if (!claim || !claimAck.outcome) continue;
        await this.move(tx, claim, {
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
    if (!origin.accountId) return;
    for (const r of report.remittances)
      await this.applyRemittance(tx, reportId, r, origin.accountId, work);
  }

  /** An uploaded 835: every CLP goes in the uploader's remittance, matched to its claims or not. */
  private async applyRemittance(
    tx: Tx,
    reportId: string,
    r: Remittance835,
    accountId: string,
    work: Work,
  ): Promise<void> {
    const codes = [...new Set(r.claims.map((c) => c.patientControlNumber))];
    const found = await this.claims.byCodes({ accountId }, codes, tx);
    await this.recordRemittance(
      tx,
      {
        reportId,
        remittance: r,
        accountId,
        clps: r.claims,
        byCode: new Map(found.map((c) => [c.code, c])),
        providerAdjustments: r.providerAdjustments,
        paymentAmount: r.paymentAmount,
      },
      work,
    );
  }

  /**
   * Stores one account's remittance (once per account, payer and TRN02), fills its claims'
   * `remittance` and moves them, and records `remittance.received` with its GET body.
   */
  async recordRemittance(tx: Tx, a: AccountRemittance, work: Work): Promise<void> {
    const { remittance: r, byCode, accountId } = a;
    const entries = a.clps.map((c) =>
      remittanceEntry(c, byCode.get(c.patientControlNumber)?.code ?? null),
    );
    const matched = entries.filter((e) => e.claim_code !== null).length;
    const remittanceId = await this.remittances.insertOnce(
      {
        accountId,
        reportId: a.reportId,
        payerId: r.payerId.slice(0, 80),
        payerName: r.payerName.slice(0, 80),
        traceNumber: r.traceNumber.slice(0, 80),
        paymentAmount: a.paymentAmount,
        paymentMethod: r.paymentMethod,
        paidAt: r.paidAt,
        claims: entries,
        providerAdjustments: a.providerAdjustments.map(providerAdjustmentEntry),
        claimsMatched: matched,
        claimsUnmatched: entries.length - matched,
      },
      tx,
    );
    count(work, matched, entries.length - matched);
    if (remittanceId === null) return; // this payment was received before
    for (const c of a.clps) {
      const claim = byCode.get(c.patientControlNumber);
      if (!claim) continue;
      const remittance = claimRemittance(remittanceId, r, c);
      const status = statusFromClp(c.statusCode);
      const moved = status
        ? await this.move(tx, claim, {
            status,
            detail: describeClp(r, c),
            set: { remittance },
            nextInMs: null,
          })
        : false;
      // A supplemental payment (or a CLP02 23/25) changes the remittance, not the state.
      if (!moved) await this.claims.update(claim.id, { remittance }, tx);
    }
    const row = await this.remittances.getById(remittanceId, tx);
    await this.outbox.recordEventInTx(tx, {
      accountId,
      topic: 'remittance',
      event: EVENT_REMITTANCE_RECEIVED,
      resourceKey: `remittance:${remittanceId}`,
      resourceUid: remittanceId,
      body: JSON.stringify(RemittanceResponse.from(row)),
    });
  }

  private async move(tx: Tx, claim: Claim, change: ClaimChange): Promise<boolean> {
    const { location } = await this.providers.forLocation(claim.accountId, claim.locationId);
    return this.transitions.moveInTx(tx, claim.id, location, change);
  }

  /** The claims whose 837P interchange had this control number (ISA13 = GS06 = ST02). */
  private async byControlNumber(
    tx: Tx,
    reportId: string,
    scope: ClaimScope,
    controlNumber: string,
  ): Promise<Claim[]> {
    if (!/^\d{1,9}$/.test(controlNumber)) return [];
    return this.ofOneAccount(
      reportId,
      await this.claims.byControlNumber(scope, Number(controlNumber), tx),
    );
  }

  /** `claims` when they are one account's; none (logged for the operator) when not. */
  private ofOneAccount(reportId: string, claims: Claim[]): Claim[] {
    const accounts = new Set(claims.map((c) => c.accountId)).size;
    if (accounts <= 1) return claims;
    this.logger.warn(
      { report: reportId, claims: claims.map((c) => c.code), accounts },
      'claim report names claims of several accounts: none moved',
    );
    return [];
  }
}

export function providerAdjustmentEntry(p: ProviderAdjustment) {
  return {
    reason: p.reason,
    reference: p.reference,
    amount: formatDecimal4(p.amount)!,
    fiscal_period_end: p.fiscalPeriodEnd,
  };
}

export function count(work: Work, matched: number, unmatched = matched === 0 ? 1 : 0): void {
  work.matched += matched;
  work.unmatched += unmatched;
}
