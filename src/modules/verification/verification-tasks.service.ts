import { asTx } from '@/database/database';
import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import { ConflictError, NotFoundError } from '@/common/errors';
import { fetchKeysetPage, keysetQuery } from '@/common/pagination/keyset-paginator';
import { InjectConfig } from '@/config/config.module';
import type { AppConfig } from '@/config/env';
import { readTaskView, showVerification } from '@/modules/eligibility/assisted-insurers';
import { BatchSearchQueue } from '@/modules/eligibility/batch.queue';
import { SearchQueue } from '@/modules/eligibility/eligibility.queue';
import type { InsurerCredentials } from '@/modules/insurers/insurer-connector';
import { InsurerSettingsService } from '@/modules/insurers/insurer-settings.service';
import {
  TASK_VIEW_COLUMNS,
  TASK_VIEW_FROM,
  taskView,
  type TaskView,
  type TaskViewRow,
} from './task-view';
import {
  type Evidence,
  type FailReason,
  type TaskHistoryEntry,
  type TaskState,
  VerificationTask,
} from './verification-task.entity';
import type { InsurerPlanResult } from '@/modules/insurers/insurer-connector';

/** Who acts on a task: an API key (a bot, a vendor) or a web user (staff). */
export interface Verifier {
  accountId: string;
  /** Stable: `api_key:<id>` or `user:<id>`; the lease is held by it. */
  id: string;
  /** For people: `api_key:<prefix>` or `user:<email>`. */
  name: string;
}

export interface TaskFilter {
  state?: string;
  insurerCode?: string;
  dueBefore?: string;
  limit: number;
  cursor?: string | null;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

interface LockedTask {
  id: string;
  request_id: string;
  batch_id: string | null;
  insurer_code: string;
  state: TaskState;
  lease_holder: string | null;
  lease_until: Date | null;
}

/** What a change does to a locked task: its new columns, and the history line it adds. */
interface Change {
  state: TaskState;
  detail: string | null;
  columns?: Record<string, unknown>;
  /** Keep (claim) or drop (anything else) the lease. */
  lease?: { holder: string; name: string; minutes: number };
  /** The request may go on (an answer): wake it. */
  wakes?: boolean;
}

/**
 * Verification tasks (CONTRACT §18): a person's answers to a search. Every change locks the
 * task's request first, then the task, so it serialises with the search run that parks the
 * request (EligibilityScheduler.park): an answer is never missed. An answer wakes the request;
 * the search run then reads it (AssistedInsurers) and finishes the request the way every search
 * finishes, webhooks and batch counts included.
 */
@Injectable()
export class VerificationTasks {
  private readonly logger = new Logger(VerificationTasks.name);

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    @InjectConfig() private readonly config: AppConfig,
    private readonly searchQueue: SearchQueue,
    private readonly batchQueue: BatchSearchQueue,
    private readonly settings: InsurerSettingsService,
  ) {}

  async list(
    accountId: string,
    filter: TaskFilter,
  ): Promise<{ result: TaskView[]; next_cursor: string | null }> {
    const qb = this.db
      .getRepository(VerificationTask)
      .createQueryBuilder('t')
      .where('t.account_id = :accountId', { accountId });
    if (filter.state) qb.andWhere('t.state = :state', { state: filter.state });
    if (filter.insurerCode) qb.andWhere('t.insurer_code = :code', { code: filter.insurerCode });
    if (filter.dueBefore)
      qb.andWhere('t.due_by < CAST(:due AS timestamptz)', { due: filter.dueBefore });
    const page = await fetchKeysetPage(keysetQuery(qb, filter), filter);
    const ids = page.result.map((r) => r.id);
    const rows: TaskViewRow[] = ids.length
      ? await this.db.query(
          `SELECT ${TASK_VIEW_COLUMNS} FROM ${TASK_VIEW_FROM} WHERE t.account_id = $1 AND t.id = ANY($2::uuid[])`,
          [accountId, ids],
        )
      : [];
    const byId = new Map(rows.map((r) => [r.id, taskView(r)]));
    return {
      result: ids.map((id) => byId.get(id)!).filter(Boolean),
      next_cursor: page.next_cursor,
    };
  }

