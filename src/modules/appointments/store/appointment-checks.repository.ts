import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { Tx } from '@/platform/db/database';
import { execute, query, queryOne, sql } from '@/platform/db/sql';
import type { Appointment, StoredCoverage, StoredPatient } from './appointment.entity';
import { APPOINTMENT_COLUMNS } from './appointments.sql';

/** What a check needs of an appointment (the row, locked by the caller's transaction). */
export interface CheckRow {
  id: string;
  account_id: string;
  external_id: string;
  starts_at: Date;
  status: string;
  visit_date: string;
  location_id: string;
  patient_code: string | null;
  patient: StoredPatient | null;
  insurer_codes: string[];
  check_key: string;
  checked_at: Date | null;
  checked_key: string | null;
  check_forced: boolean;
  coverage_state: string;
  coverage_stale: boolean;
  coverage: StoredCoverage | null;
  check_request_uid: string | null;
  next_check_at: Date | null;
}

/** How a check leaves an appointment. */
export interface CheckUpdate {
  id: string;
  coverage_state: string;
  coverage_stale: boolean;
  coverage: StoredCoverage | null;
  next_check_at: string | null;
  checked_at: string | null;
  checked_key: string | null;
  check_request_uid: string | null;
}

const CHECK_COLUMNS = sql`a.id, a.account_id, a.external_id, a.starts_at, a.status,
  a.visit_date::text AS visit_date, a.location_id, a.patient_code, a.patient, a.insurer_codes,
  a.check_key, a.checked_at, a.checked_key, a.check_forced, a.coverage_state, a.coverage_stale, a.coverage,
  a.check_request_uid, a.next_check_at`;

/**
 * The schedule of appointments' checks (docs/api.md, Appointments): `next_check_at` says when
 * the checks loop looks at an appointment again; the row is the record, so a restart or a lost
 * Redis loses no scheduled check.
 */
@Injectable()
export class AppointmentChecksRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /**
   * Up to `limit` appointments whose time has come at `now`, earliest first, locked for the
   * caller's transaction (SKIP LOCKED: several processes share the work, none takes one twice).
   */
  takeDue(now: Date, limit: number, tx: Tx): Promise<CheckRow[]> {
    return query(
      this.db,
      sql`SELECT ${CHECK_COLUMNS} FROM appointments a
       WHERE a.next_check_at <= ${now}
       ORDER BY a.next_check_at LIMIT ${limit}
       FOR UPDATE SKIP LOCKED`,
      tx,
    );
  }

  /** One appointment of the account, locked (a "check now"); null when it has none. */
  async lockOne(accountId: string, externalId: string, tx: Tx): Promise<CheckRow | null> {
    return queryOne(
      this.db,
      sql`SELECT ${CHECK_COLUMNS} FROM appointments a
       WHERE a.account_id = ${accountId} AND a.external_id = ${externalId} FOR UPDATE`,
      tx,
    );
  }

  /** The appointments whose check is the request `requestUid`, locked. */
  byRequest(accountId: string, requestUid: string, tx: Tx): Promise<CheckRow[]> {
    return query(
      this.db,
      sql`SELECT ${CHECK_COLUMNS} FROM appointments a
       WHERE a.account_id = ${accountId} AND a.check_request_uid = ${requestUid} FOR UPDATE`,
      tx,
    );
  }

  /**
   * For each (account, key): the latest appointment answered since `since` for that patient and
   * insurers, with an answer to reuse (a settled state and its basis).
   */
  latestAnswers(
    keys: { account_id: string; check_key: string }[],
    since: Date,
    tx: Tx,
  ): Promise<
    { account_id: string; check_key: string; checked_at: Date; coverage: StoredCoverage }[]
  > {
    if (keys.length === 0) return Promise.resolve([]);
    const accounts = keys.map((k) => k.account_id);
    const checkKeys = keys.map((k) => k.check_key);
    return query(
      this.db,
      sql`SELECT DISTINCT ON (a.account_id, a.check_key) a.account_id, a.check_key, a.checked_at, a.coverage
       FROM appointments a
       JOIN (SELECT DISTINCT * FROM unnest(${accounts}::uuid[], ${checkKeys}::text[]) AS k(account_id, check_key)) k
         ON a.account_id = k.account_id AND a.check_key = k.check_key
       WHERE a.checked_at >= ${since} AND a.checked_key = a.check_key
         AND a.coverage_state IN ('active', 'inactive', 'no_plan')
         AND a.coverage ? 'basis'
       ORDER BY a.account_id, a.check_key, a.checked_at DESC`,
      tx,
    );
  }

  /**
   * Stores how checks left the appointments; answers those whose coverage was written. An
   * appointment without `auto_checks` keeps no next check: a "check now" on it schedules none.
   */
  async apply(updates: CheckUpdate[], tx: Tx): Promise<Appointment[]> {
    if (updates.length === 0) return [];
    return query(
      this.db,
      sql`WITH u AS (
         UPDATE appointments a SET coverage_state = x.coverage_state,
           coverage_stale = x.coverage_stale, coverage = x.coverage,
           next_check_at = CASE WHEN a.auto_checks THEN x.next_check_at END, checked_at = x.checked_at, checked_key = x.checked_key,
           check_request_uid = x.check_request_uid, check_forced = false
         FROM jsonb_to_recordset(${JSON.stringify(updates)}::jsonb) AS x(id uuid, coverage_state text, coverage_stale boolean, coverage jsonb,
           next_check_at timestamptz, checked_at timestamptz, checked_key text,
           check_request_uid text)
         WHERE a.id = x.id
         RETURNING a.*)
       SELECT ${APPOINTMENT_COLUMNS('u')} FROM u`,
      tx,
    );
  }

  /** "Check now": due at `now`, whether fresh or not. */
  async force(id: string, now: Date, tx: Tx): Promise<void> {
    await execute(
      this.db,
      sql`UPDATE appointments SET check_forced = true, next_check_at = ${now} WHERE id = ${id}`,
      tx,
    );
  }

  /** A new policy: the account's visits to come are looked at again at `now`. */
  async rescheduleAccount(accountId: string, now: Date): Promise<void> {
    await execute(
      this.db,
      sql`UPDATE appointments SET next_check_at = ${now}
       WHERE account_id = ${accountId} AND status NOT IN ('cancelled', 'noshow') AND starts_at > ${now}
         AND auto_checks`,
    );
  }
}
