/**
 * `verification_tasks` in other modules' statements (docs/architecture.md, Data access): the
 * table is the verification module's and is named only in its files. Each piece takes an SQL
 * expression of the caller's statement (the request's id column, e.g. `r.id`), never a value,
 * and adds no parameter of its own.
 */
const OPEN = `('queued', 'in_progress', 'needs_info')`;

export const TaskSql = {
  /**
   * A subquery for `LEFT JOIN LATERAL (...) t ON true`: the request's first open task by due
   * time (`id`, `state`, `due_by`), or no row.
   */
  firstOpen(requestId: string): string {
    return `SELECT id, state, due_by FROM verification_tasks
         WHERE request_id = ${requestId} AND state IN ${OPEN}
         ORDER BY due_by, id LIMIT 1`;
  },

  /** A condition: the request has an open task (a person is checking one of its insurers). */
  anyOpen(requestId: string): string {
    return `EXISTS (SELECT 1 FROM verification_tasks t WHERE t.request_id = ${requestId}
           AND t.state IN ${OPEN})`;
  },
} as const;
