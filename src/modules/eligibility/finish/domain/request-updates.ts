import { Injectable, Logger } from '@nestjs/common';
import { Database, type Tx } from '@/platform/db/database';
import { formatInstant } from '@/platform/kernel/time';
import { SearchTasks, type TaskAnswer } from '@/modules/verification';
import { WebhookOutbox } from '@/modules/webhooks';
import { AssistedSearchesRepository } from '../../assisted/store/assisted-searches.repository';
import { SearchRunsRepository } from '../../store/search-runs.repository';
import { outcomeOfTask } from '../../assisted/domain/assisted-insurers';
import {
  insurersOf,
  renderEntries,
  renderProcessing,
  type VerificationRef,
  withInsurers,
  withMoreResults,
} from '../../read/domain/eligibility.renderer';
import { type InsurerEntry, insurerEntries, insurerEntry } from '../../domain/insurer-entries';
import { InjectHook } from '@/platform/kernel/hooks';
import { CheckHooks, type CheckHooksPort } from './check-hooks';
import { PlanHistory } from './plan-history';
import { buildResults } from './search-finisher';
import type { FoundPlan, InsurerOutcome } from '../../domain/search-outcome';

/** The event a complete answer's growth is delivered as (docs/api.md, Webhooks). */
export const EVENT_ELIGIBILITY_UPDATED = 'eligibility.updated';

const OPEN = new Set(['queued', 'in_progress', 'needs_info']);

/**
 * A request's answer as its verification tasks change (docs/api.md, Universal Search insurer by
 * insurer), always in the task's transaction with the request locked:
 * - while it runs, its processing answer shows every insurer, its tasks as they are now, and the
 *   first open one as `verification`;
 * - once `complete` with insurers still waiting for a person (`wait_for: "electronic"`), a task's
 *   change shows in their entries, and a task answered adds its plans to `results` (stored like
 *   any result) and delivers the whole new answer as `eligibility.updated`.
 */
@Injectable()
export class RequestUpdates {
  private readonly logger = new Logger(RequestUpdates.name);

  constructor(
    private readonly database: Database,
    private readonly requests: AssistedSearchesRepository,
    private readonly tasks: SearchTasks,
    private readonly runs: SearchRunsRepository,
    private readonly outbox: WebhookOutbox,
    @InjectHook(CheckHooks) private readonly checks: CheckHooksPort,
    private readonly planHistory: PlanHistory,
  ) {}

  /** `refresh` in a transaction of its own (after a run completed a request that waits for a person). */
  refreshNow(requestId: string): Promise<void> {
    return this.database.transaction((tx) => this.refresh(tx, requestId));
  }

  /** The request's answer as its tasks now are (see the class). */
  async refresh(tx: Tx, requestId: string): Promise<void> {
    await this.requests.lockRequest(requestId, tx);
    const row = await this.requests.stateOf(requestId, tx);
    if (!row) return;
    const tasks = await this.tasks.ofRequest(requestId, tx);
    if (row.status === 'processing') {
      const outcomes: Record<string, InsurerOutcome | undefined> = { ...row.insurer_outcomes };
      for (const [code, task] of tasks) outcomes[code] ??= outcomeOfTask(code, task);
      const entries = insurerEntries(
        row.insurer_codes,
        outcomes,
        row.attempts > 0,
        new Map(),
        null,
      );
      await this.requests.writeProcessing(
        requestId,
        renderProcessing(row.uid, entries, openOf(tasks)),
        tx,
      );
      return;
    }
    if (row.status !== 'complete' || !row.body_v1 || !row.body_v2) return;
    const entries = insurersOf(row.body_v2);
    if (!entries?.some((e) => e.state === 'waiting_for_person')) return;
    await this.grow(
      tx,
      { requestId, uid: row.uid, accountId: row.account_id, origin: row.origin },
      entries,
      tasks,
      { v1: row.body_v1, v2: row.body_v2 },
    );
  }

  /** A complete answer's waiting entries as their tasks now are; answered ones add their plans. */
  private async grow(
    tx: Tx,
    request: { requestId: string; uid: string; accountId: string; origin: 'appointment' | null },
    entries: InsurerEntry[],
    tasks: Map<string, TaskAnswer>,
    bodies: { v1: string; v2: string },
  ): Promise<void> {
    const { requestId, uid, accountId } = request;
    const found: FoundPlan[] = [];
    const answered: string[] = [];
    const outcomes = new Map<string, InsurerOutcome>();
    for (const e of entries) {
      const task = e.state === 'waiting_for_person' ? tasks.get(e.insurer_code) : undefined;
      if (!task) continue;
      const outcome = outcomeOfTask(e.insurer_code, task);
      outcomes.set(e.insurer_code, outcome);
      if (outcome.kind === 'waiting') continue;
      answered.push(task.id);
      if (outcome.kind === 'found')
        for (const plan of outcome.plans) found.push({ code: outcome.code, plan, keepPlans: true });
    }
    const offset = found.length > 0 ? await this.runs.resultCount(requestId, tx) : 0;
    if (found.length > 0) await this.planHistory.apply(accountId, found);
    const results = await buildResults(this.runs, found, requestId, accountId, offset);
    const now = formatInstant(new Date(), 'utc');
    const next = entries.map((e) => {
      const outcome = outcomes.get(e.insurer_code);
      if (!outcome) return e;
      const ids = results
        .filter(({ result }) => result.insurerCode === e.insurer_code)
        .map(({ result }) => Number(result.id));
      return insurerEntry({
        code: e.insurer_code,
        outcome,
        started: true,
        resultIds: [...e.result_ids, ...ids],
        finishedAt: now,
      });
    });
    if (JSON.stringify(next) === JSON.stringify(entries)) return;
    if (answered.length === 0) {
      // Only a task's state changed (claimed, a question): the entries show it, no event.
      await this.requests.writeComplete(
        requestId,
        { v1: withInsurers(bodies.v1, next), v2: withInsurers(bodies.v2, next) },
        tx,
      );
      return;
    }
    const grown = {
      v1: withMoreResults(bodies.v1, renderEntries(results, 'v1'), next),
      v2: withMoreResults(bodies.v2, renderEntries(results, 'v2'), next),
    };
    if (!(await this.runs.append(requestId, grown, results, tx))) return;
    await this.outbox.recordRequestEventInTx(tx, {
      accountId,
      event: EVENT_ELIGIBILITY_UPDATED,
      requestId,
      requestUid: uid,
      resourceKey: `${requestId}:updated:${answered.join(',')}`,
      bodies: grown,
    });
    // An appointment's check that a person answered: its coverage grows too.
    if (request.origin === 'appointment')
      await this.checks.answeredInTx(tx, { accountId, requestUid: uid, bodyV2: grown.v2 });
    this.logger.log({ requestId, results: results.length }, 'eligibility request updated');
  }
}

/** The request's open tasks by due time (a processing answer's `verifications`). */
function openOf(tasks: Map<string, TaskAnswer>): VerificationRef[] {
  return [...tasks.values()]
    .filter((t) => OPEN.has(t.state))
    .sort((a, b) => a.due_by.getTime() - b.due_by.getTime() || a.id.localeCompare(b.id))
    .map((t) => ({ task_id: t.id, state: t.state, due_by: formatInstant(t.due_by, 'utc') }));
}
