import { Injectable, Logger } from '@nestjs/common';
import { InjectConfig } from '@/platform/config/config.module';
import type { AppConfig } from '@/platform/config/env';
import { Database } from '@/platform/db/database';
import { insurerName } from '@/modules/insurers';
import {
  EVENT_VERIFICATION_TASK_CREATED,
  type FailReason,
  SearchTasks,
  type TaskAnswer,
} from '@/modules/verification';
import { formatInstant } from '@/platform/kernel/time';
import { WebhookOutbox } from '@/modules/webhooks';
import type { EligibilityRequest } from '../../store/eligibility-request.entity';
import type { InsurerOutcome, SearchOptions, TaskRef } from '../../domain/search-outcome';
import { activeElsewhere, noPersonAsked } from '../../domain/insurer-entries';

/** Why a verifier could not answer, as the request's `error_detail` says it (docs/api.md, Insurers and assisted verification). */
const FAILURE_WORDS: Record<Exclude<FailReason, 'member_not_found'>, string> = {
  credentials_invalid: "could not be checked: the practice's portal credentials were refused",
  portal_down: "could not be checked: the insurer's portal was down",
  other: 'could not be checked',
};

/** What the run knows when it reaches an assisted insurer without a task of this request. */
export interface AssistedContext {
  options: SearchOptions;
  /** Every electronic insurer has settled (none will be asked again). */
  electronicDone: boolean;
  /** The first insurer that found an active plan, if any. */
  activeCode: string | null;
}

/**
 * The search side of assisted verification (docs/api.md, Insurers and assisted verification;
 * Universal Search insurer by insurer): an insurer answered by a person is one more way an
 * insurer answers. The request's own task is read first (ownTask), then an earlier answer for
 * the same person (known); only then is a person asked, last and once (ask).
 */
@Injectable()
export class AssistedInsurers {
  private readonly logger = new Logger(AssistedInsurers.name);

  constructor(
    private readonly database: Database,
    private readonly tasks: SearchTasks,
    private readonly outbox: WebhookOutbox,
    @InjectConfig() private readonly config: AppConfig,
  ) {}

  /** What the request's own task of `code` says, or null when it has none. */
  async ownTask(request: EligibilityRequest, code: string): Promise<InsurerOutcome | null> {
    const task = await this.tasks.answer(request.id, code);
    return task ? outcomeOfTask(code, task) : null;
  }

  /**
   * Without a task of its own: `not_asked` when an active plan was found elsewhere (unless
   * `assisted: always`), else an earlier task's answer for the same person, else null.
   */
  async known(
    request: EligibilityRequest,
    code: string,
    context: Omit<AssistedContext, 'electronicDone'>,
  ): Promise<InsurerOutcome | null> {
    const { options } = context;
    if (context.activeCode && options.assisted !== 'always')
      return { code, kind: 'not_asked', detail: activeElsewhere(context.activeCode), at: now() };
    return this.reuse(request, code, options);
  }

  /**
   * Neither task nor reuse: `not_asked` when an active plan was found elsewhere (unless
   * `assisted: always`), nobody with `assisted: never`, not yet before every electronic insurer
   * has settled (`when_needed`), else a task is opened and the run waits for it.
   */
  async ask(
    request: EligibilityRequest,
    code: string,
    context: AssistedContext,
  ): Promise<InsurerOutcome> {
    const { options } = context;
    if (context.activeCode && options.assisted !== 'always')
      return { code, kind: 'not_asked', detail: activeElsewhere(context.activeCode), at: now() };
    if (options.assisted === 'never') {
      const detail = noPersonAsked(code);
      // A search of this insurer alone has nothing else to answer with: it fails, saying why.
      return request.insurerCodes.length === 1
        ? { code, kind: 'rejected', error: 'assisted: never', detail, at: now() }
        : { code, kind: 'not_asked', detail, at: now() };
    }
    if (options.assisted === 'when_needed' && !context.electronicDone)
      return { code, kind: 'held' };
    const opened = await this.open(request, code, options.tasksDueBy);
    return { code, kind: 'waiting', task: opened ?? undefined };
  }

  /** The answer of an earlier task for the same person, when one is young enough. */
  private async reuse(
    request: EligibilityRequest,
    code: string,
    options: SearchOptions,
  ): Promise<InsurerOutcome | null> {
    const hours = options.maxAgeHours ?? this.config.verificationReuseHours;
    if (hours <= 0 || request.kind !== 'search') return null;
    const q = request.query;
    const task = await this.tasks.reuse(
      request.accountId,
      code,
      { firstName: q.firstName, lastName: q.lastName, dob: q.dob, memberId: q.memberId },
      hours,
    );
    if (!task) return null;
    this.logger.log({ requestId: request.id, insurer: code, task: task.id }, 'verification reused');
    const ref: TaskRef = {
      task_id: task.id,
      state: task.state,
      due_by: formatInstant(task.due_by, 'utc'),
      reused: true,
      checked_at: formatInstant(task.answered_at!, 'utc'),
    };
    return { code, kind: 'found', plans: task.plans ?? [], keepPlans: true, task: ref, at: now() };
  }

  /**
   * Stores the task (a repeated run stores nothing) and fires `created`; answers the task (null
   * when the request had one already). The run that parks or completes the request shows it.
   */
  private async open(
    request: EligibilityRequest,
    code: string,
    latestDueBy: string | null,
  ): Promise<TaskRef | null> {
    const ref = await this.database.transaction(async (tx) => {
      const created = await this.tasks.open(
        {
          accountId: request.accountId,
          requestId: request.id,
          code,
          slaMinutes: this.config.verificationSlaMinutes,
          latestDueBy,
        },
        tx,
      );
      if (created === null) return null;
      const view = await this.tasks.view(request.accountId, created, tx);
      // Its first attempts are queued after the commit (WebhookOutbox.recordEventInTx).
      await this.outbox.recordEventInTx(tx, {
        accountId: request.accountId,
        topic: 'verification',
        event: EVENT_VERIFICATION_TASK_CREATED,
        resourceKey: `${created}:created`,
        resourceUid: created,
        body: JSON.stringify(view),
      });
      return { task_id: created, state: view!.state, due_by: view!.due_by };
    });
    this.logger.log({ requestId: request.id, insurer: code }, 'verification task opened');
    return ref;
  }
}

const now = () => formatInstant(new Date(), 'utc');

/** What a request's own task says: waiting, its plans, no member, or why it failed. */
export function outcomeOfTask(code: string, task: TaskAnswer): InsurerOutcome {
  const ref: TaskRef = {
    task_id: task.id,
    state: task.state,
    due_by: formatInstant(task.due_by, 'utc'),
  };
  const at = task.answered_at ? formatInstant(task.answered_at, 'utc') : now();
  if (task.state === 'completed')
    return { code, kind: 'found', plans: task.plans ?? [], keepPlans: true, task: ref, at };
  if (task.state !== 'failed') return { code, kind: 'waiting', task: ref };
  if (task.failure_reason === 'member_not_found')
    return { code, kind: 'found', plans: [], task: ref, at };
  const words = `${insurerName(code)} ${FAILURE_WORDS[task.failure_reason ?? 'other']}`;
  return {
    code,
    kind: 'rejected',
    error: `verification failed: ${task.failure_reason}`,
    detail: task.detail ? `${words}: ${task.detail}` : `${words}.`,
    task: ref,
    at,
  };
}
