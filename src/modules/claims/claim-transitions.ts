import { Injectable, Logger } from '@nestjs/common';
import { formatInstant } from '@/common/time';
import { tags } from '@/common/queue/db-queue';
import { Database, type Tx } from '@/database/database';
import type { Location } from '@/modules/accounts';
import { WebhookOutbox } from '@/modules/webhooks';
import { canMove } from './claim-lifecycle';
import type { Claim, ClaimStatus } from './claim.entity';
import { ClaimsQueue } from './claims.queue';
import { ClaimsRepository } from './claims.repository';
import { ClaimResponse } from './dto/claim.response';

export const EVENT_CLAIM_STATUS_CHANGED = 'claim.status_changed';

export interface ClaimChange {
  status: ClaimStatus;
  detail: string | null;
  /** Other columns set in the same UPDATE (submission, the 837P). */
  set?: Partial<
    Pick<
      Claim,
      | 'submissionChannel'
      | 'clearinghouseId'
      | 'submittedAt'
      | 'x12837'
      | 'submissionDetail'
      | 'remittance'
    >
  >;
  /** When the next run is due (a retry, a status check); null: nothing left to do. */
  nextInMs: number | null;
}

/** A move made inside a transaction, for `afterCommit`. */
export interface ClaimMoved {
  claim: Claim;
  deliveries: string[];
  status: ClaimStatus;
  nextInMs: number | null;
}

/**
 * Moves a claim along its lifecycle (docs/api.md, Claim lifecycle) in one transaction under the claim's row lock:
 * the status and its history entry, the submission columns, the next due time, and one webhook
 * delivery (topic `claim`, the claim's GET body) per subscribed webhook. The deliveries and the
 * next run are queued after the commit.
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
  async move(claimId: string, location: Location, change: ClaimChange): Promise<boolean> {
    const result = await this.database.transaction((tx) =>
      this.moveInTx(tx, claimId, location, change),
    );
    if (!result) return false;
    await this.afterCommit(result);
    return true;
  }

  /**
   * `move` inside the caller's transaction (a claim report changes its claims and stores itself
   * in one): null when the claim may not move there. Call `afterCommit` with the answer once the
   * transaction has committed.
   */
  async moveInTx(
    tx: Tx,
    claimId: string,
    location: Location,
    change: ClaimChange,
  ): Promise<ClaimMoved | null> {
    const claim = await this.claims.lockById(claimId, tx);
    if (!claim || !canMove(claim.status, change.status)) return null;
    const history = [
      ...(claim.statusHistory ?? []),
      { status: change.status, at: formatInstant(new Date(), 'api'), detail: change.detail },
    ];
    await this.claims.update(
      claimId,
      { ...change.set, status: change.status, statusHistory: history },
      tx,
    );
    await this.queue.setDue(claimId, change.nextInMs, tx);
    Object.assign(claim, change.set, { status: change.status, statusHistory: history });
    const lines = await this.claims.linesOf(claimId, tx);
    const body = JSON.stringify(ClaimResponse.from(claim, lines, location));
    const deliveries = await this.outbox.recordEventInTx(tx, {
      accountId: claim.accountId,
      topic: 'claim',
      event: EVENT_CLAIM_STATUS_CHANGED,
      resourceKey: `claim:${claim.code}:${history.length}`,
      resourceUid: claim.code,
      body,
    });
    return { claim, deliveries, status: change.status, nextInMs: change.nextInMs };
  }

  /** After the commit of `moveInTx`: the webhook deliveries and the claim's next run. */
  async afterCommit(moved: ClaimMoved): Promise<void> {
    this.logger.log(
      { claim: moved.claim.code, status: moved.status, next: moved.nextInMs },
      'claim status changed',
    );
    await this.outbox.dispatch(moved.deliveries);
    if (moved.nextInMs !== null)
      await this.queue.enqueue(moved.claim.id, moved.nextInMs, tags.transition());
  }

  /**
   * The claim's interchange control number and time (docs/api.md, Claims): a fresh number of the
   * deployment's sequence and `createdAt` when the claim has none yet; otherwise those kept at
   * its first attempt are answered, so every retry sends the same ISA13/GS06/ST02.
   */
  keepEnvelope(
    claimId: string,
    createdAt: Date,
  ): Promise<{ controlNumber: number; createdAt: Date }> {
    return this.claims.keepEnvelope(claimId, createdAt);
  }

  /**
   * docs/api.md, Claim reports and remittances: no more status checks (the insurer does not answer 276s, or the claim had its
   * CLAIM_STATUS_MAX_CHECKS): the claim waits for reports.
   */
  stopChecks(claimId: string): Promise<void> {
    return this.queue.setDue(claimId, null);
  }

  /** Counts one 276 status check of the claim; answers the count. */
  countCheck(claimId: string): Promise<number> {
    return this.claims.countCheck(claimId);
  }

  /** Nothing changed: the next run (a status check) is due in `delayMs`. */
  later(claimId: string, delayMs: number): Promise<void> {
    return this.queue.schedule(claimId, delayMs, tags.transition());
  }
}
