import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { Tx } from '@/platform/db/database';
import { entityColumns } from '@/platform/db/entity-columns';
import { query, queryOne, type Sql, sql } from '@/platform/db/sql';
import { LocationSql } from '@/modules/accounts';
import type { RecordedReadsSource } from '@/modules/audit';
import type { MemberQuery } from '@/modules/insurers';
import { EligibilityRequest } from './eligibility-request.entity';
import { SearchQueue } from '../jobs/search.queue';
import type { ResultVersion } from '../read/domain/eligibility.renderer';
import type { StoredOptions } from '../domain/search-outcome';
import {
  LEASED_REQUEST_COLUMNS,
  type LeasedRow,
  SEARCH_SETUP_SQL,
} from '../run/domain/search-lease';

/** A request as intake stores it. */
export interface IntakeRow {
  accountId: string;
  uid: string;
  kind: 'search' | 'details';
  parentId: string | null;
  /** The location by id, by code, or (both null) the account's default. */
  locationId: string | null;
  locationCode: string | null;
  insurerCodes: string[];
  query: MemberQuery;
  target: EligibilityRequest['target'];
  /** docs/api.md, Universal Search insurer by insurer: the request's own choices (null: defaults). */
  options?: StoredOptions | null;
  /** The local run the row is stored leased to (`DbQueue.reserveRun`), or null: stored due now. */
  leaseJob: string | null;
}

/** A stored row: for a leased one, what its run needs (LeasedRow); for a due one, its id. */
export type IntakeStored = LeasedRow & { leaseJob: string | null };

/** A request's stored V2 body, as a list of several requests reads it. */
export interface StoredBodyRow {
  id: string;
  uid: string;
  status: string;
  body: string | null;
}

/**
 * A body's read: the stored text, or (null while a search has not stored one yet) what its
 * processing answer is made of: its insurers and whether it has run.
 */
const bodyColumns = (column: string, alias = '') =>
  `${alias}${column} AS body, CASE WHEN ${alias}${column} IS NULL THEN ${alias}insurer_codes END AS codes,
  ${alias}attempts, ${alias}origin`;

const BODY_COLUMNS = { v1: bodyColumns('body_v1'), v2: bodyColumns('body_v2') } as const;

/** A body as read: stored, or what the processing answer is made of. */
export interface BodyRow {
  body: string | null;
  codes: string[] | null;
  attempts: number;
  /** `appointment`: a check the service runs for an appointment; null: a client's own. */
  origin: 'appointment' | null;
}

/**
 * Intake's INSERT, for many requests at once (one row of `q` each, from the JSON recordset
 * `rows`): every request in its location (by id, by code, or the account's default), stored
 * `processing`, due now or leased to its local run for `leaseMs` ms (the lease owned by process
 * `owner`); a request whose location does not exist is not stored. Answers the stored rows with
 * what a leased row's run needs (SEARCH_SETUP_SQL). The queue's columns are `queue.sql`'s.
 *
 * One JSON recordset rather than an array per column: PostgreSQL estimates an array's rows from
 * its length in a custom plan but not in the generic one, so with the few requests of a usual
 * group it kept planning this statement anew on every execution; a recordset is estimated alike
 * either way, and the generic plan is kept (and the driver no longer escapes every element).
 */
const insertRequests = (
  queue: SearchQueue,
  p: { rows: string; leaseMs: string; owner: string | null },
) => sql`WITH q AS (
    SELECT * FROM json_to_recordset(${p.rows}::json) AS q(account_id uuid, uid varchar, kind varchar,
      parent_id bigint, location_id uuid, location_code varchar, insurer_codes jsonb, query jsonb,
      target jsonb, options jsonb, run_job varchar)),
  leased AS (
    INSERT INTO eligibility_requests
      (account_id, uid, kind, parent_id, location_id, insurer_codes, query, target, options, status,
       ${queue.sql.insertColumns})
    SELECT q.account_id, q.uid, q.kind, q.parent_id, l.id,
      ARRAY(SELECT jsonb_array_elements_text(q.insurer_codes)), q.query, q.target, q.options, 'processing',
      ${queue.sql.leasedValues({ job: sql`q.run_job`, leaseMs: sql`${p.leaseMs}`, owner: sql`${p.owner}` })}
    FROM q CROSS JOIN LATERAL (
      ${LocationSql.chosen({ accountId: sql`q.account_id`, locationId: sql`q.location_id`, locationCode: sql`q.location_code` })}) l
    RETURNING ${queue.sql.attempt} AS attempt, ${queue.sql.leaseJob} AS "leaseJob",
      ${LEASED_REQUEST_COLUMNS})
  SELECT leased.*, ${SEARCH_SETUP_SQL} FROM leased`;

/**
 * Eligibility requests as intake stores them and the API reads them, and the reads of their
 * results (eligibility_results, eligibility_persons) the read side needs. Intake's INSERT and the
 * body reads are the hot path: named prepared statements on the driver's pool. Intake's INSERT
 * resolves the location and answers the run's setup in the same round trip, with the owners'
 * SQL pieces (accounts' LocationSql, insurers' InsurerSettingsSql in SEARCH_SETUP_SQL).
 */
