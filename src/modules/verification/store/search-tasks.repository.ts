import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { Tx } from '@/platform/db/database';
import { query, queryOne, sql } from '@/platform/db/sql';
import type { InsurerPlanResult } from '@/modules/insurers';
import type { FailReason, TaskState } from './verification-task.entity';

/** A request's task for one insurer, as a search run reads its answer. */
export interface TaskAnswer {
  id: string;
  state: TaskState;
  plans: InsurerPlanResult[] | null;
  failure_reason: FailReason | null;
  detail: string | null;
  due_by: Date;
  answered_at: Date | null;
}

/** A task a search run stores: its request, insurer and how soon it is due. */
export interface NewTask {
  accountId: string;
  requestId: string;
  code: string;
  slaMinutes: number;
  /** The task is due by this time at the latest (an appointment's check: an hour before the visit). */
  latestDueBy?: string | null;
}

/** The columns of a TaskAnswer. */
const ANSWER = sql`id::text AS id, state, plans, failure_reason, detail, due_by, answered_at`;

/**
 * `verification_tasks` as other modules' work reaches them (SearchTasks): a search run's task per
 * request and insurer (docs/api.md, Insurers and assisted verification) and PHI_RETENTION_DAYS
 * (SECURITY.md) erasing the tasks of purged requests.
 */
@Injectable()
export class SearchTasksRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** The task of request `requestId` for insurer `code`, or null when none was stored. */
  async answer(requestId: string, code: string): Promise<TaskAnswer | null> {
    return queryOne<TaskAnswer>(
      this.db,
      sql`SELECT ${ANSWER} FROM verification_tasks WHERE request_id = ${requestId} AND insurer_code = ${code}`,
    );
  }

  /** The tasks of request `requestId` (any state), by insurer. */
  async ofRequest(requestId: string, tx?: Tx): Promise<Map<string, TaskAnswer>> {
    const rows = await query<TaskAnswer & { insurer_code: string }>(
      this.db,
      sql`SELECT insurer_code, ${ANSWER} FROM verification_tasks WHERE request_id = ${requestId}`,
      tx,
    );
    return new Map(rows.map(({ insurer_code, ...task }) => [insurer_code, task]));
  }

  /**
   * docs/api.md, Universal Search insurer by insurer (reuse): the account's latest task of
   * insurer `code` answered within `maxAgeHours` for a person of `keys` (a plan, or no such
   * member), counted as reused once more; null when none.
   */
  async reuse(
    accountId: string,
    code: string,
    keys: string[],
    maxAgeHours: number,
  ): Promise<TaskAnswer | null> {
    if (keys.length === 0 || maxAgeHours <= 0) return null;
    return queryOne<TaskAnswer>(
      this.db,
      sql`WITH reused AS (
         UPDATE verification_tasks SET reused_count = reused_count + 1, last_reused_at = now()
         WHERE id = (
           SELECT id FROM verification_tasks
           WHERE reuse_keys && ${keys}::text[] AND account_id = ${accountId} AND insurer_code = ${code}
             AND answered_at > now() - (${String(maxAgeHours)} || ' hours')::interval
             AND (state = 'completed' OR (state = 'failed' AND failure_reason = 'member_not_found'))
           ORDER BY answered_at DESC LIMIT 1)
         RETURNING ${ANSWER})
       SELECT * FROM reused`,
    );
  }

  /**
   * Stores the task of the request for `code`, due in `slaMinutes`; answers its id, or null
   * when the request had one already (a repeated run stores nothing).
   */
  async open(task: NewTask, tx?: Tx): Promise<string | null> {
    const created = await queryOne<{ id: string }>(
      this.db,
      sql`WITH created AS (
         INSERT INTO verification_tasks (account_id, request_id, insurer_code, due_by, history)
         VALUES (${task.accountId}, ${task.requestId}, ${task.code},
           least(now() + (${String(task.slaMinutes)} || ' minutes')::interval, ${task.latestDueBy ?? null}::timestamptz),
           jsonb_build_array(jsonb_build_object('at', to_char(now() AT TIME ZONE 'UTC',
             'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), 'state', 'queued', 'actor', 'service',
             'detail', 'created by the search')))
         ON CONFLICT (request_id, insurer_code) DO NOTHING RETURNING id)
       SELECT id FROM created`,
      tx,
    );
    return created?.id ?? null;
  }

  /** Whether a task of the request for one of `codes` was answered (completed or failed). */
  async anyAnswered(requestId: string, codes: string[], tx?: Tx): Promise<boolean> {
    const answered = await queryOne(
      this.db,
      sql`SELECT 1 FROM verification_tasks WHERE request_id = ${requestId} AND insurer_code = ANY(${codes})
         AND state IN ('completed', 'failed') LIMIT 1`,
      tx,
    );
    return answered !== null;
  }

  /**
   * The tasks of the requests `requestIds` lose plans, evidence and notes (their states stay,
   * an audit of who answered when, without their words); answers their ids.
   */
  async purgeOfRequests(requestIds: string[], tx?: Tx): Promise<string[]> {
    const rows = await query<{ id: string }>(
      this.db,
      sql`WITH purged AS (
         UPDATE verification_tasks
            SET plans = NULL, evidence = NULL, detail = NULL, reuse_keys = NULL,
                history = (SELECT COALESCE(jsonb_agg(h - 'detail'), '[]'::jsonb) FROM jsonb_array_elements(history) h)
          WHERE request_id = ANY(${requestIds}::bigint[])
          RETURNING id)
       SELECT id::text AS id FROM purged`,
      tx,
    );
    return rows.map((r) => r.id);
  }
}
