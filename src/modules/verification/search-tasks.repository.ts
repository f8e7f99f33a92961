import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { managerOf, type Tx } from '@/database/database';

/**
 * `verification_tasks` as other modules' work reaches them (SearchTasks): PHI_RETENTION_DAYS
 * (SECURITY.md) erasing the tasks of purged requests.
 */
@Injectable()
export class SearchTasksRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /**
   * The tasks of the requests `requestIds` lose plans, evidence and notes (their states stay,
   * an audit of who answered when, without their words); answers their ids.
   */
  async purgeOfRequests(requestIds: string[], tx?: Tx): Promise<string[]> {
    const rows: { id: string }[] = await managerOf(this.db, tx).query(
      `WITH purged AS (
         UPDATE verification_tasks
            SET plans = NULL, evidence = NULL, detail = NULL,
                history = (SELECT COALESCE(jsonb_agg(h - 'detail'), '[]'::jsonb) FROM jsonb_array_elements(history) h)
          WHERE request_id = ANY($1::bigint[])
          RETURNING id)
       SELECT id::text AS id FROM purged`,
      [requestIds],
    );
    return rows.map((r) => r.id);
  }
}
