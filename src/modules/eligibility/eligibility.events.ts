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
    readonly manager: EntityManager,
  ) {}
}
