import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { queryableOf, type Tx } from '@/database/database';
import { pgQueryable, type Queryable } from '@/database/pg-pool';
import { SequenceBlock } from '@/database/sequence-block';
import type { DbQueue } from '@/common/queue/db-queue';
import type { FinishingDeliveries } from '@/modules/webhooks/webhook-outbox';
import type { EligibilityErrorCode } from './eligibility-request.entity';
import {
  EligibilityPerson,
  EligibilityResult,
  type FoundPerson,
} from './eligibility-result.entity';
import type { LeasedRow } from './search-lease';

/** The RETURNING list of LeasedRequest, over `eligibility_requests`. */
export const LEASED_REQUEST_COLUMNS = `id, account_id AS "accountId", uid, kind, parent_id AS "parentId",
  location_id AS "locationId", insurer_codes AS "insurerCodes", query, target, status, attempts,
  insurer_outcomes AS "insurerOutcomes", batch_id AS "batchId", created_at AS "createdAt"`;

/**
 * Select-list expressions over the lease's CTE `leased` (with "accountId", "locationId" and
 * "insurerCodes") answering `settings` and `provider` as JSON; `setupOf` reads them.
 */
export const SEARCH_SETUP_SQL = `
  (SELECT COALESCE(json_agg(json_build_object('insurer_code', ai.insurer_code, 'enabled', ai.enabled,
      'username', ai.username, 'password_sealed', ai.password_sealed,
      'eligibility_mode', ai.eligibility_mode)), '[]'::json)
   FROM account_insurers ai
   WHERE ai.account_id = leased."accountId" AND ai.insurer_code = ANY(leased."insurerCodes")) AS settings,
  (SELECT json_build_object('npi', l.npi, 'organization_name', COALESCE(l.organization_name, l.title),
      'tax_id', l.tax_id)
   FROM locations l
   WHERE l.id = leased."locationId" AND l.account_id = leased."accountId" AND l.npi IS NOT NULL) AS provider`;

/**
 * The finishing write, one statement: the request ends (only while it is still `processing`:
 * the row lock makes a second finisher wait and then find it finished) and its results and
 * persons are stored, with the ids allocated beforehand; the webhook outbox adds its deliveries
 * (a CTE `deliveries` selecting from `request`). Answers one row when it finished the request.
 */
const FINISH_CTES = `WITH request AS (
    UPDATE eligibility_requests
    SET status = $2, error_code = $3, body_v1 = $4, body_v2 = $5, insurer_outcomes = NULL, completed_at = now()
    WHERE id = $1 AND status = 'processing'
    RETURNING id, account_id, uid),
  results AS (
    INSERT INTO eligibility_results (id, request_id, account_id, position, insurer_code, status, plan_name,
      plan_group, plan_group_id, plan_begin_date, plan_end_date, plan_refresh_date, plan_is_active)
    SELECT x.id, request.id, request.account_id, x.position, x.insurer_code, x.status, x.plan_name,
      x.plan_group, x.plan_group_id, x.plan_begin_date, x.plan_end_date, x.plan_refresh_date, x.plan_is_active
    FROM request, jsonb_to_recordset($6::jsonb) AS x(id bigint, position smallint, insurer_code varchar,
      status varchar, plan_name text, plan_group text, plan_group_id text, plan_begin_date date,
      plan_end_date date, plan_refresh_date date, plan_is_active boolean)),
  persons AS (
    INSERT INTO eligibility_persons (id, result_id, account_id, position, first_name, last_name, dob, sex,
      member_id, ssn_last_four, type, address, email, phone, is_active, insurer_state, plan, plan_token,
      plan_token_expired_at)
    SELECT x.id, x.result_id, request.account_id, x.position, x.first_name, x.last_name, x.dob, x.sex,
      x.member_id, x.ssn_last_four, x.type, x.address, x.email, x.phone, x.is_active, x.insurer_state, x.plan,
      x.plan_token, x.plan_token_expired_at
    FROM request, jsonb_to_recordset($7::jsonb) AS x(id bigint, result_id bigint, position smallint,
      first_name text, last_name text, dob date, sex text, member_id text, ssn_last_four text, type text,
      address jsonb, email text, phone text, is_active boolean, insurer_state varchar, plan jsonb,
      plan_token char(64), plan_token_expired_at date))`;

/** What finishing needs of a request (a run has it from its lease; others read it). */
export interface Head {
  requestId: string;
  uid: string;
  accountId: string;
  batchId: string | null;
}

/** How a request ends, as the finishing statement stores it. */
export interface Finishing {
  requestId: string;
  status: 'complete' | 'error';
  errorCode: EligibilityErrorCode | null;
  bodyV1: string;
  bodyV2: string;
  /** `keepPlans`: the persons' plans are stored in their rows too (else only in the bodies). */
  results: { result: EligibilityResult; persons: FoundPerson[]; keepPlans?: boolean }[];
}

/**
 * A search's run on `eligibility_requests` and its results: the lease's select list (the row and
 * what its insurer calls need), the stored result a details request asks about, and finishing
 * (the request row, its results and persons, in one prepared statement; ids from sequence
 * blocks). Reads `account_insurers` and `locations` (insurers' and accounts' tables) in the
 * lease's SEARCH_SETUP_SQL, and `verification_tasks` (verification's table) for the watchdog.
 */
@Injectable()
export class SearchRunsRepository {
  /** The hot statements go straight to the driver's pool (bench/README.md). */
  private readonly pg: Queryable;
  private readonly resultIds: SequenceBlock;
  private readonly personIds: SequenceBlock;

