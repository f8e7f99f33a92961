import { tags } from '@/platform/jobs/db-queue';
import { Injectable } from '@nestjs/common';
import { EligibilityRequest } from '../../store/eligibility-request.entity';
import { type LeasedRow, type SearchSetup, setupOf } from './search-lease';
import { SearchFinisher, type Progress } from '../../finish/domain/search-finisher';
import { type Head, SearchRunsRepository } from '../../store/search-runs.repository';
import { SearchQueue } from '../../jobs/search.queue';
import { EligibilityScheduler } from '../../jobs/eligibility.scheduler';
import { BatchSearchQueue } from '../../jobs/batch-search.queue';
import { InsurerCalls } from './insurer-calls';
import { InsurerSlots, type SearchOrigin } from './insurer-slots';
import {
  activeFound,
  decideNext,
  type InsurerOutcome,
  isSettled,
  MAX_SEARCH_ATTEMPTS,
  optionsOf,
  type SearchOptions,
  settledByCode,
} from '../../domain/search-outcome';
import { AssistedInsurers } from '../../assisted/domain/assisted-insurers';
import { renderProcessing, type VerificationRef } from '../../read/domain/eligibility.renderer';
import { insurerEntries, notWaitedFor } from '../../domain/insurer-entries';
import { RequestUpdates } from '../../finish/domain/request-updates';
import { formatInstant } from '@/platform/kernel/time';

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
    private readonly batchQueue: BatchSearchQueue,
    private readonly slots: InsurerSlots,
    private readonly runs: SearchRunsRepository,
    private readonly assisted: AssistedInsurers,
    private readonly updates: RequestUpdates,
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

    const setup = setupOf({ settings, provider });
    const head: Head = {
      requestId,
      uid: request.uid,
      accountId: request.accountId,
      batchId: request.batchId === null ? null : String(request.batchId),
      origin: request.origin ?? null,
      measured: {
        createdAt: request.createdAt,
        assisted: request.insurerCodes.filter((code) => this.calls.isAssisted(code, setup)),
      },
    };

    const options = optionsOf(request.options);
    const outcomes = await this.ask(request, setup, options, attempt);
    const decision = decideNext(outcomes, attempt, options.waitFor);
    const settled = settledByCode(outcomes);
    const progress: Progress = {
      codes: request.insurerCodes,
      outcomes: Object.fromEntries(outcomes.map((o) => [o.code, o])),
    };
    // While it runs on, its answer shows each insurer as it stands: one to be asked again is
    // still `running`.
    const processing = () => {
      const standing = outcomes.filter((o) => isSettled(o) || o.kind === 'waiting');
      const byCode = Object.fromEntries(standing.map((o) => [o.code, o]));
      return renderProcessing(
        request.uid,
        insurerEntries(request.insurerCodes, byCode, true, new Map(), null),
        openTasks(outcomes),
      );
    };
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
          processing(),
        );
      case 'retry':
        return this.scheduler.reschedule(
          requestId,
          // decideNext retries only before the last attempt: the policy has a delay for it.
          (origin === 'batch' ? this.batchQueue : this.queue).retryDelay(
            decision.attempt,
            decision.retryAfterMs,
          )!,
          tags.retry(decision.attempt),
          decision.attempt,
          settled,
          origin,
          processing(),
        );
      case 'wait':
        return this.scheduler.park(requestId, jobId, settled, decision.codes, origin, processing());
      case 'complete': {
        const done = await this.finisher.complete(requestId, decision.found, progress, head);
        // A person answering while this run finished is shown now (their task's change found
        // the request still processing).
        if (done && outcomes.some((o) => o.kind === 'waiting'))
          await this.updates.refreshNow(requestId);
        return;
      }
      case 'fail':
        await this.finisher.fail(
          requestId,
          decision.errorCode,
          progress,
          head,
          decision.errorDetail ?? null,
        );
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
    if (stored)
      return (await queue.holdsStored(requestId, jobId, stored.at))
        ? (stored.row as LeasedRow)
        : null;
    return this.runs.lease(queue, requestId, jobId);
  }

  /**
   * One outcome per insurer, in the request's order: settled ones as stored, the others asked
   * now, electronic insurers first (in parallel), then those a person answers (docs/api.md,
   * Universal Search insurer by insurer: asked last, and once). With `first_active`, the run
   * stops waiting at the first active plan, and what has not answered by then is `not_asked`.
   */
  private async ask(
    request: EligibilityRequest,
    setup: SearchSetup,
    options: SearchOptions,
    attempt: number,
  ): Promise<InsurerOutcome[]> {
    const settled = request.insurerOutcomes ?? {};
    const pending = request.insurerCodes.filter((code) => !settled[code]);
    const slot = (code: string, call: () => Promise<InsurerOutcome>) =>
      this.calls.answersLocally(request, code, setup) ? call() : this.withSlot(request, code, call);
    const byCode = new Map<string, InsurerOutcome>();
    if (request.kind === 'details') {
      if (pending.length > 0)
        byCode.set(pending[0], await slot(pending[0], () => this.calls.details(request, setup)));
      return request.insurerCodes.map((code) => settled[code] ?? byCode.get(code)!);
    }
    const assisted = pending.filter((code) => this.calls.isAssisted(code, setup));
    const electronic = pending.filter((code) => !assisted.includes(code));
    const firstActive = options.waitFor === 'first_active';
    let active = activeFound(Object.values(settled))?.code ?? null;
    if (!(firstActive && active)) {
      const calls = electronic.map((code) =>
        slot(code, () => this.calls.search(request, code, setup)).then(stamped),
      );
      const answers = firstActive ? await untilActive(calls) : await Promise.all(calls);
      answers.forEach((o) => o && byCode.set(o.code, o));
      active ??= activeFound(answers.filter((o) => o !== undefined))?.code ?? null;
    }
    if (firstActive && active) {
      // Nothing more is asked, nor waited for.
      for (const code of pending)
        if (!byCode.has(code))
          byCode.set(code, { code, kind: 'not_asked', detail: notWaitedFor(active), at: now() });
      return request.insurerCodes.map((code) => settled[code] ?? byCode.get(code)!);
    }
    const electronicOutcomes = [...Object.values(settled), ...byCode.values()];
    const electronicDone = !electronicOutcomes.some(
      (o) =>
        o.kind === 'deferred' ||
        (o.kind === 'unavailable' && o.retryable && attempt < MAX_SEARCH_ATTEMPTS),
    );
    // A person's answer first (this request's task), then an earlier one for the same person;
    // only then is a person asked, and not when any of these found an active plan.
    const found = (o: InsurerOutcome) => {
      byCode.set(o.code, o);
      active ??= activeFound([o])?.code ?? null;
    };
    const withoutTask: string[] = [];
    for (const code of assisted) {
      const own = await this.assisted.ownTask(request, code);
      if (own) found(own);
      else withoutTask.push(code);
    }
    const toAsk: string[] = [];
    for (const code of withoutTask) {
      const known = await this.assisted.known(request, code, { options, activeCode: active });
      if (known) found(known);
      else toAsk.push(code);
    }
    for (const code of toAsk)
      byCode.set(
        code,
        await this.assisted.ask(request, code, { options, electronicDone, activeCode: active }),
      );
    return request.insurerCodes.map((code) => settled[code] ?? byCode.get(code)!);
  }

  /**
   * One call holding a slot of the insurer (INSURER_CONCURRENCY, docs/api.md, Batches); batch items use
   * the batch origin. No slot in time → deferred: asked again shortly, not counted as an attempt.
   */
  private async withSlot(
    request: EligibilityRequest,
    code: string,
    call: () => Promise<InsurerOutcome>,
  ): Promise<InsurerOutcome> {
    // An appointment's check waits like a batch item (docs/api.md, Appointments).
    const origin: SearchOrigin = request.batchId || request.origin ? 'batch' : 'single';
    const outcome = await this.slots.withSlot(code, origin, call);
    return outcome ?? { code, kind: 'deferred', retryAfterMs: origin === 'batch' ? 500 : 100 };
  }
}

