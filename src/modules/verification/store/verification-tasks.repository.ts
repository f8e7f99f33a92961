import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { type KeysetPage, keysetPage } from '@/platform/http/pagination/keyset-paginator';
import type { Tx } from '@/platform/db/database';
import { entityColumns } from '@/platform/db/entity-columns';
import { execute, query, queryOne, type Sql, sql } from '@/platform/db/sql';
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
interface TaskWrite {
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
  private get viewFrom(): Sql {
    return taskViewFrom(this.requests.sql);
  }

  /** One keyset page of the account's tasks (newest first); filters combine. */
  page(accountId: string, filter: TaskFilter): Promise<KeysetPage<VerificationTask>> {
    const where = [sql`t.account_id = ${accountId}`];
    if (filter.state) where.push(sql`t.state = ${filter.state}`);
    if (filter.insurerCode) where.push(sql`t.insurer_code = ${filter.insurerCode}`);
    if (filter.dueBefore) where.push(sql`t.due_by < ${filter.dueBefore}::timestamptz`);
    const select = sql`SELECT ${entityColumns(this.db, VerificationTask, 't')}
      FROM verification_tasks t WHERE ${sql.join(where, ' AND ')}`;
    return keysetPage(this.db, select, filter);
  }

  /** The views of the account's tasks among `ids` (no order). */
  viewsByIds(accountId: string, ids: string[], tx?: Tx): Promise<TaskViewRow[]> {
    return query(
      this.db,
      sql`SELECT ${TASK_VIEW_COLUMNS} FROM ${this.viewFrom}
       WHERE t.account_id = ${accountId} AND t.id = ANY(${ids}::uuid[])`,
      tx,
    );
  }

  /** The account's open tasks, soonest due first. */
  openViews(accountId: string, limit: number, tx?: Tx): Promise<TaskViewRow[]> {
    return query(
      this.db,
      sql`SELECT ${TASK_VIEW_COLUMNS} FROM ${this.viewFrom}
       WHERE t.account_id = ${accountId} AND t.state IN ('queued', 'in_progress', 'needs_info')
       ORDER BY t.due_by, t.id LIMIT ${limit}`,
      tx,
    );
  }

  /** One task of the account as the API shows it; undefined when it is not the account's. */
  async findView(accountId: string, id: string, tx?: Tx): Promise<TaskViewRow | undefined> {
    const row = await queryOne<TaskViewRow>(
      this.db,
      sql`SELECT ${TASK_VIEW_COLUMNS} FROM ${this.viewFrom} WHERE t.account_id = ${accountId} AND t.id = ${id}`,
      tx,
    );
    return row ?? undefined;
  }

  /** The request of the account's task `id`, or undefined. */
  async requestIdOf(accountId: string, id: string, tx?: Tx): Promise<string | undefined> {
    const head = await queryOne<{ request_id: string }>(
      this.db,
      sql`SELECT request_id FROM verification_tasks WHERE id = ${id} AND account_id = ${accountId}`,
      tx,
    );
    return head?.request_id;
  }

  /**
   * The insurers the request of the account's task `id` still waits for: while it is processing,
   * those asked that have neither a settled outcome (kept between a search's attempts) nor an
   * answered task. Empty once the request has finished.
   */
  async waitingFor(accountId: string, id: string): Promise<string[]> {
    const rows = await query<{ code: string }>(
      this.db,
      sql`SELECT c.code FROM verification_tasks t
         CROSS JOIN LATERAL (${this.requests.sql.unsettled(sql`t.request_id`)}) c
       WHERE t.id = ${id} AND t.account_id = ${accountId}
         AND NOT EXISTS (SELECT 1 FROM verification_tasks o WHERE o.request_id = t.request_id
           AND o.insurer_code = c.code AND o.state IN ('completed', 'failed'))
       ORDER BY c.n`,
    );
    return rows.map((r) => r.code);
  }

  /** The task, locked (`FOR UPDATE OF t`), with its request's batch. */
  async lockTask(id: string, tx?: Tx): Promise<LockedTask | undefined> {
    const task = await queryOne<LockedTask>(
      this.db,
      sql`SELECT t.id, t.request_id, r.batch_id, t.insurer_code, t.state, t.lease_holder, t.lease_until
         FROM verification_tasks t JOIN LATERAL (${this.requests.sql.batch(sql`t.request_id`)}) r ON true
         WHERE t.id = ${id} FOR UPDATE OF t`,
      tx,
    );
    return task ?? undefined;
  }

  /** Writes a change of task `id`: state, history line appended, lease, columns. */
  async write(id: string, change: TaskWrite, tx?: Tx): Promise<void> {
    const columns: Record<string, unknown> = { ...change.columns };
    const sets = Object.keys(columns).map((n) => sql`, ${sql.raw(n)} = ${columns[n]}`);
    const holder = change.lease?.holder ?? null;
    await execute(
      this.db,
      sql`UPDATE verification_tasks
       SET state = ${change.state}, history = history || ${JSON.stringify([change.entry])}::jsonb,
           updated_at = now(),
           lease_holder = ${holder}::varchar, lease_holder_name = ${change.lease?.name ?? null}::varchar,
           lease_until = CASE WHEN ${holder}::varchar IS NULL THEN NULL
             ELSE now() + (${String(change.lease?.minutes ?? 0)} || ' minutes')::interval END,
           claimed_at = CASE WHEN ${change.state}::varchar = 'in_progress' THEN coalesce(claimed_at, now()) ELSE claimed_at END,
           answered_at = CASE WHEN ${change.state}::varchar IN ('completed', 'failed') THEN now() ELSE answered_at END${sql.join(sets, '')}
       WHERE id = ${id}`,
      tx,
    );
  }

  /**
   * Up to `limit` in-progress tasks whose lease ended go back to `queued` (skipping locked
   * ones); answers their requests, each once.
   */
  async releaseLapsedLeases(limit: number, tx?: Tx): Promise<string[]> {
    const rows = await query<{ request_id: string }>(
      this.db,
      sql`WITH lapsed AS (
           UPDATE verification_tasks
           SET state = 'queued', lease_holder = NULL, lease_holder_name = NULL, lease_until = NULL,
               updated_at = now(),
               history = history || jsonb_build_array(jsonb_build_object(
                 'at', to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
                 'state', 'queued', 'actor', 'service', 'detail', 'lease ended'))
           WHERE id IN (SELECT id FROM verification_tasks
             WHERE state = 'in_progress' AND lease_until < now()
             ORDER BY lease_until LIMIT ${limit} FOR UPDATE SKIP LOCKED)
           RETURNING request_id)
         SELECT DISTINCT request_id FROM lapsed`,
      tx,
    );
    return rows.map((r) => String(r.request_id));
  }

  /**
   * Up to `limit` open tasks past `due_by` not notified yet are marked notified (skipping
   * locked ones); answers them.
   */
  markOverdue(limit: number, tx?: Tx): Promise<{ id: string; account_id: string }[]> {
    return query(
      this.db,
      sql`WITH due AS (
           UPDATE verification_tasks SET overdue_notified_at = now()
           WHERE id IN (SELECT id FROM verification_tasks
             WHERE state IN ('queued', 'in_progress', 'needs_info') AND due_by < now()
               AND overdue_notified_at IS NULL
             ORDER BY due_by LIMIT ${limit} FOR UPDATE SKIP LOCKED)
           RETURNING id, account_id)
         SELECT id, account_id FROM due`,
      tx,
    );
  }
}