  constructor(@InjectDataSource() private readonly db: DataSource) {
    this.pg = pgQueryable(db);
    this.resultIds = new SequenceBlock(this.pg, 'eligibility_results_id_seq');
    this.personIds = new SequenceBlock(this.pg, 'eligibility_persons_id_seq');
  }

  /** Leases request `id` to run `jobId` on `queue`, answering the row (LeasedRow) or null. */
  lease(queue: DbQueue, id: string, jobId: string): Promise<LeasedRow | null> {
    return queue.leaseReturning<LeasedRow>(id, jobId, LEASED_REQUEST_COLUMNS, SEARCH_SETUP_SQL);
  }

  /** Ids for `results` new results and `persons` new persons (taken ahead, in blocks). */
  async takeIds(results: number, persons: number): Promise<[string[], string[]]> {
    return Promise.all([this.resultIds.take(results), this.personIds.take(persons)]);
  }

  /** The request, when still processing. */
  async head(requestId: string): Promise<Head | null> {
    const rows: { uid: string; account_id: string; batch_id: string | null; status: string }[] =
      await this.pg.query(
        'SELECT uid, account_id, batch_id, status FROM eligibility_requests WHERE id = $1',
        [requestId],
      );
    const row = rows[0];
    if (!row || row.status !== 'processing') return null;
    return {
      requestId,
      uid: row.uid,
      accountId: row.account_id,
      batchId: row.batch_id === null ? null : String(row.batch_id),
    };
  }

  /**
   * The finishing statement, with the outbox's `deliveries` built into it (it carries the bodies
   * as its $4 and $5): answers the recorded deliveries, or null when the request was finished
   * already.
   */
  async finish(
    f: Finishing,
    deliveries: FinishingDeliveries,
    tx?: Tx,
  ): Promise<ReturnType<FinishingDeliveries['read']> | null> {
    const { cte, summary, values } = deliveries.sql({
      values: [
        f.requestId,
        f.status,
        f.errorCode,
        f.bodyV1,
        f.bodyV2,
        JSON.stringify(f.results.map(({ result }) => resultRow(result))),
        JSON.stringify(
          f.results.flatMap(({ persons, keepPlans }) =>
            persons.map((p) => personRow(p, keepPlans === true)),
          ),
        ),
      ],
      bodies: { v1: '$4', v2: '$5' },
    });
    const statement = `${FINISH_CTES}, ${cte}
      SELECT request.id, ${summary} AS deliveries FROM request`;
    const rows = await (tx ? queryableOf(this.db, tx) : this.pg).query<{ deliveries: unknown }[]>(
      statement,
      values,
    );
    return rows.length === 0 ? null : deliveries.read(rows[0].deliveries);
  }

  /** A details request's target: the stored result and its person (null when either is gone). */
  async target(
    resultId: string,
    personId: string,
  ): Promise<{ result: EligibilityResult; person: EligibilityPerson } | null> {
    const result = await this.db
      .getRepository(EligibilityResult)
      .findOne({ where: { id: resultId } });
    const person = await this.db
      .getRepository(EligibilityPerson)
      .findOne({ where: { id: personId, resultId } });
    return result && person ? { result, person } : null;
  }

  /**
   * Requests still `processing` past `limitSeconds` (a batch item from its first run), oldest
   * first, except those waiting for a person (an open verification task).
   */
  async stuck(limitSeconds: number, limit: number): Promise<string[]> {
    const rows: { id: string }[] = await this.db.query(
      `SELECT id FROM eligibility_requests
       WHERE status = 'processing'
         AND (CASE WHEN batch_id IS NULL THEN created_at ELSE started_at END)
             < now() - ($1 || ' seconds')::interval
         AND NOT EXISTS (SELECT 1 FROM verification_tasks t WHERE t.request_id = eligibility_requests.id
           AND t.state IN ('queued', 'in_progress', 'needs_info'))
       ORDER BY created_at LIMIT $2`,
      [String(limitSeconds), limit],
    );
    return rows.map((r) => String(r.id));
  }
}

/** A result as a row of FINISH_CTES's recordset. */
function resultRow(r: EligibilityResult) {
  return {
    id: r.id,
    position: r.position,
    insurer_code: r.insurerCode,
    status: r.status,
    plan_name: r.planName,
    plan_group: r.planGroup,
    plan_group_id: r.planGroupId,
    plan_begin_date: r.planBeginDate,
    plan_end_date: r.planEndDate,
    plan_refresh_date: r.planRefreshDate,
    plan_is_active: r.planIsActive,
  };
}

/** A person as a row of FINISH_CTES's recordset. */
/** `keepPlan`: the plan goes into the row too (else it is in the request's bodies only). */
function personRow(p: EligibilityPerson, keepPlan: boolean) {
  return {
    id: p.id,
    result_id: p.resultId,
    position: p.position,
    first_name: p.firstName,
    last_name: p.lastName,
    dob: p.dob,
    sex: p.sex,
    member_id: p.memberId,
    ssn_last_four: p.ssnLastFour,
    type: p.type,
    address: p.address,
    email: p.email,
    phone: p.phone,
    is_active: p.isActive,
    insurer_state: p.insurerState,
    plan: keepPlan ? p.plan : null,
    plan_token: p.planToken,
    plan_token_expired_at: p.planTokenExpiredAt,
  };
}