@Injectable()
export class EligibilityRequestsRepository {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly queue: SearchQueue,
  ) {}

  /**
   * Stores `rows` in one statement (leased ones for `leaseMs`, owned by `owner`); answers the
   * stored rows (not in `rows`' order; a row whose location does not exist is not stored).
   */
  async insertIntake(
    rows: IntakeRow[],
    leaseMs: number,
    owner: string | null,
  ): Promise<IntakeStored[]> {
    const statement = insertRequests(this.queue, {
      rows: JSON.stringify(
        rows.map((r) => ({
          account_id: r.accountId,
          uid: r.uid,
          kind: r.kind,
          parent_id: r.parentId,
          location_id: r.locationId,
          location_code: r.locationCode,
          insurer_codes: r.insurerCodes,
          query: r.query,
          target: r.target,
          options: r.options ?? null,
          run_job: r.leaseJob,
        })),
      ),
      leaseMs: String(leaseMs),
      owner,
    });
    return query<IntakeStored>(this.db, statement);
  }

  findByUid(accountId: string, uid: string, tx?: Tx): Promise<EligibilityRequest | null> {
    return queryOne(
      this.db,
      sql`SELECT ${this.columns} FROM eligibility_requests r WHERE r.account_id = ${accountId} AND r.uid = ${uid}`,
      tx,
    );
  }

  /**
   * The stored body of `version` (null while processing), or null when the account has no such
   * request: one prepared statement on the driver's pool, no query runner.
   */
  body(accountId: string, uid: string, version: ResultVersion): Promise<BodyRow | null> {
    return queryOne<BodyRow>(
      this.db,
      sql`SELECT ${sql.raw(BODY_COLUMNS[version])} FROM eligibility_requests
       WHERE account_id = ${accountId} AND uid = ${uid}`,
    );
  }

  /**
   * The select of a recorded read of `version`'s body (the audit module's RecordedReads: one row
   * of `q.reads` per read, its key the uid, read within the reading account).
   */
  recordedBodySelect(version: ResultVersion): (q: RecordedReadsSource) => Sql {
    const columns = sql.raw(bodyColumns(version === 'v1' ? 'body_v1' : 'body_v2', 'er.'));
    return (q) => sql`SELECT ${q.n}, ${columns} FROM ${q.reads}
    JOIN eligibility_requests er ON er.account_id = ${q.accountId} AND er.uid = ${q.key}`;
  }

  /** The V2 bodies of the account's requests among `ids`. */
  v2BodiesByIds(accountId: string, ids: string[], tx?: Tx): Promise<StoredBodyRow[]> {
    return query(
      this.db,
      sql`SELECT id, uid, status, body_v2 AS body FROM eligibility_requests
       WHERE account_id = ${accountId} AND id = ANY(${ids}::bigint[])`,
      tx,
    );
  }

  /** The account's `limit` most recent requests, newest first. */
  listRecent(accountId: string, limit: number, tx?: Tx): Promise<EligibilityRequest[]> {
    return query(
      this.db,
      sql`SELECT ${this.columns} FROM eligibility_requests r WHERE r.account_id = ${accountId}
       ORDER BY r.created_at DESC, r.id DESC LIMIT ${limit}`,
      tx,
    );
  }

  private get columns(): Sql {
    return entityColumns(this.db, EligibilityRequest, 'r');
  }

  /** The requests among `ids` (the account's) that have at least one result. */
  async withResults(accountId: string, ids: string[], tx?: Tx): Promise<Set<string>> {
    const rows = await query<{ request_id: string }>(
      this.db,
      sql`SELECT DISTINCT request_id FROM eligibility_results
           WHERE account_id = ${accountId} AND request_id = ANY(${ids}::bigint[])`,
      tx,
    );
    return new Set(rows.map((r) => String(r.request_id)));
  }

  /** Of the requests `ids`, those whose answer has an insurer a person is still checking. */
  async waitingForPeople(accountId: string, ids: string[], tx?: Tx): Promise<Set<string>> {
    const rows = await query<{ id: string }>(
      this.db,
      sql`SELECT id FROM eligibility_requests
           WHERE account_id = ${accountId} AND id = ANY(${ids}::bigint[])
             AND body_v2::jsonb -> 'insurers' @> '[{"state": "waiting_for_person"}]'`,
      tx,
    );
    return new Set(rows.map((r) => String(r.id)));
  }

  /** Result `resultId` of request `requestId`, with its insurer, if it is one of its results. */
  findResult(
    resultId: number,
    requestId: string,
    tx?: Tx,
  ): Promise<{ id: string; insurer_code: string } | null> {
    return queryOne(
      this.db,
      sql`SELECT id, insurer_code FROM eligibility_results WHERE id = ${resultId} AND request_id = ${requestId}`,
      tx,
    );
  }

  /** Whether person `personId` belongs to result `resultId`. */
  async personOfResult(personId: number, resultId: string, tx?: Tx): Promise<boolean> {
    const row = await queryOne(
      this.db,
      sql`SELECT id FROM eligibility_persons WHERE id = ${personId} AND result_id = ${resultId}`,
      tx,
    );
    return row !== null;
  }

  /** The uids among `uids` the account's requests already use. */
  async takenUids(accountId: string, uids: string[], tx?: Tx): Promise<Set<string>> {
    const rows = await query<{ uid: string }>(
      this.db,
      sql`SELECT uid FROM eligibility_requests WHERE account_id = ${accountId} AND uid = ANY(${uids}::text[])`,
      tx,
    );
    return new Set(rows.map((r) => r.uid));
  }
}
