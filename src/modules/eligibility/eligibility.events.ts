import type { EligibilityStatus } from './eligibility-request.entity';

export const ELIGIBILITY_FINISHED = 'eligibility.finished';

/**
 * A search or details request reached `complete` or `error`, emitted after the finishing
 * transaction committed (its webhook deliveries are recorded in that transaction by an explicit
 * WebhookOutbox call): time to hand work to queues.
 */
export class EligibilityFinishedEvent {
  constructor(
    readonly requestId: string,
    readonly accountId: string,
    readonly uid: string,
    readonly status: Exclude<EligibilityStatus, 'processing'>,
  ) {}
}