const now = () => formatInstant(new Date(), 'utc');

/** An outcome that settles the insurer carries when it did. */
function stamped(o: InsurerOutcome): InsurerOutcome {
  return isSettled(o) && !('at' in o && o.at) ? ({ ...o, at: now() } as InsurerOutcome) : o;
}

/**
 * The calls' outcomes once every call has answered, or as soon as one found an active plan
 * (then the calls still running are undefined: not waited for).
 */
function untilActive(calls: Promise<InsurerOutcome>[]): Promise<(InsurerOutcome | undefined)[]> {
  const answers: (InsurerOutcome | undefined)[] = calls.map(() => undefined);
  return new Promise((resolve) => {
    let left = calls.length;
    if (left === 0) resolve([]);
    calls.forEach(
      (call, i) =>
        void call.then((o) => {
          answers[i] = o;
          left -= 1;
          if (left === 0 || activeFound([o])) resolve([...answers]);
        }),
    );
  });
}

/** The open tasks among `outcomes` by due time (a processing answer's `verifications`). */
function openTasks(outcomes: InsurerOutcome[]): VerificationRef[] {
  return outcomes
    .flatMap((o) => (o.kind === 'waiting' && o.task ? [o.task] : []))
    .sort((a, b) => a.due_by.localeCompare(b.due_by) || a.task_id.localeCompare(b.task_id))
    .map((t) => ({ task_id: t.task_id, state: t.state, due_by: t.due_by }));
}
