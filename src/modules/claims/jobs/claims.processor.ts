import { Injectable } from '@nestjs/common';
import type { QueueJob } from '@/platform/jobs/local-lane';
import { JobHandler, QueueWorker } from '@/platform/jobs/queue-worker';
import { BillingProviders } from '../domain/claim-billing-provider';
import { ClaimStatusChecker } from '../domain/claim-status-checker';
import { ClaimSubmitter } from '../domain/claim-submitter';
import { CLAIMS_QUEUE, ClaimsQueue } from './claims.queue';
import { ClaimsRepository } from '../store/claims.repository';

/**
 * Runs the due work of a claim: its submission or a status check. The lease skips a claim with
 * nothing due or held by another job.
 */
@Injectable()
@QueueWorker(CLAIMS_QUEUE)
export class ClaimsProcessor implements JobHandler {
  constructor(
    private readonly claims: ClaimsRepository,
    private readonly queue: ClaimsQueue,
    private readonly providers: BillingProviders,
    private readonly submitter: ClaimSubmitter,
    private readonly checker: ClaimStatusChecker,
  ) {}

  async handle(job: QueueJob): Promise<void> {
    const attempt = await this.queue.lease(job.data.id, String(job.id));
    if (attempt === null) return;
    const claim = await this.claims.findById(job.data.id);
    if (!claim) return;
    const [lines, { location, provider }] = await Promise.all([
      this.claims.linesOf(claim.id),
      this.providers.forLocation(claim.accountId, claim.locationId),
    ]);
    const ctx = { claim, lines, location, provider };
    if (claim.status === 'ready' || claim.status === 'submission_failed')
      await this.submitter.submit(ctx, attempt);
    else await this.checker.check(ctx);
  }
}
