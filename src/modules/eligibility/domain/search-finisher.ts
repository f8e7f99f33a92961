import type { FoundPlan } from './search-outcome';
import { randomBytes } from 'node:crypto';
import { Injectable, Logger } from '@nestjs/common';
import { Database } from '@/platform/db/database';
import { WebhookOutbox } from '@/modules/webhooks';
import { todayIso } from '@/platform/kernel/time';
import { BatchCompletion } from './batch-completion';
import type { EligibilityErrorCode } from '../store/eligibility-request.entity';
import type { EligibilityResult, FoundPerson } from '../store/eligibility-result.entity';
import { renderResult } from './eligibility.renderer';
import { type Finishing, type Head, SearchRunsRepository } from '../store/search-runs.repository';

export type { Head } from '../store/search-runs.repository';

const PLAN_TOKEN_DAYS = 30;

type StoredResults = Finishing['results'];

interface Outcome {
  status: 'complete' | 'error';
  errorCode: EligibilityErrorCode | null;
  results: StoredResults | null;
  errorDetail?: string | null;
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
  ) {}

  /**
   * Ends the request `complete` with these plans (in this order); false when already finished.
   * `known`: the request as the caller's lease answered it (else it is read).
   */
  async complete(requestId: string, found: FoundPlan[], known?: Head): Promise<boolean> {
    const head = known ?? (await this.runs.head(requestId));
    if (!head) return false;
    const personCount = found.reduce((n, f) => n + f.plan.persons.length, 0);
    const [resultIds, personIdList] = await this.runs.takeIds(found.length, personCount);
    const personIds = personIdList.values();
    const results: StoredResults = found.map(({ code, plan, keepPlans }, position) => {
      const result: EligibilityResult = {
        id: resultIds[position],
        requestId,
        accountId: head.accountId,
        position,
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
      const persons = plan.persons.map((p, i): FoundPerson => ({
        // The connector's person has the entity's own field names.
        ...p,
        id: personIds.next().value!,
        resultId: result.id,
        accountId: head.accountId,
        position: i,
        insurerState: p.plan.insurer_state,
        planToken: p.plan.insurer_state === 'inn' ? randomBytes(32).toString('hex') : null,
        planTokenExpiredAt: p.plan.insurer_state === 'inn' ? todayIso(PLAN_TOKEN_DAYS) : null,
      }));
      return { result, persons, keepPlans: keepPlans === true };
    });
    return this.finish(head, { status: 'complete', errorCode: null, results });
  }

  /**
   * Ends the request `error` with `errorCode`; false when already finished. `known`: as above.
   * `errorDetail`: the answer's `error_detail` when not the code's own words.
   */
  async fail(
    requestId: string,
    errorCode: EligibilityErrorCode,
    known?: Head,
    errorDetail: string | null = null,
  ): Promise<boolean> {
    const head = known ?? (await this.runs.head(requestId));
    if (!head) return false;
    return this.finish(head, { status: 'error', errorCode, results: null, errorDetail });
  }

  private async finish(head: Head, outcome: Outcome): Promise<boolean> {
    const input = { uid: head.uid, ...outcome };
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
    // answered; a batch item also counts in its batch, in the same transaction (last, so the
    // batch's row lock is held for the shortest time), and its deliveries, then the batch's,
    // are handed off after that commit (tx.afterCommit).
    const finished = !head.batchId
      ? await this.runs.finishGrouped(finishing, deliveries).then(async (leased) => {
          if (leased) await this.outbox.deliver(leased);
          return leased !== null;
        })
      : await this.database.transaction(async (tx) => {
          const leased = await this.runs.finish(finishing, deliveries, tx);
          if (!leased) return false;
          await this.outbox.deliver(leased, tx);
          await this.batches.itemFinishedInTx(tx, head.batchId!, outcome.status);
          return true;
        });
    if (!finished) return false;
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
}
