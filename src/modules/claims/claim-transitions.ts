import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import { isoWithOffset } from '@/common/dates';
import { LocationRef } from '@/modules/accounts/dto/location.dto';
import type { Location } from '@/modules/accounts/location.entity';
import { WebhookOutbox } from '@/modules/webhooks/webhook-outbox';
import { canMove } from './claim-lifecycle';
import { ClaimServiceLine } from './claim-service-line.entity';
import { Claim, ClaimStatus } from './claim.entity';
import { ClaimsQueue } from './claims.queue';
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
 * Moves a claim along its lifecycle (CONTRACT §12) in one transaction under the claim's row lock:
 * the status and its history entry, the submission columns, the next due time, and one webhook
 * delivery (topic `claim`, the claim's GET body) per subscribed webhook. The deliveries and the
 * next run are queued after the commit.
 */
@Injectable()
export class ClaimTransitions {
  private readonly logger = new Logger(ClaimTransitions.name);

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly outbox: WebhookOutbox,
    private readonly queue: ClaimsQueue,
  ) {}

  /**
   * Applies `change` if the claim may move there from where it is (a repeated failure of the
   * same kind is recorded too: its detail says what happened). Answers false when it may not.
   */
  async move(claimId: string, location: Location, change: ClaimChange): Promise<boolean> {
    const result = await this.db.transaction((em) => this.moveInTx(em, claimId, location, change));
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
    em: EntityManager,
    claimId: string,
    location: Location,
    change: ClaimChange,
  ): Promise<ClaimMoved | null> {
    const claim = await em.findOne(Claim, {
      where: { id: claimId },
      lock: { mode: 'pessimistic_write' },
    });
    if (!claim || !canMove(claim.status, change.status)) return null;
    const history = [
      ...(claim.statusHistory ?? []),
      { status: change.status, at: isoWithOffset(new Date()), detail: change.detail },
    ];
    const due = change.nextInMs === null ? null : new Date(Date.now() + change.nextInMs);
    await em.update(Claim, claimId, {
      ...change.set,
      status: change.status,
      statusHistory: history,
      jobDueAt: due,
      leaseJob: null,
    });
    Object.assign(claim, change.set, { status: change.status, statusHistory: history });
    const lines = await em.find(ClaimServiceLine, {
      where: { claimId },
      order: { position: 'ASC' },
    });
    const body = JSON.stringify(ClaimResponse.from(claim, lines, LocationRef.from(location)));
    const deliveries = await this.outbox.recordEventInTx(em, {
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
      await this.queue.enqueue(moved.claim.id, moved.nextInMs, `t${Date.now()}`);
  }

  /**
   * The claim's interchange control number and time (CONTRACT §15): `fresh` is kept when the
   * claim has none yet; otherwise those kept at its first attempt are answered, so every retry
   * sends the same ISA13/GS06/ST02.
   */
  async keepEnvelope(
    claimId: string,
    fresh: { controlNumber: number; createdAt: Date },
  ): Promise<{ controlNumber: number; createdAt: Date }> {
    await this.db
      .createQueryBuilder()
      .update(Claim)
      .set({ x12ControlNumber: fresh.controlNumber, x12CreatedAt: fresh.createdAt })
      .where('id = :claimId AND x12_control_number IS NULL', { claimId })
      .execute();
    const kept = await this.db.getRepository(Claim).findOneOrFail({
      where: { id: claimId },
      select: { id: true, x12ControlNumber: true, x12CreatedAt: true },
    });
    return { controlNumber: kept.x12ControlNumber!, createdAt: kept.x12CreatedAt! };
  }

  /**
   * CONTRACT §16: no more status checks (the insurer does not answer 276s, or the claim had its
   * CLAIM_STATUS_MAX_CHECKS): the claim waits for reports.
   */
  async stopChecks(claimId: string): Promise<void> {
    await this.db.query(`UPDATE claims SET job_due_at = NULL, lease_job = NULL WHERE id = $1`, [
      claimId,
    ]);
  }

  /** Counts one 276 status check of the claim; answers the count. */
  async countCheck(claimId: string): Promise<number> {
    const rows: { status_checks: number }[] = await this.db.query(
      `UPDATE claims SET status_checks = status_checks + 1 WHERE id = $1 RETURNING status_checks`,
      [claimId],
    );
    return rows[0]?.status_checks ?? 0;
  }

  /** Nothing changed: the next run (a status check) is due in `delayMs`. */
  later(claimId: string, delayMs: number): Promise<void> {
    return this.queue.schedule(claimId, delayMs, `t${Date.now()}`);
  }
}
