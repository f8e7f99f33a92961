import {
  type InsurerCode,
  insurerName,
  type MemberQuery,
  SHIPPED_INSURERS,
} from '@/modules/insurers';
import { sql, type Sql } from '@/platform/db/sql';
import type { TaskRequestSql } from './task-requests.port';
import type {
  Evidence,
  FailReason,
  TaskHistoryEntry,
  TaskState,
} from '../store/verification-task.entity';
import { formatInstant } from '@/platform/kernel/time';
import type { AskedPatient, Nullable } from '@/lib/person';

/**
 * The select list of a task as the API shows it, over `verification_tasks t` and its request
 * `rq` (`taskViewFrom`): `taskView` reads one row of it.
 */
export const TASK_VIEW_COLUMNS = sql`t.id, t.state, t.insurer_code, t.due_by, t.lease_holder, t.lease_holder_name,
  t.lease_until, t.evidence, t.failure_reason, t.detail, t.history, t.overdue_notified_at, t.created_at,
  t.updated_at, rq.request_uid, rq.query, rq.location_code, rq.location_title, rq.location_npi`;

/** The FROM of TASK_VIEW_COLUMNS: the tasks `t`, each with its request `rq` (the port's piece). */
export const taskViewFrom = (requests: TaskRequestSql): Sql => sql`verification_tasks t
  JOIN LATERAL (${requests.view(sql`t.request_id`, sql`t.account_id`)}) rq ON true`;

export interface TaskViewRow {
  id: string;
  state: TaskState;
  insurer_code: string;
  due_by: Date;
  lease_holder: string | null;
  lease_holder_name: string | null;
  lease_until: Date | null;
  evidence: Evidence | null;
  failure_reason: FailReason | null;
  detail: string | null;
  history: TaskHistoryEntry[];
  overdue_notified_at: Date | null;
  created_at: Date;
  updated_at: Date;
  request_uid: string;
  query: MemberQuery | Record<string, never>;
  location_code: string | null;
  location_title: string | null;
  location_npi: string | null;
}

/** A task as GET /verification-tasks/{id}/ answers it (and its webhooks carry). */
export interface TaskView {
  id: string;
  state: TaskState;
  insurer_code: string;
  insurer_name: string;
  portal_url: string | null;
  request_uid: string;
  /** The patient as the search asked, each key null once erased (PHI_RETENTION_DAYS). */
  patient: Nullable<Omit<AskedPatient, 'subscriber'>> & Pick<AskedPatient, 'subscriber'>;
  location: { code: string; title: string; npi: string | null } | null;
  due_by: string;
  overdue: boolean;
  lease: { holder: string; until: string } | null;
  failure_reason: FailReason | null;
  detail: string | null;
  evidence: Evidence | null;
  created_at: string;
  updated_at: string;
  history: TaskHistoryEntry[];
}

/** The API's view of a task row (TASK_VIEW_COLUMNS); `now` decides `overdue` and the lease. */
export function taskView(row: TaskViewRow, now = Date.now()): TaskView {
  const q = row.query as Partial<MemberQuery>;
  const dueBy = new Date(row.due_by);
  const leaseUntil = row.lease_until ? new Date(row.lease_until) : null;
  const leased = row.state === 'in_progress' && leaseUntil !== null && leaseUntil.getTime() > now;
  return {
    id: row.id,
    // A lapsed lease is a queued task (the maintenance loop writes it back soon after).
    state: row.state === 'in_progress' && !leased ? 'queued' : row.state,
    insurer_code: row.insurer_code,
    insurer_name: insurerName(row.insurer_code),
    portal_url: SHIPPED_INSURERS[row.insurer_code as InsurerCode]?.portalUrl ?? null,
    request_uid: row.request_uid,
    patient: {
      first_name: q.firstName ?? null,
      last_name: q.lastName ?? null,
      dob: q.dob ?? null,
      zipcode: q.zipcode ?? null,
      member_id: q.memberId ?? null,
      ssn_last_four: q.ssnLastFour ?? null,
      subscriber: q.subscriber
        ? {
            first_name: q.subscriber.firstName,
            last_name: q.subscriber.lastName,
            dob: q.subscriber.dob,
            member_id: q.subscriber.memberId,
          }
        : null,
    },
    location: row.location_code
      ? { code: row.location_code, title: row.location_title ?? '', npi: row.location_npi }
      : null,
    due_by: formatInstant(dueBy, 'utc'),
    overdue:
      (row.state === 'queued' || row.state === 'in_progress' || row.state === 'needs_info') &&
      dueBy.getTime() < now,
    lease: leased
      ? {
          holder: row.lease_holder_name ?? row.lease_holder!,
          until: formatInstant(leaseUntil, 'utc'),
        }
      : null,
    failure_reason: row.failure_reason,
    detail: row.detail,
    evidence: row.evidence,
    created_at: formatInstant(row.created_at, 'utc'),
    updated_at: formatInstant(row.updated_at, 'utc'),
    history: row.history,
  };
}
