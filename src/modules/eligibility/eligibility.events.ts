import type { EntityManager } from 'typeorm';
import type { EligibilityStatus } from './eligibility-request.entity';

export const ELIGIBILITY_FINISHED = 'eligibility.finished';

/**
 * A search or details request reached `complete` or `error`. Emitted (and awaited) inside the
 * transaction that finished it, so listeners can record their own rows atomically with the
 * result (no finished request without its webhook deliveries, even after a crash).
 */
export class EligibilityFinishedEvent {
  constructor(
    readonly requestId: string,
    readonly accountId: string,
    readonly uid: string,
    readonly status: Exclude<EligibilityStatus, 'processing'>,
    /** The result bodies exactly as the V1 and V2 endpoints serve them from now on. */
    readonly bodyV1: string,
    readonly bodyV2: string,
    readonly manager: EntityManager,
  ) {}
}

export const ELIGIBILITY_FINISHED_COMMITTED = 'eligibility.finished.committed';

/** The same moment, after the transaction committed: time to hand work to queues. */
export class EligibilityFinishedCommittedEvent {
  constructor(
    readonly requestId: string,
    readonly accountId: string,
    readonly uid: string,
    readonly status: Exclude<EligibilityStatus, 'processing'>,
  ) {}
}
