import { Injectable, Logger } from '@nestjs/common';
import { ConflictError, ForbiddenError, NotFoundError } from '@/platform/kernel/errors';
import { formatInstant } from '@/platform/kernel/time';
import { InjectConfig } from '@/platform/config/config.module';
import type { AppConfig } from '@/platform/config/env';
import { Database, type Tx } from '@/platform/db/database';
import { InjectHook } from '@/platform/kernel/hooks';
import { TaskRequests, type TaskRequestsPort } from './task-requests.port';
import {
  type InsurerCredentials,
  type InsurerPlanResult,
  InsurerSettingsService,
} from '@/modules/insurers';
import { CredentialsThrottle } from './credentials-throttle';
import { PlanDesigns } from './plan-designs.service';
import { taskView, type TaskView } from './task-view';
import { type ReusePerson, reuseKeys } from './reuse-keys';
import type { Evidence, FailReason, TaskState } from '../store/verification-task.entity';
import {
  type LockedTask,
  type TaskColumns,
  type TaskFilter,
  VerificationTasksRepository,
} from '../store/verification-tasks.repository';
import { isUuid } from '@/platform/kernel/codes';

export type { TaskFilter } from '../store/verification-tasks.repository';

/** Who acts on a task: an API key (a bot, a vendor) or a web user (staff). */
export interface Verifier {
  accountId: string;
  /** Stable: `api_key:<id>` or `user:<id>`; the lease is held by it. */
  id: string;
  /** For people: `api_key:<prefix>` or `user:<email>`. */
  name: string;
}

/** What a change does to a locked task: its new columns, and the history line it adds. */
interface Change {
  state: TaskState;
  detail: string | null;
  columns?: TaskColumns;
  /** Keep (claim) or drop (anything else) the lease. */
  lease?: { holder: string; name: string; minutes: number };
  /** The request may go on (an answer): wake it. */
  wakes?: boolean;
  /** More to write in the change's transaction, after the task (a complete's plan designs). */
  alsoInTx?: (tx: Tx) => Promise<void>;
}

/**
 * Verification tasks (docs/api.md, Insurers and assisted verification): a person's answers to a search. Every change locks the
 * task's request first, then the task, so it serialises with the search run that parks the
 * request (EligibilityScheduler.park): an answer is never missed. An answer wakes the request;
 * the search run then reads it (AssistedInsurers) and finishes the request the way every search
 * finishes, webhooks and batch counts included.
 */
@Injectable()
export class VerificationTasks {
  private readonly logger = new Logger(VerificationTasks.name);

  constructor(
    private readonly database: Database,
    private readonly tasks: VerificationTasksRepository,
    @InjectConfig() private readonly config: AppConfig,
    @InjectHook(TaskRequests) private readonly requests: TaskRequestsPort,
    private readonly settings: InsurerSettingsService,
    private readonly credentialReads: CredentialsThrottle,
    private readonly designs: PlanDesigns,
  ) {}

  async list(
    accountId: string,
    filter: TaskFilter,
  ): Promise<{ result: TaskView[]; next_cursor: string | null }> {
    const page = await this.tasks.page(accountId, filter);
    const ids = page.result.map((r) => r.id);
    const rows = ids.length ? await this.tasks.viewsByIds(accountId, ids) : [];
    const byId = new Map(rows.map((r) => [r.id, taskView(r)]));
    return {
      result: ids.map((id) => byId.get(id)!).filter(Boolean),
      next_cursor: page.next_cursor,
    };
  }

  /** The account's open tasks, soonest due first (the web queue). */
  async queue(accountId: string, limit = 200): Promise<TaskView[]> {
    const rows = await this.tasks.openViews(accountId, limit);
    return rows.map((r) => taskView(r));
  }

  async get(accountId: string, id: string): Promise<TaskView> {
    const row = isUuid(id) ? await this.tasks.findView(accountId, id) : undefined;
    if (!row) throw notFound(id);
    return taskView(row);
  }

