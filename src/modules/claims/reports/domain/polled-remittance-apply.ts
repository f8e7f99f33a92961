import { Injectable } from '@nestjs/common';
import { fromMinor, toMinor } from '@/platform/kernel/decimal';
import type { Tx } from '@/platform/db/database';
import {
  providerAdjustmentOwner,
  type Remittance as Remittance835,
  type RemittanceClaim,
} from '@/lib/x12';
import { ClaimsRepository } from '../../store/claims.repository';
import {
  ClaimReportApplier,
  count,
  providerAdjustmentEntry,
  type Work,
} from './claim-report-apply';
import { remittanceEntry } from './claim-report-words';
import { type NewUnmatchedItem, PolledReportsRepository } from '../store/polled-reports.repository';

/**
 * The remittances of a polled 835 (docs/api.md, Claim reports and remittances): each account gets
 * one of its own CLPs only; its payment amount is BPR02 when it has every CLP and PLB of the
 * payment, else its CLP04s less its PLBs (as its part of the 835 says, x835.split.ts). CLPs naming
 * no claim, and PLBs of a payment shared by several accounts, wait for the operator.
 */
@Injectable()
export class PolledRemittanceApplier {
  constructor(
    private readonly claims: ClaimsRepository,
    private readonly applier: ClaimReportApplier,
    private readonly polled: PolledReportsRepository,
  ) {}

  /** Applies the remittances; answers the account of each CLP01 that names a claim. */
  async apply(
    tx: Tx,
    reportId: string,
    remittances: Remittance835[],
    work: Work,
  ): Promise<Map<string, string>> {
    const codes = [
      ...new Set(remittances.flatMap((r) => r.claims.map((c) => c.patientControlNumber))),
    ];
    const found = await this.claims.byCodes({}, codes, tx);
    const byCode = new Map(found.map((c) => [c.code, c]));
    const ownerOf = (c: RemittanceClaim) => byCode.get(c.patientControlNumber)?.accountId ?? null;
    for (const r of remittances) {
      const plbOwner = providerAdjustmentOwner(r.claims.map(ownerOf));
      const held = r.claims.filter((c) => ownerOf(c) === null).map((c) => heldClaim(r, c));
      if (plbOwner === null) held.push(...heldAdjustments(r));
      await this.polled.insertUnmatched(reportId, held, tx);
      count(work, 0, r.claims.length - r.claims.filter(ownerOf).length);
      for (const accountId of new Set(r.claims.map(ownerOf))) {
        if (accountId === null) continue;
        const clps = r.claims.filter((c) => ownerOf(c) === accountId);
        const providerAdjustments = accountId === plbOwner ? r.providerAdjustments : [];
        const whole =
          clps.length === r.claims.length &&
          providerAdjustments.length === r.providerAdjustments.length;
        const share =
          clps.reduce((total, c) => total + toMinor(c.paid), 0n) -
          providerAdjustments.reduce((total, p) => total + toMinor(p.amount), 0n);
        await this.applier.recordRemittance(
          tx,
          {
            reportId,
            remittance: r,
            accountId,
            clps,
            byCode,
            providerAdjustments,
            paymentAmount: whole ? r.paymentAmount : fromMinor(share),
          },
          work,
        );
      }
    }
    return new Map(found.map((c) => [c.code, c.accountId]));
  }
}

function heldClaim(r: Remittance835, c: RemittanceClaim): NewUnmatchedItem {
  return {
    kind: 'claim',
    payerId: r.payerId,
    payerName: r.payerName,
    traceNumber: r.traceNumber,
    reference: c.patientControlNumber,
    amount: c.paid,
    detail: remittanceEntry(c, null),
  };
}

function heldAdjustments(r: Remittance835): NewUnmatchedItem[] {
  return r.providerAdjustments.map((p) => ({
    kind: 'provider_adjustment',
    payerId: r.payerId,
    payerName: r.payerName,
    traceNumber: r.traceNumber,
    reference: p.reference,
    amount: p.amount,
    detail: { provider: p.provider, ...providerAdjustmentEntry(p) },
  }));
}
