import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { Tx } from '@/platform/db/database';
import { execute, query, sql } from '@/platform/db/sql';

/** A request whose patient data is due to go, as `lockRequests` answers it. */
export interface RequestToPurge {
  id: string;
  uid: string;
  status: string;
  error_code: string | null;
  /** The stored answer's `insurers` text and the closing brace (null without them). */
  insurers: string | null;
}

/**
 * The eligibility side of PHI_RETENTION_DAYS (SECURITY.md; RequestPurger): one set-based
 * statement per table (`eligibility_requests`, `eligibility_results` with their persons,
 * `insurer_exchanges`), in the job's transaction. Retention is the only writer of `purged_at`.
 */
@Injectable()
export class RequestPurgesRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /**
   * Up to `limit` requests created before `cutoff`, not purged and not `processing`, oldest
   * first, locked (`FOR UPDATE SKIP LOCKED`: several workers share the work).
   */
  lockRequests(cutoff: Date, limit: number, tx?: Tx): Promise<RequestToPurge[]> {
    return query(
      this.db,
      sql`SELECT id, uid, status, error_code,
              CASE WHEN strpos(body_v2, ',"insurers":') > 0
                   THEN substr(body_v2, strpos(body_v2, ',"insurers":') + 12) END AS insurers
         FROM eligibility_requests
          WHERE purged_at IS NULL AND created_at < ${cutoff} AND status <> 'processing'
          ORDER BY created_at, id
          LIMIT ${limit}
          FOR UPDATE SKIP LOCKED`,
      tx,
    );
  }

  /**
   * Erases the patient data of the requests `ids` (locked by `lockRequests`): results, persons
   * and insurer exchanges deleted, the query and outcomes emptied, the stored bodies replaced by
   * `bodies` (one per id), `purged_at` set.
   */
  async purgeRequests(ids: string[], bodies: string[], tx?: Tx): Promise<void> {
    // Persons go with their results (ON DELETE CASCADE).
    await execute(
      this.db,
      sql`DELETE FROM eligibility_results WHERE request_id = ANY(${ids}::bigint[])`,
      tx,
    );
    // The insurer exchanges hold the 270/271 (names, dates of birth, member ids, plans).
    await execute(
      this.db,
      sql`DELETE FROM insurer_exchanges WHERE request_id = ANY(${ids}::bigint[])`,
      tx,
    );
    await execute(
      this.db,
      sql`UPDATE eligibility_requests r
          SET query = '{}'::jsonb, insurer_outcomes = NULL, body_v1 = p.body, body_v2 = p.body,
              purged_at = now()
         FROM unnest(${ids}::bigint[], ${bodies}::text[]) AS p(id, body)
        WHERE r.id = p.id`,
      tx,
    );
  }
}