  /** Leases the task to the verifier for VERIFICATION_LEASE_MINUTES (again: extends it). */
  claim(verifier: Verifier, id: string): Promise<TaskView> {
    return this.change(verifier, id, (task) => {
      this.assertOpen(task);
      if (task.state === 'needs_info')
        throw new ConflictError('This task waits for the practice to answer its question.');
      return {
        state: 'in_progress',
        detail: 'claimed',
        lease: {
          holder: verifier.id,
          name: verifier.name,
          minutes: this.config.verificationLeaseMinutes,
        },
      };
    });
  }

  /** The search completes with exactly these plans (already validated and converted). */
  async complete(
    verifier: Verifier,
    id: string,
    plans: InsurerPlanResult[],
    evidence: Evidence,
    designIds: string[] = [],
  ): Promise<TaskView> {
    const asked = await this.askedPerson(verifier.accountId, id);
    return this.change(verifier, id, (task) => {
      this.assertOpen(task);
      // Every person of the answer is answered for, and the patient as asked.
      const persons: ReusePerson[] = [asked, ...plans.flatMap((p) => p.persons)];
      return {
        state: 'completed',
        detail: `${plans.length} plan${plans.length === 1 ? '' : 's'} found (${evidence.source})`,
        columns: {
          plans: JSON.stringify(plans),
          evidence: JSON.stringify(evidence),
          reuse_keys: keysOf(verifier.accountId, task.insurer_code, persons),
        },
        wakes: true,
        // docs/api.md, Plan designs: the designs it started from, and each plan's group's design.
        alsoInTx: (tx) =>
          this.designs.record(tx, verifier.accountId, task.insurer_code, { plans, designIds }),
      };
    });
  }

  /** The patient a task's search asked for (none when its request is gone or purged). */
  private async askedPerson(accountId: string, id: string): Promise<ReusePerson> {
    const row = isUuid(id) ? await this.tasks.findView(accountId, id) : undefined;
    const p = row ? taskView(row).patient : null;
    return {
      firstName: p?.first_name,
      lastName: p?.last_name,
      dob: p?.dob,
      memberId: p?.member_id,
    };
  }

  /**
   * `member_not_found` completes the search with no results; any other reason ends it
   * `insurer_problem` with the detail; `credentials_invalid` also marks the stored credentials.
   */
  async fail(
    verifier: Verifier,
    id: string,
    reason: FailReason,
    detail: string | null,
  ): Promise<TaskView> {
    // "No such member" is an answer too, reused like a plan (docs/api.md, Universal Search insurer by insurer).
    const asked =
      reason === 'member_not_found' ? await this.askedPerson(verifier.accountId, id) : null;
    const view = await this.change(verifier, id, (task) => {
      this.assertOpen(task);
      return {
        state: 'failed',
        detail: detail ? `${reason}: ${detail}` : reason,
        columns: asked
          ? {
              failure_reason: reason,
              detail,
              reuse_keys: keysOf(verifier.accountId, task.insurer_code, [asked]),
            }
          : { failure_reason: reason, detail },
        wakes: true,
      };
    });
    if (reason === 'credentials_invalid')
      await this.settings.markCredentialsNeedAttention(verifier.accountId, view.insurer_code);
    return view;
  }

  /** The verifier needs the practice to answer something; the request shows `needs_info`. */
  needsInfo(verifier: Verifier, id: string, question: string): Promise<TaskView> {
    return this.change(verifier, id, (task) => {
      this.assertOpen(task);
      return { state: 'needs_info', detail: question, columns: { detail: question } };
    });
  }

  /** The practice answers a `needs_info` task: it is queued again. */
  info(verifier: Verifier, id: string, answer: string): Promise<TaskView> {
    return this.change(verifier, id, (task) => {
      if (task.state !== 'needs_info')
        throw new ConflictError(`This task is ${task.state}, not waiting for information.`);
      return { state: 'queued', detail: answer, columns: { detail: answer } };
    });
  }

