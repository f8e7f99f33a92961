import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import { managerOf, type Tx } from '@/database/database';
import type { InsurerPlanResult } from '@/modules/insurers';
import {
  type FailReason,
  TASK_VIEW_COLUMNS,
  TASK_VIEW_FROM,
  type TaskState,
  taskView,
  type TaskViewRow,
} from '@/modules/verification';
import { renderProcessing } from './eligibility.renderer';

/** A request's task for one insurer, as a run reads its answer. */
export interface TaskAnswer {
  state: TaskState;
  plans: InsurerPlanResult[] | null;
  failure_reason: FailReason | null;
  detail: string | null;
}

/**
 * The search side of assisted verification (docs/api.md, Insurers and assisted verification) on the database: a run's task per
 * request and insurer, and the processing bodies of a request that waits for one. Cross-module:
 * these statements read and store `verification_tasks` (the verification module's table; its
 * API view is verification's TASK_VIEW_COLUMNS), as the search stores a task and reads its
 * answer; the request's bodies are `eligibility_requests`.
 */
@Injectable()
export class AssistedSearchesRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** The task of request `requestId` for insurer `code`, or null when none was stored. */
  async answer(requestId: string, code: string): Promise<TaskAnswer | null> {
    const rows: TaskAnswer[] = await this.db.query(
      `SELECT state, plans, failure_reason, detail FROM verification_tasks
       WHERE request_id = $1 AND insurer_code = $2`,
      [requestId, code],
    );
    return rows[0] ?? null;
  }

  /**
   * Stores the task of the request for `code`, due in `slaMinutes`; answers its id, or null
   * when the request had one already (a repeated run stores nothing).
   */
  async open(
    task: { accountId: string; requestId: string; code: string; slaMinutes: number },
    tx?: Tx,
  ): Promise<string | null> {
    const created: { id: string }[] = await managerOf(this.db, tx).query(
      `WITH created AS (
         INSERT INTO verification_tasks (account_id, request_id, insurer_code, due_by, history)
         VALUES ($1, $2, $3, now() + ($4 || ' minutes')::interval,
           jsonb_build_array(jsonb_build_object('at', to_char(now() AT TIME ZONE 'UTC',
             'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), 'state', 'queued', 'actor', 'service',
             'detail', 'created by the search')))
         ON CONFLICT (request_id, insurer_code) DO NOTHING RETURNING id)
       SELECT id FROM created`,
      [task.accountId, task.requestId, task.code, String(task.slaMinutes)],
    );
    return created[0]?.id ?? null;
  }

  /** Whether a task of the request for one of `codes` was answered (completed or failed). */
  async anyAnswered(requestId: string, codes: string[], tx?: Tx): Promise<boolean> {
    const answered: unknown[] = await managerOf(this.db, tx).query(
      `SELECT 1 FROM verification_tasks WHERE request_id = $1 AND insurer_code = ANY($2)
         AND state IN ('completed', 'failed') LIMIT 1`,
      [requestId, codes],
    );
    return answered.length > 0;
  }

  /** One task of the account as the API shows it; null when it is not the account's. */
  async taskView(
    accountId: string,
    taskId: string,
    tx?: Tx,
  ): Promise<ReturnType<typeof taskView> | null> {
    const rows: TaskViewRow[] = await managerOf(this.db, tx).query(
      `SELECT ${TASK_VIEW_COLUMNS} FROM ${TASK_VIEW_FROM} WHERE t.account_id = $1 AND t.id = $2`,
      [accountId, taskId],
    );
    return rows[0] ? taskView(rows[0]) : null;
  }

  /** showVerification, in `tx` when given. */
  showVerification(requestId: string, tx?: Tx): Promise<void> {
    return showVerification(managerOf(this.db, tx), requestId);
  }
}

const query = <T>(em: EntityManager | Tx, text: string, params: unknown[]): Promise<T> =>
  (em as EntityManager).query(text, params);

/**
 * The request's stored processing answers carry its first open task by due time (docs/api.md, Insurers and assisted verification
 * `verification`), or none when no task is open; nothing happens to a finished request.
 * (Exported for the verification module, which calls it in its own transaction.)
 */
export async function showVerification(em: EntityManager | Tx, requestId: string): Promise<void> {
  const rows: { uid: string; task_id: string | null; state: string | null; due_by: Date | null }[] =
    await query(
      em,
      `SELECT r.uid, t.id AS task_id, t.state, t.due_by FROM eligibility_requests r
       LEFT JOIN LATERAL (SELECT id, state, due_by FROM verification_tasks
         WHERE request_id = r.id AND state IN ('queued', 'in_progress', 'needs_info')
         ORDER BY due_by, id LIMIT 1) t ON true
       WHERE r.id = $1 AND r.status = 'processing'`,
      [requestId],
    );
  const row = rows[0];
  if (!row) return;
  const body = row.task_id
    ? renderProcessing(row.uid, {
        task_id: row.task_id,
        state: row.state!,
        due_by: new Date(row.due_by!).toISOString(),
      })
    : null;
  await query(
    em,
    `UPDATE eligibility_requests SET body_v1 = $2, body_v2 = $2 WHERE id = $1 AND status = 'processing'`,
    [requestId, body],
  );
}
