import { sql, type Sql } from '@/platform/db/sql';

/**
 * The SQL of appointments' writes (AppointmentsRepository; docs/api.md, Appointments). An upsert
 * is one INSERT ... ON CONFLICT per statement, for one appointment (PUT) or a chunk of a sync,
 * its rows taken from a JSON recordset (`rows`) of the account.
 */

/** What an upsert statement is given: the account, its rows as JSON text, and the time now. */
interface UpsertInput {
  accountId: string;
  rows: string;
  now: Date;
}

/** The recordset's columns (StoredValues' fields). */
const INPUT_FIELDS = sql`external_id text, starts_at timestamptz, ends_at timestamptz, status text,
      location_id uuid, services text[], patient_code text, patient jsonb, insurer_codes text[],
      source_updated_at timestamptz, visit_date date, starts_offset smallint, check_key text,
      stored_by_api_key_id uuid, stored_by_user_id uuid, auto_checks boolean`;

/** The columns an upsert writes, in the recordset's order. */
const WRITTEN = sql`external_id, starts_at, ends_at, status, location_id, services, patient_code,
      patient, insurer_codes, source_updated_at, visit_date, starts_offset, check_key,
      stored_by_api_key_id, stored_by_user_id, auto_checks`;

/** Statuses never checked: their pending checks are dropped. */
const UNCHECKED = sql`'cancelled', 'noshow'`;

/**
 * The upsert as a CTE `up` answering `returning`. A new appointment, or one whose time, status,
 * patient or insurers changed, is due for the checks loop `now` (the loop decides from the policy
 * whether to check it, and when next: so a reschedule moves its pending checks); a cancelled or
 * `noshow` one, or one already past, has none. Last writer wins by `source_updated_at`: a
 * stored row changes only when the new one is not older (either side without one counts as not
 * older), and only when something differs, so the same body twice leaves `updated_at` as it
 * was; `source_updated_at` absent keeps the stored one. Rows go in `external_id` order, so two
 * statements lock the rows they share in the same order. An appointment stored by a key that may
 * not start checks (`auto_checks` false; SECURITY.md, API key scopes) has none; one stored again
 * by a storer that may is due again.
 */
const upsertCte = (p: UpsertInput, returning: Sql) => sql`WITH up AS (
    INSERT INTO appointments AS a (account_id, ${WRITTEN}, next_check_at)
    SELECT ${p.accountId}, ${WRITTEN},
      CASE WHEN status IN (${UNCHECKED}) OR starts_at <= ${p.now}::timestamptz OR NOT auto_checks
        THEN NULL ELSE ${p.now}::timestamptz END
    FROM jsonb_to_recordset(${p.rows}::jsonb) AS i(${INPUT_FIELDS})
    ORDER BY i.external_id
    ON CONFLICT (account_id, external_id) DO UPDATE SET
      starts_at = EXCLUDED.starts_at, ends_at = EXCLUDED.ends_at, status = EXCLUDED.status,
      location_id = EXCLUDED.location_id, services = EXCLUDED.services,
      patient_code = EXCLUDED.patient_code, patient = EXCLUDED.patient,
      insurer_codes = EXCLUDED.insurer_codes,
      visit_date = EXCLUDED.visit_date, starts_offset = EXCLUDED.starts_offset, check_key = EXCLUDED.check_key,
      stored_by_api_key_id = EXCLUDED.stored_by_api_key_id,
      stored_by_user_id = EXCLUDED.stored_by_user_id, auto_checks = EXCLUDED.auto_checks,
      next_check_at = CASE
        WHEN EXCLUDED.status IN (${UNCHECKED}) OR EXCLUDED.starts_at <= ${p.now}::timestamptz
          OR NOT EXCLUDED.auto_checks THEN NULL
        WHEN (a.starts_at, a.status, a.check_key, a.auto_checks)
          IS DISTINCT FROM (EXCLUDED.starts_at, EXCLUDED.status, EXCLUDED.check_key, EXCLUDED.auto_checks)
          THEN ${p.now}::timestamptz
        ELSE a.next_check_at END,
      source_updated_at = COALESCE(EXCLUDED.source_updated_at, a.source_updated_at),
      updated_at = now()
    WHERE (EXCLUDED.source_updated_at IS NULL OR a.source_updated_at IS NULL
        OR EXCLUDED.source_updated_at >= a.source_updated_at)
      AND (a.starts_at, a.ends_at, a.status, a.location_id, a.services, a.patient_code, a.patient,
          a.insurer_codes, a.source_updated_at, a.auto_checks)
        IS DISTINCT FROM (EXCLUDED.starts_at, EXCLUDED.ends_at, EXCLUDED.status, EXCLUDED.location_id,
          EXCLUDED.services, EXCLUDED.patient_code, EXCLUDED.patient, EXCLUDED.insurer_codes,
          COALESCE(EXCLUDED.source_updated_at, a.source_updated_at), EXCLUDED.auto_checks)
    RETURNING ${returning})`;

