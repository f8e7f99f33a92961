import { Injectable } from '@nestjs/common';
import type { Tx } from '@/platform/db/database';
import { WebhookOutbox } from '@/modules/webhooks';
import {
  type NewTask,
  SearchTasksRepository,
  type TaskAnswer,
} from '../store/search-tasks.repository';
import { type TaskView, taskView } from './task-view';
import { type ReusePerson, reuseKeys } from './reuse-keys';
import { VerificationTasksRepository } from '../store/verification-tasks.repository';

/**
 * What other modules do to verification tasks besides their API (docs/architecture.md, Data
 * access: `verification_tasks` is verification's): the search side of assisted verification
 * (eligibility's AssistedInsurers and EligibilityScheduler: a run stores its task, reads its
 * answer, parks until one is answered) and retention erasing the tasks of purged requests.
 */
@Injectable()
export class SearchTasks {
  constructor(
    private readonly tasks: SearchTasksRepository,
    private readonly views: VerificationTasksRepository,
    private readonly outbox: WebhookOutbox,
  ) {}

  /** The task of request `requestId` for insurer `code`, or null when none was stored. */
  answer(requestId: string, code: string): Promise<TaskAnswer | null> {
    return this.tasks.answer(requestId, code);
  }

  /** The tasks of request `requestId` (any state), by insurer. */
  ofRequest(requestId: string, tx?: Tx): Promise<Map<string, TaskAnswer>> {
    return this.tasks.ofRequest(requestId, tx);
  }

  /**
   * docs/api.md, Universal Search insurer by insurer (reuse): the latest answer of the account's
   * tasks of insurer `code` within `maxAgeHours` for `person` as a search asked for them, or
   * null; counted as reused.
   */
  reuse(
    accountId: string,
    code: string,
    person: ReusePerson,
    maxAgeHours: number,
  ): Promise<TaskAnswer | null> {
    return this.tasks.reuse(accountId, code, reuseKeys(accountId, code, person, true), maxAgeHours);
  }

  /**
   * Stores the task, due in `slaMinutes` (by `latestDueBy` at the latest, when given); answers
   * its id, or null when the request had one already (a repeated run stores nothing).
   */
  open(task: NewTask, tx?: Tx): Promise<string | null> {
    return this.tasks.open(task, tx);
  }

  /** Whether a task of the request for one of `codes` was answered (completed or failed). */
  anyAnswered(requestId: string, codes: string[], tx?: Tx): Promise<boolean> {
    return this.tasks.anyAnswered(requestId, codes, tx);
  }

  /** One task of the account as the API shows it; null when it is not the account's. */
  async view(accountId: string, taskId: string, tx?: Tx): Promise<TaskView | null> {
    const row = await this.views.findView(accountId, taskId, tx);
    return row ? taskView(row) : null;
  }

  /**
   * PHI_RETENTION_DAYS (SECURITY.md; docs/api.md, Insurers and assisted verification), in the
   * job's transaction: the tasks of the purged requests `requestIds` lose plans, evidence and
   * notes, and their webhook deliveries, which carry the patient as asked, their body.
   */
  async purgeOfRequests(requestIds: string[], tx: Tx): Promise<void> {
    const taskIds = await this.tasks.purgeOfRequests(requestIds, tx);
    if (taskIds.length > 0) await this.outbox.emptyTaskBodies(taskIds, tx);
  }
}
