import { Injectable, Logger } from '@nestjs/common';
import { formatInstant } from '@/platform/kernel/time';
import { tags } from '@/platform/jobs/db-queue';
import { Database, type Tx } from '@/platform/db/database';
import type { Location } from '@/modules/accounts';
import { WebhookOutbox } from '@/modules/webhooks';
import { canMove } from './claim-lifecycle';
import type { ClaimStatus } from '../store/claim.entity';
import { ClaimsQueue } from '../jobs/claims.queue';
import { type ClaimSubmissionSets, ClaimsRepository } from '../store/claims.repository';
import { ClaimResponse } from '../api/dto/claim.response';

export const EVENT_CLAIM_STATUS_CHANGED = 'claim.status_changed';

export interface ClaimChange {
  status: ClaimStatus;
  detail: string | null;
  /** Other columns set in the same UPDATE (submission, the 837P). */
  set?: ClaimSubmissionSets;
  /** When the next run is due (a retry, a status check); null: nothing left to do. */
  nextInMs: number | null;
}

/**
 * Moves a claim along its lifecycle (docs/api.md, Claim lifecycle) under the claim's row lock:
 * the status and its history entry, the submission columns, one webhook delivery (topic `claim`,
 * the claim's GET body) and the next due time. The log line, the deliveries and the next run
 * are queued after the commit (`tx.afterCommit`), in that order; after a rollback, none of it.
 */
@Injectable()
export class ClaimTransitions {
  private readonly logger = new Logger(ClaimTransitions.name);

  constructor(
    private readonly database: Database,
    private readonly claims: ClaimsRepository,
    private readonly outbox: WebhookOutbox,
    private readonly queue: ClaimsQueue,
  ) {}

  /**
   * Applies `change` if the claim may move there from where it is (a repeated failure of the
   * same kind is recorded too: its detail says what happened). Answers false when it may not.
   */
  move(claimId: string, location: Location, change: ClaimChange): Promise<boolean> {
    return this.database.transaction((tx) => this.moveInTx(tx, claimId, location, change));
  }

  /** `move` inside the caller's transaction (a claim report's). */
  async moveInTx(
    tx: Tx,
    claimId: string,
    location: Location,
    change: ClaimChange,
  ): Promise<boolean> {
    const claim = await this.claims.lockById(claimId, tx);
    if (!claim || !canMove(claim.status, change.status)) return false;
    const { status, nextInMs } = change;
    tx.afterCommit(() =>
      this.logger.log({ claim: claim.code, status, next: nextInMs }, 'claim status changed'),
    );
    const history = [
      ...(claim.statusHistory ?? []),
      { status: change.status, at: formatInstant(new Date(), 'api'), detail: change.detail },
    ];
    await this.claims.update(
      claimId,
      { ...change.set, status: change.status, statusHistory: history },
      tx,
    );
    Object.assign(claim, change.set, { status: change.status, statusHistory: history });
    const lines = await this.claims.linesOf(claimId, tx);
    const body = JSON.stringify(ClaimResponse.from(claim, lines, location));
    await this.outbox.recordEventInTx(tx, {
      accountId: claim.accountId,
      topic: 'claim',
      event: EVENT_CLAIM_STATUS_CHANGED,
      resourceKey: `claim:${claim.code}:${history.length}`,
      resourceUid: claim.code,
      body,
    });
    // After the deliveries: their first attempts are queued before the claim's next run.
    await this.queue.setDue(claimId, nextInMs, tx, tags.transition());
    return true;
  }
}
