import { randomBytes } from 'node:crypto';
import { Injectable, Logger } from '@nestjs/common';
import { InjectConfig } from '@/platform/config/config.module';
import type { AppConfig } from '@/platform/config/env';
import { tags } from '@/platform/jobs/db-queue';
import { ClaimsClearinghouseClient } from '@/modules/insurers';
import { read277, write276, X12ParseError, X12WriteError } from '@/lib/x12';
import { canMove, describe277, FINAL_STATUSES, statusFrom277 } from './claim-lifecycle';
import type { ClaimContext } from './claim-submitter';
import { ClaimTransitions } from './claim-transitions';
import { ClaimsQueue } from '../jobs/claims.queue';
import { ClaimsRepository } from '../store/claims.repository';
import { statusInquiryOf } from './claim-x12';

/**
 * Follows a submitted 837P (docs/api.md, Claim lifecycle): a 276, and the 277's current status
 * (its first STC) moves the claim; every CLAIM_STATUS_INTERVAL_MS until rejected, paid or denied.
 */
@Injectable()
export class ClaimStatusChecker {
  private readonly logger = new Logger(ClaimStatusChecker.name);

  constructor(
    @InjectConfig() private readonly config: AppConfig,
    private readonly client: ClaimsClearinghouseClient,
    private readonly transitions: ClaimTransitions,
    private readonly queue: ClaimsQueue,
    private readonly claims: ClaimsRepository,
  ) {}

  async check(ctx: ClaimContext): Promise<void> {
    const { claim, lines, location, provider } = ctx;
    const interval = this.config.claims.statusIntervalMs;
    // Nothing changed: the next check is due in one interval.
    const later = () => this.queue.schedule(claim.id, interval, tags.transition());
    // docs/api.md, Claim reports and remittances: only for the insurers of INSURER_CLAIM_STATUS,
    // at most CLAIM_STATUS_MAX_CHECKS times; otherwise the claim waits for reports.
    if (!this.client.checksStatusOf(claim.insurerCode)) {
      this.logger.log({ claim: claim.code }, 'claim status not checked: waits for reports');
      return this.queue.clearDue(claim.id);
    }
    if (claim.statusChecks >= this.config.claims.statusMaxChecks) {
      this.logger.warn(
        { claim: claim.code, checks: claim.statusChecks },
        'claim status checks stopped at CLAIM_STATUS_MAX_CHECKS; the claim waits for reports',
      );
      return this.queue.clearDue(claim.id);
    }
    const payerId = this.client.payerIdFor(claim.insurerCode);
    if (!provider || !payerId || !this.client.canCheckStatus()) {
      // The route is gone (settings changed): ask again later, when it may be back.
      this.logger.warn({ claim: claim.code }, 'claim status not checked: no route');
      return later();
    }
    const trace = randomBytes(8).toString('hex').toUpperCase();
    let x276: string;
    try {
      x276 = write276(
        statusInquiryOf(
          claim,
          lines,
          provider,
          payerId,
          this.config.clearinghouse.receiverId,
          trace,
        ),
        this.client.envelope(),
      );
    } catch (e) {
      if (!(e instanceof X12WriteError)) throw e;
      // X12 messages may quote the values (patient data): never logged.
      this.logger.warn({ claim: claim.code }, 'the 276 cannot be written');
      return later();
    }
    await this.claims.countCheck(claim.id);
    const answer = await this.client.checkStatus(x276, this.config.insurerTimeoutMs);
    if (answer.kind === 'failed') {
      this.logger.warn({ claim: claim.code, err: answer.reason }, 'claim status check failed');
      return later();
    }
    let statuses;
    try {
      statuses = read277(answer.x12).find(
        (c) => c.trace === trace || c.patientControlNumber === claim.code,
      )?.statuses;
    } catch (e) {
      if (!(e instanceof X12ParseError)) throw e;
      this.logger.warn({ claim: claim.code }, 'the 277 does not parse');
      return later();
    }
    const current = statuses?.[0];
    const next = current ? statusFrom277(current) : null;
    if (!current || !next || !canMove(claim.status, next)) {
      this.logger.log({ claim: claim.code, category: current?.category }, 'claim status unchanged');
      return later();
    }
    await this.transitions.move(claim.id, location, {
      status: next,
      detail: describe277(current),
      nextInMs: FINAL_STATUSES.includes(next) ? null : interval,
    });
  }
}
