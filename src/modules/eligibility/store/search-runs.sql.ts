// Relative, not `@/`: the bench's bare baseline loads this file without the service's module
// paths (test/bench-baselines.pg.spec.ts).
import { sql, type Sql } from '../../../platform/db/sql';
import type { EligibilityPerson, EligibilityResult } from './eligibility-result.entity';
import { personIdentity } from '../domain/person-identity';

/**
 * The SQL of a search's finishing (SearchRunsRepository's statements): the request ends with its
 * bodies, its results and persons are stored, in one statement with the outbox's deliveries.
 */

/** A result's INSERT from the recordset `x` and the CTE `request` (both statements share it). */
const INSERT_RESULTS = sql`INSERT INTO eligibility_results (id, request_id, account_id, position, insurer_code, status, plan_name,
      plan_group, plan_group_id, plan_begin_date, plan_end_date, plan_refresh_date, plan_is_active)
    SELECT x.id, request.id, request.account_id, x.position, x.insurer_code, x.status, x.plan_name,
      x.plan_group, x.plan_group_id, x.plan_begin_date, x.plan_end_date, x.plan_refresh_date, x.plan_is_active`;

/** The results' recordset columns (resultRow's fields). */
const RESULT_FIELDS = sql`id bigint, position smallint, insurer_code varchar,
      status varchar, plan_name text, plan_group text, plan_group_id text, plan_begin_date date,
      plan_end_date date, plan_refresh_date date, plan_is_active boolean`;

/** A person's INSERT from the recordset `x` and the CTE `request` (both statements share it). */
const INSERT_PERSONS = sql`INSERT INTO eligibility_persons (id, result_id, account_id, position, first_name, last_name, dob, sex,
      member_id, ssn_last_four, type, address, email, phone, is_active, insurer_state, plan, plan_token,
      plan_token_expired_at)
    SELECT x.id, x.result_id, request.account_id, x.position, x.first_name, x.last_name, x.dob, x.sex,
      x.member_id, x.ssn_last_four, x.type, x.address, x.email, x.phone, x.is_active, x.insurer_state, x.plan,
      x.plan_token, x.plan_token_expired_at`;

/** The persons' recordset columns (personRow's fields). */
const PERSON_FIELDS = sql`id bigint, result_id bigint, position smallint,
      first_name text, last_name text, dob date, sex text, member_id text, ssn_last_four text, type text,
      address jsonb, email text, phone text, is_active boolean, insurer_state varchar, plan jsonb,
      plan_token char(64), plan_token_expired_at date`;

/** A request's end as the finishing statement writes it, with its results and persons as JSON text. */
export interface FinishValues {
  requestId: string;
  status: string;
  errorCode: string | null;
  bodyV1: string;
  bodyV2: string;
  results: string;
  persons: string;
}

/**
 * The finishing write, one statement: the request ends (only while it is still `processing`:
 * the row lock makes a second finisher wait and then find it finished) and its results and
 * persons are stored, with the ids allocated beforehand; the webhook outbox adds its deliveries
 * (a CTE `deliveries` selecting from `request`, which carries the bodies as `v1`, `v2`).
 * Answers one row when it finished the request.
 */
export function finishCtes(f: FinishValues): Sql {
  return sql`WITH request AS (
    UPDATE eligibility_requests
    SET status = ${f.status}, error_code = ${f.errorCode}, body_v1 = ${f.bodyV1}, body_v2 = ${f.bodyV2},
      insurer_outcomes = NULL, completed_at = now()
    WHERE id = ${f.requestId} AND status = 'processing'
    RETURNING id, account_id, uid, body_v1 AS v1, body_v2 AS v2),
  results AS (
    ${INSERT_RESULTS}
    FROM request, jsonb_to_recordset(${f.results}::jsonb) AS x(${RESULT_FIELDS})),
  persons AS (
    ${INSERT_PERSONS}
    FROM request, jsonb_to_recordset(${f.persons}::jsonb) AS x(${PERSON_FIELDS}))`;
}

