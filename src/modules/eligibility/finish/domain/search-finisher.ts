import type { FoundPlan, InsurerOutcome } from '../../domain/search-outcome';
import { type InsurerEntry, insurerEntries } from '../../domain/insurer-entries';
import { randomBytes } from 'node:crypto';
import { Injectable, Logger } from '@nestjs/common';
import { Database } from '@/platform/db/database';
import { Metrics } from '@/platform/metrics/metrics';
import { WebhookOutbox } from '@/modules/webhooks';
import { insurerName } from '@/modules/insurers';
import { formatInstant, todayIso } from '@/platform/kernel/time';
import { BatchCompletion } from '../../batches/domain/batch-completion';
import { InjectHook } from '@/platform/kernel/hooks';
import { CheckHooks, type CheckHooksPort } from './check-hooks';
import { PlanHistory } from './plan-history';
import type { EligibilityErrorCode } from '../../store/eligibility-request.entity';
import type { EligibilityResult, FoundPerson } from '../../store/eligibility-result.entity';
import { renderResult } from '../../read/domain/eligibility.renderer';
import {
  type Finishing,
  type Head,
  SearchRunsRepository,
} from '../../store/search-runs.repository';

const PLAN_TOKEN_DAYS = 30;

export type StoredResults = Finishing['results'];

interface Outcome {
  status: 'complete' | 'error';
  errorCode: EligibilityErrorCode | null;
  results: StoredResults | null;
  errorDetail?: string | null;
  insurers: InsurerEntry[];
}

/**
 * Each insurer's outcome when the request ends, by code (none: never answered), for the
 * answer's `insurers` (docs/api.md, Universal Search insurer by insurer).
 */
export interface Progress {
  codes: string[];
  outcomes: Record<string, InsurerOutcome | undefined>;
}

/**
 * The entries of a finishing request: `resultIds` by insurer code; an insurer never answered
 * (the watchdog's end) did not answer in time.
 */
function entriesOf(progress: Progress, resultIds: Map<string, number[]>): InsurerEntry[] {
  const now = formatInstant(new Date(), 'utc');
  const outcomes = { ...progress.outcomes };
  for (const code of progress.codes)
    outcomes[code] ??= {
      code,
      kind: 'unavailable',
      error: 'no answer in time',
      retryable: false,
      detail: `${insurerName(code)} did not answer in time.`,
    };
  return insurerEntries(progress.codes, outcomes, true, resultIds, now);
}

/**
 * The rows of `found` (in this order) for request `requestId`, positions from `offset`, ids taken
 * ahead: what finishing stores, and what a later answer adds (RequestUpdates).
 */
export async function buildResults(
  runs: SearchRunsRepository,
  found: FoundPlan[],
  requestId: string,
  accountId: string,
  offset: number,
): Promise<StoredResults> {
  const personCount = found.reduce((n, f) => n + f.plan.persons.length, 0);
  const [resultIds, personIdList] = await runs.takeIds(found.length, personCount);
  const personIds = personIdList.values();
  return found.map(({ code, plan, keepPlans }, i) => {
    const result: EligibilityResult = {
      id: resultIds[i],
      requestId,
      accountId,
      position: offset + i,
      insurerCode: code,
      status: plan.status,
      planName: plan.planName,
      planGroup: plan.planGroup,
      planGroupId: plan.planGroupId,
      planBeginDate: plan.planBeginDate,
      planEndDate: plan.planEndDate,
      planRefreshDate: plan.planRefreshDate,
      planIsActive: plan.planIsActive,
    };
    const persons = plan.persons.map((p, j): FoundPerson => ({
      // The connector's person has the entity's own field names.
      ...p,
      id: personIds.next().value!,
      resultId: result.id,
      accountId,
      position: j,
      insurerState: p.plan.insurer_state,
      planToken: p.plan.insurer_state === 'inn' ? randomBytes(32).toString('hex') : null,
      planTokenExpiredAt: p.plan.insurer_state === 'inn' ? todayIso(PLAN_TOKEN_DAYS) : null,
    }));
    return { result, persons, keepPlans: keepPlans === true };
  });
}

/** The results' ids by insurer code (an entry's `result_ids`). */
export function resultIdsByCode(results: StoredResults): Map<string, number[]> {
  const ids = new Map<string, number[]>();
  for (const { result } of results)
    ids.set(result.insurerCode, [...(ids.get(result.insurerCode) ?? []), Number(result.id)]);
  return ids;
}

/**
 * Finishing a request: stores its results, renders both bodies once, and records its webhook
 * deliveries, all in one statement (SearchRunsRepository.finish), so it happens once whoever
 * gets there first (a worker, a duplicate job, the watchdog). One round trip for a run, which
 * knows its request from its lease (ids for the new rows come from blocks taken ahead); the
 * watchdog reads the request first. A batch item's statement runs in a transaction with its
 * batch's count.
 */
