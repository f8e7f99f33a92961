import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { Tx } from '@/platform/db/database';
import { execute, queryOne, sql } from '@/platform/db/sql';
import { LocationSql } from '@/modules/accounts';
import type { TaskRequestSql } from '@/modules/verification';
import type { SettledOutcomes } from '../../domain/search-outcome';

/**
 * The request a verification task belongs to, in the verification module's statements (its port
 * TaskRequestsPort, implemented by TaskRequestsBinding): `eligibility_requests` is named here, the
 * location is accounts' LocationSql.
 */
export const TASK_REQUEST_SQL: TaskRequestSql = {
  view: (requestId, accountId) => sql`SELECT r.uid AS request_uid, r.query, l.code AS location_code,
      l.title AS location_title, l.npi AS location_npi
    FROM eligibility_requests r ${LocationSql.leftJoin('l', { locationId: sql`r.location_id`, accountId })}
    WHERE r.id = ${requestId}`,
  batch: (requestId) =>
    sql`SELECT r.batch_id FROM eligibility_requests r WHERE r.id = ${requestId}`,
  unsettled: (requestId) => sql`SELECT c.code, c.n FROM eligibility_requests r
      CROSS JOIN LATERAL unnest(r.insurer_codes) WITH ORDINALITY AS c(code, n)
    WHERE r.id = ${requestId} AND r.status = 'processing'
      AND NOT coalesce(r.insurer_outcomes ? c.code, false)`,
};

/** A request as its answer is rendered again when a task changes. */
export interface RequestState {
  uid: string;
  account_id: string;
  status: string;
  insurer_codes: string[];
  insurer_outcomes: SettledOutcomes | null;
  attempts: number;
  body_v1: string | null;
  body_v2: string | null;
  origin: 'appointment' | null;
}

/**
 * The request side of assisted verification (docs/api.md, Insurers and assisted verification;
 * Universal Search insurer by insurer): its lock before its task changes, and its answer's text
 * as the task changes it. Its task is verification's (`SearchTasks`).
 */
@Injectable()
export class AssistedSearchesRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** Locks the request (`FOR UPDATE`): a task's change serialises with the run that parks it. */
  async lockRequest(requestId: string, tx?: Tx): Promise<void> {
    await execute(
      this.db,
      sql`SELECT id FROM eligibility_requests WHERE id = ${requestId} FOR UPDATE`,
      tx,
    );
  }

  /** The request as its answer is rendered (null: no such request). */
  stateOf(requestId: string, tx: Tx): Promise<RequestState | null> {
    return queryOne<RequestState>(
      this.db,
      sql`SELECT uid, account_id, status, insurer_codes, insurer_outcomes, attempts, body_v1, body_v2,
              origin
       FROM eligibility_requests WHERE id = ${requestId}`,
      tx,
    );
  }

  /** A processing request's answer (both versions: the same text while it runs). */
  async writeProcessing(requestId: string, body: string, tx: Tx): Promise<void> {
    await execute(
      this.db,
      sql`UPDATE eligibility_requests SET body_v1 = ${body}, body_v2 = ${body}
       WHERE id = ${requestId} AND status = 'processing'`,
      tx,
    );
  }

  /** A complete request's answer, when only its `insurers` changed. */
  async writeComplete(
    requestId: string,
    bodies: { v1: string; v2: string },
    tx: Tx,
  ): Promise<void> {
    await execute(
      this.db,
      sql`UPDATE eligibility_requests SET body_v1 = ${bodies.v1}, body_v2 = ${bodies.v2}
       WHERE id = ${requestId} AND status = 'complete'`,
      tx,
    );
  }
}
