import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import {
  fetchKeysetPage,
  type KeysetPage,
  keysetQuery,
} from '@/platform/http/pagination/keyset-paginator';
import { managerOf, type Tx } from '@/platform/db/database';
import { InjectHook } from '@/platform/kernel/hooks';
import { TaskRequests, type TaskRequestsPort } from '../domain/task-requests.port';
import { TASK_VIEW_COLUMNS, taskViewFrom, type TaskViewRow } from '../domain/task-view';
import {
  type FailReason,
  type TaskHistoryEntry,
  type TaskState,
  VerificationTask,
} from './verification-task.entity';

export interface TaskFilter {
  state?: string;
  insurerCode?: string;
  dueBefore?: string;
  limit: number;
  cursor?: string | null;
}

/** A task locked for a change (`lockTask`), with its request's batch. */
export interface LockedTask {
  id: string;
  request_id: string;
  batch_id: string | null;
  insurer_code: string;
  state: TaskState;
  lease_holder: string | null;
  lease_until: Date | null;
}

/** The columns a change may set besides state, lease and history (in this order of keys). */
export interface TaskColumns {
  /** JSON text of the plans found. */
  plans?: string;
  /** JSON text of the evidence. */
  evidence?: string;
  failure_reason?: FailReason;
  detail?: string | null;
  /** Who the answer is for, as reuse finds it (reuse-keys.ts). */
  reuse_keys?: string[];
}

/** A task's new state, its history line, its lease (kept or, without one, dropped) and columns. */
export interface TaskWrite {
  state: TaskState;
  entry: TaskHistoryEntry;
  lease?: { holder: string; name: string; minutes: number } | null;
  columns?: TaskColumns;
}

/**
 * `verification_tasks` (docs/api.md, Insurers and assisted verification). A task's view, its
 * lock and the insurers its request waits for read the request in the same statement, through
 * the eligibility module's pieces (TaskRequests' `sql`: the requests' table is eligibility's).
 */