@Injectable()
export class SearchFinisher {
  private readonly logger = new Logger(SearchFinisher.name);

  constructor(
    private readonly database: Database,
    private readonly runs: SearchRunsRepository,
    private readonly outbox: WebhookOutbox,
    private readonly batches: BatchCompletion,
    @InjectHook(CheckHooks) private readonly checks: CheckHooksPort,
    private readonly planHistory: PlanHistory,
    private readonly metrics: Metrics,
  ) {}

  /**
   * Ends the request `complete` with these plans (in this order); false when already finished.
   * `known`: the request as the caller's lease answered it (else it is read).
   */
  async complete(
    requestId: string,
    found: FoundPlan[],
    progress: Progress,
    known?: Head,
  ): Promise<boolean> {
    const head = known ?? (await this.runs.head(requestId));
    if (!head) return false;
    // docs/api.md, Next eligible dates: the practice's own history, once, before the bodies.
    await this.planHistory.apply(head.accountId, found);
    const results = await buildResults(this.runs, found, requestId, head.accountId, 0);
    const insurers = entriesOf(progress, resultIdsByCode(results));
    return this.finish(head, { status: 'complete', errorCode: null, results, insurers });
  }

  /**
   * Ends the request `error` with `errorCode`; false when already finished. `known`: as above.
   * `errorDetail`: the answer's `error_detail` when not the code's own words.
   */
  async fail(
    requestId: string,
    errorCode: EligibilityErrorCode,
    progress: Progress | null,
    known?: Head,
    errorDetail: string | null = null,
  ): Promise<boolean> {
    const head = known ?? (await this.runs.head(requestId));
    if (!head) return false;
    // The watchdog knows no outcome: the request's own, as stored between its attempts.
    const insurers = entriesOf(progress ?? head.progress!, new Map());
    return this.finish(head, { status: 'error', errorCode, results: null, errorDetail, insurers });
  }

  private async finish(head: Head, outcome: Outcome): Promise<boolean> {
    // The stored answer is what GETs and webhooks answer: with the request's `origin`.
    const input = { uid: head.uid, origin: head.origin ?? null, ...outcome };
    const bodyV1 = renderResult(input, 'v1');
    const bodyV2 = renderResult(input, 'v2');
    const deliveries = this.outbox.finishingDeliveries({ v1: bodyV1, v2: bodyV2 });
    const finishing: Finishing = {
      requestId: head.requestId,
      status: outcome.status,
      errorCode: outcome.errorCode,
      bodyV1,
      bodyV2,
      results: outcome.results ?? [],
    };
    // A single request is one statement, atomic by itself (shared with the single requests that
    // finish at the same moment: a group commit), so its first attempts start as soon as it
    // answered; an appointment's check moves its appointment's coverage in the same transaction;
    // a batch item also counts in its batch, in the same transaction (last, so the
    // batch's row lock is held for the shortest time). The outbox hands its deliveries off
    // itself, once the statement or the transaction has committed (`FinishingDeliveries.read`).
    const finished =
      !head.batchId && !head.origin
        ? (await this.runs.finishGrouped(finishing, deliveries)) !== null
        : await this.database.transaction(async (tx) => {
            if (!(await this.runs.finish(finishing, deliveries, tx))) return false;
            // An appointment's check: its coverage moves with the answer (docs/api.md, Appointments).
            if (head.origin === 'appointment')
              await this.checks.answeredInTx(tx, {
                accountId: head.accountId,
                requestUid: head.uid,
                bodyV2,
              });
            if (head.batchId) await this.batches.itemFinishedInTx(tx, head.batchId, outcome.status);
            return true;
          });
    if (!finished) return false;
    this.measure(head, outcome.insurers);
    this.logger.log(
      {
        requestId: head.requestId,
        status: outcome.status,
        errorCode: outcome.errorCode,
        results: outcome.results?.length ?? 0,
      },
      'eligibility request finished',
    );
    return true;
  }

  /**
   * docs/architecture.md, What operators see: each insurer of the finished search, by its state
   * at the end, and (a run's own finish) the time from acceptance, by path.
   */
  private measure(head: Head, insurers: InsurerEntry[]): void {
    if (!this.metrics.enabled) return;
    const m = head.measured;
    const seconds = m ? (Date.now() - new Date(m.createdAt).getTime()) / 1000 : null;
    for (const entry of insurers) {
      const path = m?.assisted.includes(entry.insurer_code) ? 'assisted' : 'electronic';
      this.metrics.searchFinished(entry.insurer_code, entry.state, path, seconds);
    }
  }
}