/** An appointment's columns named as the entity's properties (raw rows → Appointment). */
export const APPOINTMENT_COLUMNS = (t: string): Sql =>
  sql.raw(`${t}.id, ${t}.account_id AS "accountId",
      ${t}.external_id AS "externalId", ${t}.starts_at AS "startsAt", ${t}.ends_at AS "endsAt",
      ${t}.status, ${t}.location_id AS "locationId", ${t}.services, ${t}.patient_code AS "patientCode",
      ${t}.patient, ${t}.insurer_codes AS "insurerCodes", ${t}.source_updated_at AS "sourceUpdatedAt",
      ${t}.coverage_state AS "coverageState", ${t}.coverage_stale AS "coverageStale", ${t}.coverage, ${t}.next_check_at AS "nextCheckAt",
      ${t}.stored_by_api_key_id AS "storedByApiKeyId", ${t}.stored_by_user_id AS "storedByUserId",
      ${t}.auto_checks AS "autoChecks", ${t}.starts_offset AS "startsOffset",
      ${t}.created_at AS "createdAt", ${t}.updated_at AS "updatedAt"`);

/**
 * One appointment's upsert (a recordset of one row), answering the appointment as it now stands
 * and what happened to it: `created` (xmax = 0: the row is this statement's insert), `updated`,
 * or `unchanged` (the stored row, as the statement's snapshot sees it).
 */
export const upsertOne = (
  p: UpsertInput,
): Sql => sql`${upsertCte(p, sql`a.*, (a.xmax = 0) AS created`)}
  SELECT ${APPOINTMENT_COLUMNS('up')}, CASE WHEN up.created THEN 'created' ELSE 'updated' END AS outcome
  FROM up
  UNION ALL
  SELECT ${APPOINTMENT_COLUMNS('s')}, 'unchanged' AS outcome
  FROM appointments s
  WHERE s.account_id = ${p.accountId} AND s.external_id = ${p.rows}::jsonb -> 0 ->> 'external_id'
    AND NOT EXISTS (SELECT 1 FROM up)`;

/** A chunk of a sync: how many appointments it created and how many it changed. */
export const upsertChunk = (
  p: UpsertInput,
): Sql => sql`${upsertCte(p, sql`(a.xmax = 0) AS created`)}
  SELECT count(*) FILTER (WHERE created)::int AS created,
    count(*) FILTER (WHERE NOT created)::int AS updated
  FROM up`;

/**
 * A sync's window: every appointment of the account starting in [from, to), of the location
 * when it is not null, not listed and not yet `cancelled`, becomes `cancelled`. Answers how many
 * did.
 */
export const cancelUnlisted = (p: {
  accountId: string;
  from: string;
  to: string;
  locationId: string | null;
  listed: string[];
}): Sql => sql`WITH c AS (
    UPDATE appointments SET status = 'cancelled', updated_at = now(), next_check_at = NULL
    WHERE account_id = ${p.accountId} AND starts_at >= ${p.from}::timestamptz AND starts_at < ${p.to}::timestamptz
      AND (${p.locationId}::uuid IS NULL OR location_id = ${p.locationId}::uuid)
      AND status <> 'cancelled'
      AND NOT (external_id = ANY (${p.listed}::text[]))
    RETURNING 1)
  SELECT count(*)::int AS cancelled FROM c`;

/** One appointment becomes `cancelled` (DELETE), answered as it now stands; no row: not found. */
export const cancelOne = (accountId: string, externalId: string): Sql => sql`WITH c AS (
    UPDATE appointments SET status = 'cancelled', updated_at = now(), next_check_at = NULL
    WHERE account_id = ${accountId} AND external_id = ${externalId} AND status <> 'cancelled'
    RETURNING *)
  SELECT ${APPOINTMENT_COLUMNS('c')} FROM c
  UNION ALL
  SELECT ${APPOINTMENT_COLUMNS('s')} FROM appointments s
  WHERE s.account_id = ${accountId} AND s.external_id = ${externalId} AND NOT EXISTS (SELECT 1 FROM c)`;