  /** The account's open tasks, soonest due first (the web queue). */
  async queue(accountId: string, limit = 200): Promise<TaskView[]> {
    const rows: TaskViewRow[] = await this.db.query(
      `SELECT ${TASK_VIEW_COLUMNS} FROM ${TASK_VIEW_FROM}
       WHERE t.account_id = $1 AND t.state IN ('queued', 'in_progress', 'needs_info')
       ORDER BY t.due_by, t.id LIMIT $2`,
      [accountId, limit],
    );
    return rows.map((r) => taskView(r));
  }

  async get(accountId: string, id: string): Promise<TaskView> {
    const view = UUID.test(id) ? await readTaskView(this.db, accountId, id) : null;
    if (!view) throw notFound(id);
    return view;
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
  complete(
    verifier: Verifier,
    id: string,
    plans: InsurerPlanResult[],
    evidence: Evidence,
  ): Promise<TaskView> {
    return this.change(verifier, id, (task) => {
      this.assertOpen(task);
      return {
        state: 'completed',
        detail: `${plans.length} plan${plans.length === 1 ? '' : 's'} found (${evidence.source})`,
        columns: { plans: JSON.stringify(plans), evidence: JSON.stringify(evidence) },
        wakes: true,
      };
    });
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
    const view = await this.change(verifier, id, (task) => {
      this.assertOpen(task);
      return {
        state: 'failed',
        detail: detail ? `${reason}: ${detail}` : reason,
        columns: { failure_reason: reason, detail },
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

  /** The account's stored credentials for the task's insurer (CONTRACT §18: a portal bot signs in). */
  async credentials(accountId: string, id: string): Promise<InsurerCredentials> {
    const task = await this.get(accountId, id);
    const credentials = await this.settings.credentialsOf(accountId, task.insurer_code);
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
    if (!UUID.test(id)) throw notFound(id);
    const woken = await this.db.transaction(async (em) => {
      const [head]: { request_id: string }[] = await em.query(
        'SELECT request_id FROM verification_tasks WHERE id = $1 AND account_id = $2',
        [id, verifier.accountId],
      );
      if (!head) throw notFound(id);
      await em.query('SELECT id FROM eligibility_requests WHERE id = $1 FOR UPDATE', [
        head.request_id,
      ]);
      const [task]: LockedTask[] = await em.query(
        `SELECT t.id, t.request_id, r.batch_id, t.insurer_code, t.state, t.lease_holder, t.lease_until
         FROM verification_tasks t JOIN eligibility_requests r ON r.id = t.request_id
         WHERE t.id = $1 FOR UPDATE OF t`,
        [id],
      );
      const leased =
        task.state === 'in_progress' &&
        task.lease_until &&
        new Date(task.lease_until).getTime() > Date.now();
      if (leased && task.lease_holder !== verifier.id)
        throw new ConflictError('Another verifier holds this task; try again when its lease ends.');
      const change = decide(task);
      await this.write(em, task, verifier, change);
      await showVerification(em, task.request_id);
      if (!change.wakes) return null;
      const queue = task.batch_id ? this.batchQueue : this.searchQueue;
      return (await queue.wakeInTx(asTx(em), task.request_id))
        ? { queue, requestId: task.request_id }
        : null;
    });
    if (woken) await woken.queue.dispatch(woken.requestId);
    this.logger.log({ task: id, by: verifier.id }, 'verification task changed');
    return this.get(verifier.accountId, id);
  }

  private async write(em: EntityManager, task: LockedTask, verifier: Verifier, change: Change) {
    const entry: TaskHistoryEntry = {
      at: new Date().toISOString(),
      state: change.state,
      actor: verifier.name,
      detail: change.detail,
    };
    const columns = change.columns ?? {};
    const names = Object.keys(columns);
    const sets = names.map((n, i) => `, ${n} = $${i + 7}`).join('');
    await em.query(
      `UPDATE verification_tasks
       SET state = $2, history = history || $3::jsonb, updated_at = now(),
           lease_holder = $4::varchar, lease_holder_name = $5::varchar,
           lease_until = CASE WHEN $4::varchar IS NULL THEN NULL ELSE now() + ($6 || ' minutes')::interval END${sets}
       WHERE id = $1`,
      [
        task.id,
        change.state,
        JSON.stringify([entry]),
        change.lease?.holder ?? null,
        change.lease?.name ?? null,
        String(change.lease?.minutes ?? 0),
        ...names.map((n) => columns[n]),
      ],
    );
  }
}

const notFound = (id: string) => new NotFoundError(`Verification task ${id} not found.`);
