import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { query, sql } from '@/platform/db/sql';
import { InjectHook } from '@/platform/kernel/hooks';
import { TaskRequests, type TaskRequestsPort } from '../domain/task-requests.port';
import { TASK_VIEW_COLUMNS, taskViewFrom, type TaskViewRow } from '../domain/task-view';

/** An insurer's task figures as the statement answers them (`median`: numeric text or null). */
interface InsurerTaskStatsRow {
  insurer_code: string;
  tasks_open: number;
  median: string | null;
}

/** A task's view with its clocks and reuse (the Verifications page's answered tasks). */
export interface AnsweredTaskRow extends TaskViewRow {
  claimed_at: Date | null;
  answered_at: Date | null;
  reused_count: number;
  last_reused_at: Date | null;
}

/** Which answered tasks a list holds: answered lately, or reused by later searches. */
export type AnsweredList = 'answered' | 'reused';

/** How far back "lately" goes: the directory's median and the page's answered list. */
const LATELY = sql`interval '30 days'`;

/**
 * The clocks and reuse of `verification_tasks` (docs/api.md, The insurer directory and
 * Verification tasks): the directory's figures per insurer, and the answered tasks the
 * Verifications page lists.
 */
@Injectable()
export class TaskStatsRepository {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    @InjectHook(TaskRequests) private readonly requests: TaskRequestsPort,
  ) {}

  /**
   * Every account's open tasks by insurer and state, and how many of them are past due
   * (docs/architecture.md, What operators see); one statement over the open tasks' partial index.
   */
  async openFigures(): Promise<{
    open: { insurer_code: string; state: string; open: number }[];
    overdue: number;
  }> {
    const rows = await query<{ insurer_code: string | null; state: string | null; open: number }>(
      this.db,
      sql`SELECT insurer_code, state, count(*)::int AS open FROM verification_tasks
         WHERE state NOT IN ('completed', 'failed') GROUP BY insurer_code, state
         UNION ALL
         SELECT NULL, 'overdue', count(*)::int FROM verification_tasks
         WHERE state NOT IN ('completed', 'failed') AND due_by < now()`,
    );
    const overdue = rows.find((r) => r.insurer_code === null && r.state === 'overdue')?.open ?? 0;
    const open = rows.filter(
      (r): r is { insurer_code: string; state: string; open: number } =>
        r.insurer_code !== null && r.state !== null,
    );
    return { open, overdue };
  }

  /**
   * For each insurer of `codes`, one row: the account's open tasks of it, and the median minutes
   * from creation to answer of its tasks answered in the last 30 days (percentile_cont: an even
   * count gives the mean of the middle two), rounded to one decimal, NULL when none. One
   * statement for every insurer; each subquery reads one index (the account's tasks by due
   * time; `verification_tasks_answered`).
   */
  byInsurer(accountId: string, codes: string[]): Promise<InsurerTaskStatsRow[]> {
    return query(
      this.db,
      sql`SELECT c.code AS insurer_code,
         (SELECT count(*)::int FROM verification_tasks t
           WHERE t.account_id = ${accountId} AND t.insurer_code = c.code
             AND t.state IN ('queued', 'in_progress', 'needs_info')) AS tasks_open,
         (SELECT round(percentile_cont(0.5) WITHIN GROUP (
                   ORDER BY (extract(epoch FROM t.answered_at - t.created_at) / 60)::float8
                 )::numeric, 1)::text
            FROM verification_tasks t
           WHERE t.account_id = ${accountId} AND t.insurer_code = c.code
             AND t.answered_at >= now() - ${LATELY}) AS median
       FROM unnest(${codes}::text[]) AS c(code)`,
    );
  }

  /**
   * Up to `limit` of the account's tasks: `answered`, those answered (completed or failed) in the
   * last 30 days, latest answer first; `reused`, those whose answer served later searches,
   * latest reuse first.
   */
  answered(accountId: string, list: AnsweredList, limit: number): Promise<AnsweredTaskRow[]> {
    const which =
      list === 'reused'
        ? sql`t.reused_count > 0 ORDER BY t.last_reused_at DESC NULLS LAST, t.id`
        : sql`t.answered_at >= now() - ${LATELY} ORDER BY t.answered_at DESC, t.id`;
    return query(
      this.db,
      sql`SELECT ${TASK_VIEW_COLUMNS}, t.claimed_at, t.answered_at, t.reused_count, t.last_reused_at
       FROM ${taskViewFrom(this.requests.sql)}
       WHERE t.account_id = ${accountId} AND ${which}
       LIMIT ${limit}`,
    );
  }
}
