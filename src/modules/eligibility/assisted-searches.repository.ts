import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import { managerOf, type Tx } from '@/database/database';
import { TaskSql } from '@/modules/verification';
import { renderProcessing } from './eligibility.renderer';

/**
 * The request side of assisted verification (docs/api.md, Insurers and assisted verification):
 * the processing bodies of a request that waits for a person. Its task is verification's
 * (`SearchTasks`, and `TaskSql` in this statement).
 */
@Injectable()
export class AssistedSearchesRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

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
        due_by: new Date(row.due_by!).toISOString(),
      })
    : null;
  await query(
    em,
    `UPDATE eligibility_requests SET body_v1 = $2, body_v2 = $2 WHERE id = $1 AND status = 'processing'`,
    [requestId, body],
  );
}
