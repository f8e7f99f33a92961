import { Injectable, Logger } from '@nestjs/common';
import { InjectConfig } from '@/platform/config/config.module';
import type { AppConfig } from '@/platform/config/env';
import type { Location } from '@/modules/accounts';
import { ClaimsClearinghouseClient, insurerName } from '@/modules/insurers';
import { write837, X12ParseError, X12WriteError } from '@/lib/x12';
import type { BillingProvider } from './claim-billing-provider';
import { ClaimsQueue } from '../jobs/claims.queue';
import { ClaimTransitions } from './claim-transitions';
import { ClaimsRepository } from '../store/claims.repository';
import { professionalClaimOf, x12RouteGaps } from './claim-x12';
import type { ClaimServiceLine } from '../store/claim-service-line.entity';
import type { Claim } from '../store/claim.entity';
import { ClaimReportsService } from '../reports/domain/claim-reports.service';

export interface ClaimContext {
  claim: Claim;
  lines: ClaimServiceLine[];
  location: Location;
  provider: BillingProvider | null;
}

/**
 * Submits a claim (docs/api.md, Claim lifecycle and Claims): as an 837P when the insurer has an
 * electronic route and the claim all the 837P requires (`x12RouteGaps`), else on paper
 * (`ready_to_mail`, `submission.detail` saying why). Every attempt sends the same interchange
 * with the same `Idempotency-Key`, so a claim taken before its answer was lost is not taken twice.
 */
@Injectable()
export class ClaimSubmitter {
  private readonly logger = new Logger(ClaimSubmitter.name);

  constructor(
    @InjectConfig() private readonly config: AppConfig,
    private readonly client: ClaimsClearinghouseClient,
    private readonly transitions: ClaimTransitions,
    private readonly reports: ClaimReportsService,
    private readonly queue: ClaimsQueue,
    private readonly claims: ClaimsRepository,
  ) {}

  async submit(ctx: ClaimContext, attempt: number): Promise<void> {
    const { claim, lines, location, provider } = ctx;
    const insurer = insurerName(claim.insurerCode);
    const payerId = this.client.payerIdFor(claim.insurerCode);
    const paperBecause =
      !this.client.submitsTo(claim.insurerCode) || !payerId
        ? [`${insurer} has no electronic claims route.`]
        : !provider
          ? [`The location ${location.code} has no NPI.`]
          : x12RouteGaps(claim, lines, provider);
    if (paperBecause.length > 0 || !provider || !payerId) {
      const detail = paperBecause.join(' ').slice(0, 900);
      // docs/api.md, Errors: nothing has gone to the insurer yet; `submitted` comes when it is mailed.
      await this.transitions.move(claim.id, location, {
        status: 'ready_to_mail',
        detail: `Paper claim form (CMS-1500), to be mailed to ${insurer}. ${detail}`,
        set: { submissionDetail: detail },
        nextInMs: null,
      });
      return;
    }

    const kept = await this.claims.keepEnvelope(claim.id, this.client.envelope().createdAt);
    let x12: string;
    try {
      x12 = write837(
        professionalClaimOf(claim, lines, provider, payerId, {
          submitterId: this.config.clearinghouse.submitterId,
          receiverId: this.config.clearinghouse.receiverId,
          contactEmail: /<?([^<>\s]+@[^<>\s]+)>?\s*$/.exec(this.config.mailFrom)?.[1] ?? '',
        }),
        this.client.envelope(kept),
      );
    } catch (e) {
      if (!(e instanceof X12WriteError)) throw e;
      await this.fail(claim, location, `the 837P cannot be written: ${e.message}`, null, null);
      return;
    }
    const outcome = await this.client.submit(
      x12,
      this.config.insurerTimeoutMs,
      idempotencyKey(claim.code, kept.controlNumber),
    );
    this.logger.log({ claim: claim.code, attempt, outcome: outcome.kind }, 'claim submitted');
    if (outcome.kind === 'accepted') {
      await this.transitions.move(claim.id, location, {
        status: 'submitted',
        detail: `Submitted as 837P; clearinghouse id ${outcome.clearinghouseId}.`,
        set: {
          submissionChannel: 'x12',
          clearinghouseId: outcome.clearinghouseId,
          submittedAt: new Date(),
          submissionDetail: null,
          x12837: x12,
        },
        nextInMs: this.client.checksStatusOf(claim.insurerCode)
          ? this.config.claims.statusIntervalMs
          : null,
      });
      if (outcome.report) await this.readOwnReport(claim, outcome.report);
    } else if (outcome.kind === 'refused') {
      await this.fail(claim, location, outcome.reason, x12, null);
    } else {
      const delay = this.queue.retryDelay(attempt, outcome.retryAfterMs ?? 0);
      if (delay === null) {
        const reason = `${outcome.reason}; gave up after ${attempt} attempts`;
        await this.fail(claim, location, reason, x12, null);
      } else await this.fail(claim, location, `${outcome.reason}; will retry`, x12, delay);
    }
  }

  /** docs/api.md, Claim reports and remittances: the submit answer's own 277CA or 999 is processed like a report. */
  private async readOwnReport(claim: Claim, x12: string): Promise<void> {
    try {
      await this.reports.ingest(x12, { accountId: claim.accountId, source: 'submission' });
    } catch (e) {
      if (!(e instanceof X12ParseError)) throw e;
      // The claim is submitted either way; the reports that follow will tell its fate.
      this.logger.warn({ claim: claim.code }, 'the submit answer carries an unreadable x12 report');
    }
  }

  private async fail(
    claim: Claim,
    location: Location,
    reason: string,
    x12: string | null,
    retryInMs: number | null,
  ): Promise<void> {
    await this.transitions.move(claim.id, location, {
      status: 'submission_failed',
      detail: reason.slice(0, 1000),
      set: x12 ? { x12837: x12 } : {},
      nextInMs: retryInMs,
    });
  }
}

/** The `Idempotency-Key` of a claim's submissions: the same on every retry of its interchange. */
export function idempotencyKey(claimCode: string, controlNumber: number): string {
  return `${claimCode}-${String(controlNumber).padStart(9, '0')}`;
}
