import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import { formatInstant } from '@/platform/kernel/time';
import { managerOf, type Tx } from '@/platform/db/database';
import { LocationSql } from '@/modules/accounts';
import { type TaskRequestSql, TaskSql } from '@/modules/verification';
import { renderProcessing } from '../domain/eligibility.renderer';

/**
 * The request a verification task belongs to, in the verification module's statements (its port
 * TaskRequestsPort, bound by TaskRequestsBinding): `eligibility_requests` is named here, the
 * location is accounts' LocationSql.
 */
export const TASK_REQUEST_SQL: TaskRequestSql = {
  view: (requestId, accountId) => `SELECT r.uid AS request_uid, r.query, l.code AS location_code,
      l.title AS location_title, l.npi AS location_npi
    FROM eligibility_requests r ${LocationSql.leftJoin('l', { locationId: 'r.location_id', accountId })}
    WHERE r.id = ${requestId}`,
  batch: (requestId) => `SELECT r.batch_id FROM eligibility_requests r WHERE r.id = ${requestId}`,
  unsettled: (requestId) => `SELECT c.code, c.n FROM eligibility_requests r
      CROSS JOIN LATERAL unnest(r.insurer_codes) WITH ORDINALITY AS c(code, n)
    WHERE r.id = ${requestId} AND r.status = 'processing'
      AND NOT coalesce(r.insurer_outcomes ? c.code, false)`,
};

/**
 * The request side of assisted verification (docs/api.md, Insurers and assisted verification):
 * the processing bodies of a request that waits for a person, and its lock before its task
 * changes. Its task is verification's (`SearchTasks`, and `TaskSql` in showVerification).
 */
@Injectable()
export class AssistedSearchesRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** Locks the request (`FOR UPDATE`): a task's change serialises with the run that parks it. */
  async lockRequest(requestId: string, tx?: Tx): Promise<void> {
    await managerOf(this.db, tx).query(
      'SELECT id FROM eligibility_requests WHERE id = $1 FOR UPDATE',
      [requestId],
    );
  }

  /** showVerification, in `tx` when given. */
  showVerification(requestId: string, tx?: Tx): Promise<void> {
    return showVerification(managerOf(this.db, tx), requestId);
  }
}

const query = <T>(em: EntityManager, text: string, params: unknown[]): Promise<T> =>
  em.query(text, params);

/**
 * The request's stored processing answers carry its first open task by due time (docs/api.md, Insurers and assisted verification
 * `verification`), or none when no task is open; nothing happens to a finished request.
 * (The verification module calls it in its own transaction, through TaskRequestsBinding.)
 */
async function showVerification(em: EntityManager, requestId: string): Promise<void> {
  const rows: { uid: string; task_id: string | null; state: string | null; due_by: Date | null }[] =
    await query(
      em,
      `SELECT r.uid, t.id AS task_id, t.state, t.due_by FROM eligibility_requests r
       LEFT JOIN LATERAL (${TaskSql.firstOpen('r.id')}) t ON true
       WHERE r.id = $1 AND r.status = 'processing'`,
      [requestId],
    );
  const row = rows[0];
  if (!row) return;
  const body = row.task_id
    ? renderProcessing(row.uid, {
        task_id: row.task_id,
        state: row.state!,
        due_by: formatInstant(row.due_by!, 'utc'),
      })
    : null;
  await query(
    em,
    `UPDATE eligibility_requests SET body_v1 = $2, body_v2 = $2 WHERE id = $1 AND status = 'processing'`,
    [requestId, body],
  );
}