@Injectable()
export class VerificationTasksRepository {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    @InjectHook(TaskRequests) private readonly requests: TaskRequestsPort,
  ) {}

  /** The FROM of a task's view (its hook is found at start-up, so read when a statement runs). */
  private get viewFrom(): string {
    return taskViewFrom(this.requests.sql);
  }

  /** One keyset page of the account's tasks (newest first); filters combine. */
  page(accountId: string, filter: TaskFilter): Promise<KeysetPage<VerificationTask>> {
    const qb = this.db
      .getRepository(VerificationTask)
      .createQueryBuilder('t')
      .where('t.account_id = :accountId', { accountId });
    if (filter.state) qb.andWhere('t.state = :state', { state: filter.state });
    if (filter.insurerCode) qb.andWhere('t.insurer_code = :code', { code: filter.insurerCode });
    if (filter.dueBefore)
      qb.andWhere('t.due_by < CAST(:due AS timestamptz)', { due: filter.dueBefore });
    return fetchKeysetPage(keysetQuery(qb, filter), filter);
  }

  /** The views of the account's tasks among `ids` (no order). */
  viewsByIds(accountId: string, ids: string[], tx?: Tx): Promise<TaskViewRow[]> {
    return managerOf(this.db, tx).query(
      `SELECT ${TASK_VIEW_COLUMNS} FROM ${this.viewFrom} WHERE t.account_id = $1 AND t.id = ANY($2::uuid[])`,
      [accountId, ids],
    );
  }

  /** The account's open tasks, soonest due first. */
  openViews(accountId: string, limit: number, tx?: Tx): Promise<TaskViewRow[]> {
    return managerOf(this.db, tx).query(
      `SELECT ${TASK_VIEW_COLUMNS} FROM ${this.viewFrom}
       WHERE t.account_id = $1 AND t.state IN ('queued', 'in_progress', 'needs_info')
       ORDER BY t.due_by, t.id LIMIT $2`,
      [accountId, limit],
    );
  }

  /** One task of the account as the API shows it; undefined when it is not the account's. */
  async findView(accountId: string, id: string, tx?: Tx): Promise<TaskViewRow | undefined> {
    const rows: TaskViewRow[] = await managerOf(this.db, tx).query(
      `SELECT ${TASK_VIEW_COLUMNS} FROM ${this.viewFrom} WHERE t.account_id = $1 AND t.id = $2`,
      [accountId, id],
    );
    return rows[0];
  }

  /** The request of the account's task `id`, or undefined. */
  async requestIdOf(accountId: string, id: string, tx?: Tx): Promise<string | undefined> {
    const [head]: { request_id: string }[] = await managerOf(this.db, tx).query(
      'SELECT request_id FROM verification_tasks WHERE id = $1 AND account_id = $2',
      [id, accountId],
    );
    return head?.request_id;
  }

  /**
   * The insurers the request of the account's task `id` still waits for: while it is processing,
   * those asked that have neither a settled outcome (kept between a search's attempts) nor an
   * answered task. Empty once the request has finished.
   */
  async waitingFor(accountId: string, id: string): Promise<string[]> {
    const rows: { code: string }[] = await this.db.query(
      `SELECT c.code FROM verification_tasks t
         CROSS JOIN LATERAL (${this.requests.sql.unsettled('t.request_id')}) c
       WHERE t.id = $1 AND t.account_id = $2
         AND NOT EXISTS (SELECT 1 FROM verification_tasks o WHERE o.request_id = t.request_id
           AND o.insurer_code = c.code AND o.state IN ('completed', 'failed'))
       ORDER BY c.n`,
      [id, accountId],
    );
    return rows.map((r) => r.code);
  }

  /** The task, locked (`FOR UPDATE OF t`), with its request's batch. */
  async lockTask(id: string, tx?: Tx): Promise<LockedTask | undefined> {
    const [task]: LockedTask[] = await managerOf(this.db, tx).query(
      `SELECT t.id, t.request_id, r.batch_id, t.insurer_code, t.state, t.lease_holder, t.lease_until
         FROM verification_tasks t JOIN LATERAL (${this.requests.sql.batch('t.request_id')}) r ON true
         WHERE t.id = $1 FOR UPDATE OF t`,
      [id],
    );
    return task;
  }

  /** Writes a change of task `id`: state, history line appended, lease, columns. */
  async write(id: string, change: TaskWrite, tx?: Tx): Promise<void> {
    const columns: Record<string, unknown> = { ...change.columns };
    const names = Object.keys(columns);
    const sets = names.map((n, i) => `, ${n} = $${i + 7}`).join('');
    await managerOf(this.db, tx).query(
      `UPDATE verification_tasks
       SET state = $2, history = history || $3::jsonb, updated_at = now(),
           lease_holder = $4::varchar, lease_holder_name = $5::varchar,
           lease_until = CASE WHEN $4::varchar IS NULL THEN NULL ELSE now() + ($6 || ' minutes')::interval END,
           claimed_at = CASE WHEN $2::varchar = 'in_progress' THEN coalesce(claimed_at, now()) ELSE claimed_at END,
           answered_at = CASE WHEN $2::varchar IN ('completed', 'failed') THEN now() ELSE answered_at END${sets}
       WHERE id = $1`,
      [
        id,
        change.state,
        JSON.stringify([change.entry]),
        change.lease?.holder ?? null,
        change.lease?.name ?? null,
        String(change.lease?.minutes ?? 0),
        ...names.map((n) => columns[n]),
      ],
    );
  }

  /**
   * Up to `limit` in-progress tasks whose lease ended go back to `queued` (skipping locked
   * ones); answers their requests, each once.
   */
  async releaseLapsedLeases(limit: number, tx?: Tx): Promise<string[]> {
    const rows: { request_id: string }[] = await managerOf(this.db, tx).query(
      `WITH lapsed AS (
           UPDATE verification_tasks
           SET state = 'queued', lease_holder = NULL, lease_holder_name = NULL, lease_until = NULL,
               updated_at = now(),
               history = history || jsonb_build_array(jsonb_build_object(
                 'at', to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
                 'state', 'queued', 'actor', 'service', 'detail', 'lease ended'))
           WHERE id IN (SELECT id FROM verification_tasks
             WHERE state = 'in_progress' AND lease_until < now()
             ORDER BY lease_until LIMIT $1 FOR UPDATE SKIP LOCKED)
           RETURNING request_id)
         SELECT DISTINCT request_id FROM lapsed`,
      [limit],
    );
    return rows.map((r) => String(r.request_id));
  }

  /**
   * Up to `limit` open tasks past `due_by` not notified yet are marked notified (skipping
   * locked ones); answers them.
   */
  markOverdue(limit: number, tx?: Tx): Promise<{ id: string; account_id: string }[]> {
    return managerOf(this.db, tx).query(
      `WITH due AS (
           UPDATE verification_tasks SET overdue_notified_at = now()
           WHERE id IN (SELECT id FROM verification_tasks
             WHERE state IN ('queued', 'in_progress', 'needs_info') AND due_by < now()
               AND overdue_notified_at IS NULL
             ORDER BY due_by LIMIT $1 FOR UPDATE SKIP LOCKED)
           RETURNING id, account_id)
         SELECT id, account_id FROM due`,
      [limit],
    );
  }
}
