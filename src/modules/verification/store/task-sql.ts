import { sql, type Sql } from '@/platform/db/sql';

/**
 * `verification_tasks` in other modules' statements (docs/architecture.md, Data access): the
 * table is the verification module's and is named only in its files. Each piece takes a
 * fragment of the caller's statement (the request's id column, e.g. `r.id`, or a value).
 */
const OPEN = sql`('queued', 'in_progress', 'needs_info')`;

export const TaskSql = {
  /** A condition: the request has an open task (a person is checking one of its insurers). */
  anyOpen(requestId: Sql): Sql {
    return sql`EXISTS (SELECT 1 FROM verification_tasks t WHERE t.request_id = ${requestId}
           AND t.state IN ${OPEN})`;
  },
} as const;
