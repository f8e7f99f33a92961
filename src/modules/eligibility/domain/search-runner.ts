import { tags } from '@/platform/jobs/db-queue';
import { Injectable } from '@nestjs/common';
import { InjectConfig } from '@/platform/config/config.module';
import type { AppConfig } from '@/platform/config/env';
import { EligibilityRequest } from '../store/eligibility-request.entity';
import { type LeasedRow, type SearchSetup, setupOf } from './search-lease';
import { SearchFinisher, type Head } from './search-finisher';
import { SearchRunsRepository } from '../store/search-runs.repository';
import { SearchQueue } from '../jobs/search.queue';
import { EligibilityScheduler } from '../jobs/eligibility.scheduler';
import { BatchSearchQueue } from '../jobs/batch-search.queue';
import { InsurerRegistry } from '@/modules/insurers';
import { retryDelayMs } from '@/platform/kernel/retry';
import { InsurerCalls } from './insurer-calls';
import { InsurerSlots, type SearchOrigin } from './insurer-slots';
import { decideNext, InsurerOutcome, searchRetries, settledByCode } from './search-outcome';

/**
 * One run of a search job: asks every insurer without a settled outcome (all of them on the
 * first attempt), decides with decideNext, and acts: reschedule, or finish the request.
 */
@Injectable()
export class SearchRunner {
  constructor(
    private readonly queue: SearchQueue,
    private readonly calls: InsurerCalls,
    private readonly scheduler: EligibilityScheduler,
    private readonly finisher: SearchFinisher,
    @InjectConfig() private readonly config: AppConfig,
    private readonly batchQueue: BatchSearchQueue,
    private readonly slots: InsurerSlots,
    private readonly insurers: InsurerRegistry,
    private readonly runs: SearchRunsRepository,
  ) {}

  /**
   * Idempotent: the lease skips a request that is finished, not due, or being run by another job
   * (`jobId` identifies this one). `origin`: the queue the job came from (batch items have their own).
   * `stored`: the request as intake stored it, already leased to this run (a local run).
   */
  async run(
    requestId: string,
    jobId: string,
    origin: SearchOrigin = 'single',
    stored?: { row: unknown; at: number },
  ): Promise<void> {
    const leased = await this.lease(requestId, jobId, origin, stored);
    if (!leased) return;
    const { attempt, settings, provider, ...row } = leased;
    // `attempts` is the count after this lease, as the entity read after it would say.
    const request = Object.assign(new EligibilityRequest(), row, { id: String(row.id) });

    const head: Head = {
      requestId,
      uid: request.uid,
      accountId: request.accountId,
      batchId: request.batchId === null ? null : String(request.batchId),
    };

    const outcomes = await this.ask(request, setupOf({ settings, provider }));
    const decision = decideNext(outcomes, attempt);
    const settled = settledByCode(outcomes);
    switch (decision.next) {
      case 'defer':
        // Deferral is not an attempt: the count goes back.
        return this.scheduler.reschedule(
          requestId,
          decision.delayMs,
          tags.dueAt(Date.now() + decision.delayMs),
          attempt - 1,
          settled,
          origin,
        );
      case 'retry':
        return this.scheduler.reschedule(
          requestId,
          // decideNext retries only before the last attempt: the policy has a delay for it.
          retryDelayMs(
            searchRetries(this.config.searchRetryBaseMs),
            decision.attempt,
            decision.retryAfterMs,
          )!,
          tags.retry(decision.attempt),
          decision.attempt,
          settled,
          origin,
        );
      case 'wait':
        return this.scheduler.park(requestId, jobId, settled, decision.codes, origin);
      case 'complete':
        await this.finisher.complete(requestId, decision.found, head);
        return;
      case 'fail':
        await this.finisher.fail(requestId, decision.errorCode, head, decision.errorDetail ?? null);
        return;
    }
  }

  /**
   * The request leased to this run, with what its insurer calls need: one round trip (the lease
   * answers it all; it only leases a processing request), or none when intake stored it leased
   * to this run. A run that waited so long that half its lease is gone extends it first.
   */
  private async lease(
    requestId: string,
    jobId: string,
    origin: SearchOrigin,
    stored: { row: unknown; at: number } | undefined,
  ): Promise<LeasedRow | null> {
    const queue = origin === 'batch' ? this.batchQueue : this.queue;
    if (stored) {
      const fresh = Date.now() - stored.at < queue.spec.leaseMs / 2;
      return fresh || (await queue.renew(requestId, jobId)) ? (stored.row as LeasedRow) : null;
    }
    return this.runs.lease(queue, requestId, jobId);
  }

  /** One outcome per insurer, in the request's order: settled ones as stored, the others asked now. */
  private async ask(request: EligibilityRequest, setup: SearchSetup): Promise<InsurerOutcome[]> {
    const settled = request.insurerOutcomes ?? {};
    const pending = request.insurerCodes.filter((code) => !settled[code]);
    const slot = (code: string, call: () => Promise<InsurerOutcome>) =>
      this.calls.answersLocally(request, code, setup) ? call() : this.withSlot(request, code, call);
    const asked =
      request.kind === 'details'
        ? pending.length > 0
          ? [await slot(pending[0], () => this.calls.details(request, setup))]
          : []
        : await Promise.all(
            pending.map((code) => slot(code, () => this.calls.search(request, code, setup))),
          );
    const byCode = new Map(asked.map((o) => [o.code, o]));
    return request.insurerCodes.map((code) => settled[code] ?? byCode.get(code)!);
  }

  /**
   * One call holding a slot of the insurer (INSURER_CONCURRENCY, docs/api.md, Batches); batch items use
   * the batch origin. No slot in time → deferred: asked again shortly, not counted as an attempt.
   * A connector that answers in this process (the sandbox) protects no payer: no slot.
   */
  private async withSlot(
    request: EligibilityRequest,
    code: string,
    call: () => Promise<InsurerOutcome>,
  ): Promise<InsurerOutcome> {
    if (this.insurers.get(code)?.local) return call();
    const origin: SearchOrigin = request.batchId ? 'batch' : 'single';
    const outcome = await this.slots.withSlot(code, origin, call);
    return outcome ?? { code, kind: 'deferred', retryAfterMs: origin === 'batch' ? 500 : 100 };
  }
}
