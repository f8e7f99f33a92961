import type { EligibilityPerson, EligibilityResult } from './eligibility-result.entity';
import { personIdentity } from '../domain/person-identity';

/**
 * The SQL of a search's finishing (SearchRunsRepository's statements): the request ends with its
 * bodies, its results and persons are stored, in one statement with the outbox's deliveries.
 */

/** A result's INSERT from the recordset `x` and the CTE `request` (both statements share it). */
const INSERT_RESULTS = `INSERT INTO eligibility_results (id, request_id, account_id, position, insurer_code, status, plan_name,
      plan_group, plan_group_id, plan_begin_date, plan_end_date, plan_refresh_date, plan_is_active)
    SELECT x.id, request.id, request.account_id, x.position, x.insurer_code, x.status, x.plan_name,
      x.plan_group, x.plan_group_id, x.plan_begin_date, x.plan_end_date, x.plan_refresh_date, x.plan_is_active`;

/** The results' recordset columns (resultRow's fields). */
const RESULT_FIELDS = `id bigint, position smallint, insurer_code varchar,
      status varchar, plan_name text, plan_group text, plan_group_id text, plan_begin_date date,
      plan_end_date date, plan_refresh_date date, plan_is_active boolean`;

/** A person's INSERT from the recordset `x` and the CTE `request` (both statements share it). */
const INSERT_PERSONS = `INSERT INTO eligibility_persons (id, result_id, account_id, position, first_name, last_name, dob, sex,
      member_id, ssn_last_four, type, address, email, phone, is_active, insurer_state, plan, plan_token,
      plan_token_expired_at)
    SELECT x.id, x.result_id, request.account_id, x.position, x.first_name, x.last_name, x.dob, x.sex,
      x.member_id, x.ssn_last_four, x.type, x.address, x.email, x.phone, x.is_active, x.insurer_state, x.plan,
      x.plan_token, x.plan_token_expired_at`;

/** The persons' recordset columns (personRow's fields). */
const PERSON_FIELDS = `id bigint, result_id bigint, position smallint,
      first_name text, last_name text, dob date, sex text, member_id text, ssn_last_four text, type text,
      address jsonb, email text, phone text, is_active boolean, insurer_state varchar, plan jsonb,
      plan_token char(64), plan_token_expired_at date`;

/**
 * The finishing write, one statement: the request ends (only while it is still `processing`:
 * the row lock makes a second finisher wait and then find it finished) and its results and
 * persons are stored, with the ids allocated beforehand; the webhook outbox adds its deliveries
 * (a CTE `deliveries` selecting from `request`). Answers one row when it finished the request.
 */
export const FINISH_CTES = `WITH request AS (
    UPDATE eligibility_requests
    SET status = $2, error_code = $3, body_v1 = $4, body_v2 = $5, insurer_outcomes = NULL, completed_at = now()
    WHERE id = $1 AND status = 'processing'
    RETURNING id, account_id, uid),
  results AS (
    ${INSERT_RESULTS}
    FROM request, jsonb_to_recordset($6::jsonb) AS x(${RESULT_FIELDS})),
  persons AS (
    ${INSERT_PERSONS}
    FROM request, jsonb_to_recordset($7::jsonb) AS x(${PERSON_FIELDS}))`;

/**
 * A complete request's answer grows (docs/api.md, Universal Search insurer by insurer: a person
 * answered after it completed): its new bodies ($2, $3) and the results and persons they added
 * ($4, $5, recordsets as FINISH_CTES's), only while it is `complete`. Answers one row when it did.
 */
export const APPEND_RESULTS_SQL = `WITH request AS (
    UPDATE eligibility_requests SET body_v1 = $2, body_v2 = $3
    WHERE id = $1 AND status = 'complete'
    RETURNING id, account_id),
  results AS (
    ${INSERT_RESULTS}
    FROM request, jsonb_to_recordset($4::jsonb) AS x(${RESULT_FIELDS})),
  persons AS (
    ${INSERT_PERSONS}
    FROM request, jsonb_to_recordset($5::jsonb) AS x(${PERSON_FIELDS}))
  SELECT id FROM request`;

/** The most requests one grouped finishing statement carries (its group commit's batch). */
export const FINISH_MANY_MAX = 32;

/**
 * FINISH_CTES for up to FINISH_MANY_MAX requests at once (the group commit of `finishGrouped`):
 * the results' and persons' recordsets are $1 and $2, each row naming its request; then each
 * request's five values follow (id, status, error code, body_v1, body_v2: $3–$7 for the first,
 * $8–$12 for the next, …), FINISH_MANY_MAX slots in all, the unused ones null (a null id finishes
 * nothing). The bodies go as parameters of their own, not as text arrays: an array would have
 * every quote of the JSON escaped by the driver and parsed back by PostgreSQL. The text is the
 * same for every group size, so each connection plans it once (a text per size was planned anew
 * for each size until PostgreSQL settled on a generic plan). `request` answers the requests it
 * finished with their bodies (`v1`, `v2`), for the deliveries' CTE. A request finished already
 * (not `processing`) is left out, with its results and persons.
 */
export const FINISH_MANY_CTES = finishManySql(FINISH_MANY_MAX);

function finishManySql(n: number): string {
  const rows = Array.from({ length: n }, (_, i) => {
    const $ = (k: number) => `$${3 + i * 5 + k}`;
    return `(${$(0)}::bigint, ${$(1)}::varchar, ${$(2)}::varchar, ${$(3)}::text, ${$(4)}::text)`;
  });
  return `WITH f(id, status, error_code, body_v1, body_v2) AS (VALUES ${rows.join(', ')}),
  request AS (
    UPDATE eligibility_requests r
    SET status = f.status, error_code = f.error_code, body_v1 = f.body_v1, body_v2 = f.body_v2,
        insurer_outcomes = NULL, completed_at = now()
    FROM f WHERE r.id = f.id AND r.status = 'processing'
    RETURNING r.id, r.account_id, r.uid, f.body_v1 AS v1, f.body_v2 AS v2),
  results AS (
    ${INSERT_RESULTS}
    FROM jsonb_to_recordset($1::jsonb) AS x(request_id bigint, ${RESULT_FIELDS})
    JOIN request ON request.id = x.request_id),
  persons AS (
    ${INSERT_PERSONS}
    FROM jsonb_to_recordset($2::jsonb) AS x(request_id bigint, ${PERSON_FIELDS})
    JOIN request ON request.id = x.request_id)`;
}

/** A result as a row of FINISH_CTES's recordset. */
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

/** A person as a row of FINISH_CTES's recordset. */
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
