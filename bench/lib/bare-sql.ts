import { compile, sql } from '../../src/platform/db/sql';
import { finishCtes, type FinishValues } from '../../src/modules/eligibility/store/search-runs.sql';

/**
 * The statements of the bare baselines: the search baseline's (bench/search-baseline.ts), the
 * service's own as plain text, and scenario 9's bare sync (bench/sync.ts).
 * test/bench-baselines.pg.spec.ts prepares each against the schema, so a migration that changes
 * what they name (a column, a conflict target) fails a test, not the bench.
 */

/** Intake's INSERT for one request (the location resolved as the service does, by default). */
export const INSERT_REQUEST = `INSERT INTO eligibility_requests
    (account_id, uid, kind, parent_id, location_id, insurer_codes, query, target, status,
     job_due_at, attempts, lease_job, lease_owner)
  SELECT $1, $2, 'search', NULL, l.id, $3::varchar[], $4::jsonb, NULL, 'processing',
    now() + ($5 || ' milliseconds')::interval, 1, $6, $7::uuid
  FROM locations l WHERE l.account_id = $1 AND l.is_default LIMIT 1
  RETURNING id`;

/** What the bare finishing statement stores besides the request's end: its deliveries' lease. */
export interface BareFinish extends FinishValues {
  event: string;
  leaseJob: string;
  leaseMs: string;
  owner: string | null;
}

/**
 * The service's finishing statement for one search (finishCtes) with WebhookOutbox.
 * finishingDeliveries' CTE (bodies from `request`) and its summary: its text and values.
 */
export function finish(f: BareFinish): { text: string; values: unknown[] } {
  return compile(sql`${finishCtes(f)}, deliveries AS (
     INSERT INTO webhook_deliveries (webhook_id, account_id, event, request_id, request_uid, body, status,
                                     attempt_count, lease_job, next_attempt_at, lease_owner)
     SELECT w.id, w.account_id, ${f.event}, request.id, request.uid,
            CASE w.version WHEN 'v1' THEN request.v1 ELSE request.v2 END, 'pending',
            CASE WHEN ${f.leaseJob}::text IS NULL THEN 0 ELSE 1 END, ${f.leaseJob},
            now() + (${f.leaseMs} || ' milliseconds')::interval, ${f.owner}::uuid
     FROM request JOIN webhooks w ON w.account_id = request.account_id
     WHERE w.is_active AND 'eligibility' = ANY(w.events)
     ON CONFLICT (webhook_id, request_id, event) WHERE resource_key IS NULL DO NOTHING
     RETURNING id, webhook_id, request_id)
  SELECT request.id, (SELECT COALESCE(json_agg(json_build_object('id', d.id, 'webhook_id', d.webhook_id,
       'url', w.url, 'secret_sealed', w.secret_sealed, 'version', w.version)), '[]'::json)
     FROM deliveries d JOIN webhooks w ON w.id = d.webhook_id WHERE d.request_id = request.id) AS deliveries
  FROM request`);
}

/** `finish`'s text (the same whatever the values), for the plan check of the bench's spec. */
export const FINISH = finish({
  requestId: '',
  status: '',
  errorCode: null,
  bodyV1: '',
  bodyV2: '',
  results: '',
  persons: '',
  event: '',
  leaseJob: '',
  leaseMs: '',
  owner: null,
}).text;

/** recordAttempt of src/modules/webhooks/store/webhook-deliveries.repository.ts, unchanged. */
export const RECORD_ATTEMPT = `WITH d AS (
     SELECT d.id, d.status, w.is_active FROM webhook_deliveries d JOIN webhooks w ON w.id = d.webhook_id
     WHERE d.id = $1 FOR UPDATE OF d),
   attempt AS (
     INSERT INTO webhook_attempts (delivery_id, started_at, status_code, duration_ms, error, response_body, manual)
     SELECT d.id, $2, $3, $4, $5, $6, false FROM d),
   next AS (
     SELECT d.id, CASE WHEN d.status <> 'pending' THEN d.status
                       WHEN $7::boolean THEN 'succeeded'
                       WHEN $8::boolean OR NOT d.is_active THEN 'failed'
                       ELSE 'pending' END AS status
     FROM d),
   updated AS (
     UPDATE webhook_deliveries t
     SET status = next.status, lease_job = NULL,
         next_attempt_at = CASE WHEN next.status = 'pending' THEN now() + ($9 || ' milliseconds')::interval END,
         completed_at = CASE WHEN next.status = 'pending' THEN NULL ELSE now() END
     FROM next, d WHERE t.id = next.id AND d.status = 'pending')
   SELECT status FROM next`;

/**
 * Scenario 9's bare sync: the rows a sync stored (the service's own values, read back), written
 * again in one plain INSERT ... ON CONFLICT of the columns the service's upsert writes
 * (appointments.sql.ts), every row due at $3 as the service's new rows are. None of the
 * service's work around it: no validation, lookups, chunks, last-writer rule or cancels.
 */
export const UPSERT_APPOINTMENTS = `INSERT INTO appointments AS a
    (account_id, external_id, starts_at, ends_at, status, location_id, services, patient_code,
     patient, insurer_codes, source_updated_at, visit_date, check_key, next_check_at)
  SELECT $1::uuid, i.external_id, i.starts_at, i.ends_at, i.status, i.location_id, i.services,
    i.patient_code, i.patient, i.insurer_codes, i.source_updated_at, i.visit_date, i.check_key,
    $3::timestamptz
  FROM jsonb_to_recordset($2::jsonb) AS i(external_id text, starts_at timestamptz,
    ends_at timestamptz, status text, location_id uuid, services text[], patient_code text,
    patient jsonb, insurer_codes text[], source_updated_at timestamptz, visit_date date,
    check_key text)
  ON CONFLICT (account_id, external_id) DO UPDATE SET
    starts_at = EXCLUDED.starts_at, ends_at = EXCLUDED.ends_at, status = EXCLUDED.status,
    location_id = EXCLUDED.location_id, services = EXCLUDED.services,
    patient_code = EXCLUDED.patient_code, patient = EXCLUDED.patient,
    insurer_codes = EXCLUDED.insurer_codes, source_updated_at = EXCLUDED.source_updated_at,
    visit_date = EXCLUDED.visit_date, check_key = EXCLUDED.check_key,
    next_check_at = EXCLUDED.next_check_at, updated_at = now()`;