  /** The insurers the task's request still waits for (none once it has finished). */
  waitingFor(accountId: string, id: string): Promise<string[]> {
    return isUuid(id) ? this.tasks.waitingFor(accountId, id) : Promise.resolve([]);
  }

  /**
   * The account's stored credentials for the task's insurer (a portal bot, or a person, signs in
   * with them): only for an open task, only to the verifier holding its lease, and at most
   * CREDENTIAL_READS_PER_HOUR times an hour per verifier. Anyone else learns nothing of them.
   */
  async credentials(verifier: Verifier, id: string): Promise<InsurerCredentials> {
    const row = isUuid(id) ? await this.tasks.findView(verifier.accountId, id) : undefined;
    if (!row) throw notFound(id);
    const task = taskView(row);
    if (task.state === 'completed' || task.state === 'failed')
      throw new ConflictError(`This task is already ${task.state}.`);
    // taskView shows a lapsed lease as `queued` with no lease: only a live one counts.
    if (task.state !== 'in_progress' || row.lease_holder !== verifier.id) throw notHolder();
    await this.credentialReads.take(verifier.id);
    const credentials = await this.settings.credentialsOf(verifier.accountId, task.insurer_code);
    if (!credentials)
      throw new NotFoundError(
        `No credentials are stored for ${task.insurer_name}: set them on the Passwords page.`,
      );
    return credentials;
  }

  private assertOpen(task: LockedTask): void {
    if (task.state === 'completed' || task.state === 'failed')
      throw new ConflictError(`This task is already ${task.state}.`);
  }

  /**
   * One change of a task, in one transaction: the request and the task locked, `decide` given
   * the task (it throws the 409s), the task written with its history line, the request's
   * processing answer updated, and the request woken when the change answers it.
   */
  private async change(
    verifier: Verifier,
    id: string,
    decide: (task: LockedTask) => Change,
  ): Promise<TaskView> {
    if (!isUuid(id)) throw notFound(id);
    await this.database.transaction(async (tx) => {
      const requestId = await this.tasks.requestIdOf(verifier.accountId, id, tx);
      if (!requestId) throw notFound(id);
      await this.requests.lockRequest(tx, requestId);
      const task = (await this.tasks.lockTask(id, tx))!;
      const leased =
        task.state === 'in_progress' &&
        task.lease_until &&
        new Date(task.lease_until).getTime() > Date.now();
      if (leased && task.lease_holder !== verifier.id)
        throw new ConflictError('Another verifier holds this task; try again when its lease ends.');
      const change = decide(task);
      await this.write(tx, task, verifier, change);
      await change.alsoInTx?.(tx);
      await this.requests.showTask(tx, task.request_id);
      // The woken search is dispatched after the commit (DbQueue.wakeInTx).
      if (change.wakes) await this.requests.wakeInTx(tx, task.request_id, task.batch_id !== null);
    });
    this.logger.log({ task: id, by: verifier.id }, 'verification task changed');
    return this.get(verifier.accountId, id);
  }

  private write(tx: Tx, task: LockedTask, verifier: Verifier, change: Change): Promise<void> {
    const entry = {
      at: formatInstant(new Date(), 'utc'),
      state: change.state,
      actor: verifier.name,
      detail: change.detail,
    };
    return this.tasks.write(
      task.id,
      { state: change.state, entry, lease: change.lease, columns: change.columns },
      tx,
    );
  }
}

/** Every reuse key of `persons`, each once. */
function keysOf(accountId: string, code: string, persons: ReusePerson[]): string[] {
  return [...new Set(persons.flatMap((p) => reuseKeys(accountId, code, p, false)))];
}

const notHolder = () =>
  new ForbiddenError(
    'Claim this task first: its portal password is shown only to the verifier holding its lease.',
  );
const notFound = (id: string) => new NotFoundError(`Verification task ${id} not found.`);