/**
 * A complete request's answer grows (docs/api.md, Universal Search insurer by insurer: a person
 * answered after it completed): its new bodies and the results and persons they added
 * (recordsets as finishCtes's), only while it is `complete`. Answers one row when it did.
 */
export function appendResults(f: Omit<FinishValues, 'status' | 'errorCode'>): Sql {
  return sql`WITH request AS (
    UPDATE eligibility_requests SET body_v1 = ${f.bodyV1}, body_v2 = ${f.bodyV2}
    WHERE id = ${f.requestId} AND status = 'complete'
    RETURNING id, account_id),
  results AS (
    ${INSERT_RESULTS}
    FROM request, jsonb_to_recordset(${f.results}::jsonb) AS x(${RESULT_FIELDS})),
  persons AS (
    ${INSERT_PERSONS}
    FROM request, jsonb_to_recordset(${f.persons}::jsonb) AS x(${PERSON_FIELDS}))
  SELECT id FROM request`;
}

/** The most requests one grouped finishing statement carries (its group commit's batch). */
export const FINISH_MANY_MAX = 32;

/**
 * finishCtes for up to FINISH_MANY_MAX requests at once (the group commit of `finishGrouped`):
 * the results' and persons' recordsets (`results`, `persons`), each row naming its request; then
 * each request's five values (id, status, error code, body_v1, body_v2), FINISH_MANY_MAX rows in
 * all, the unused ones null (a null id finishes nothing). The bodies go as parameters of their
 * own, not as text arrays: an array would have every quote of the JSON escaped by the driver and
 * parsed back by PostgreSQL. The text is the same for every group size, so each connection plans
 * it once (a text per size was planned anew for each size until PostgreSQL settled on a generic
 * plan). `request` answers the requests it finished with their bodies (`v1`, `v2`), for the
 * deliveries' CTE. A request finished already (not `processing`) is left out, with its results
 * and persons.
 */
export function finishManyCtes(
  fs: readonly Omit<FinishValues, 'results' | 'persons'>[],
  recordsets: { results: string; persons: string },
): Sql {
  const rows = Array.from({ length: FINISH_MANY_MAX }, (_, i) => {
    const f = fs[i];
    return sql`(${f?.requestId ?? null}::bigint, ${f?.status ?? null}::varchar, ${f?.errorCode ?? null}::varchar,
      ${f?.bodyV1 ?? null}::text, ${f?.bodyV2 ?? null}::text)`;
  });
  return sql`WITH f(id, status, error_code, body_v1, body_v2) AS (VALUES ${sql.join(rows)}),
  request AS (
    UPDATE eligibility_requests r
    SET status = f.status, error_code = f.error_code, body_v1 = f.body_v1, body_v2 = f.body_v2,
        insurer_outcomes = NULL, completed_at = now()
    FROM f WHERE r.id = f.id AND r.status = 'processing'
    RETURNING r.id, r.account_id, r.uid, f.body_v1 AS v1, f.body_v2 AS v2),
  results AS (
    ${INSERT_RESULTS}
    FROM jsonb_to_recordset(${recordsets.results}::jsonb) AS x(request_id bigint, ${RESULT_FIELDS})
    JOIN request ON request.id = x.request_id),
  persons AS (
    ${INSERT_PERSONS}
    FROM jsonb_to_recordset(${recordsets.persons}::jsonb) AS x(request_id bigint, ${PERSON_FIELDS})
    JOIN request ON request.id = x.request_id)`;
}

/** A result as a row of finishCtes's recordset. */
export function resultRow(r: EligibilityResult) {
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

/** A person as a row of finishCtes's recordset. */
/** `keepPlan`: the plan goes into the row too (else it is in the request's bodies only). */
export function personRow(p: EligibilityPerson, keepPlan: boolean) {
  return {
    id: p.id,
    result_id: p.resultId,
    position: p.position,
    ...personIdentity(p),
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
