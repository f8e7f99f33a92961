import type { DataSource } from 'typeorm';
import { GroupCommit } from '@/common/group-commit';
import { pgPool } from '@/database/pg-pool';
import type { MemberQuery } from '@/modules/insurers/insurer-connector';
import type { EligibilityRequest } from './eligibility-request.entity';
import { LEASED_REQUEST_COLUMNS, type LeasedRow, SEARCH_SETUP_SQL } from './search-lease';

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
  /** The local run the row is stored leased to (`DbQueue.reserveRun`), or null: stored due now. */
  leaseJob: string | null;
}

/** A stored row: for a leased one, what its run needs (LeasedRow); for a due one, its id. */
export type IntakeStored = LeasedRow & { leaseJob: string | null };

/**
 * Intake's INSERT, for many requests at once (one row of `q` each): every request in its
 * location (by id, by code, or the account's default), stored `processing`, due now or leased to
 * its local run for `$11` ms (the lease owned by process `$12`); a request whose location does not
 * exist is not stored. Answers the stored rows with what a leased row's run needs
 * (SEARCH_SETUP_SQL).
 */
const INSERT_REQUESTS = `WITH q AS (
    SELECT * FROM unnest($1::uuid[], $2::varchar[], $3::varchar[], $4::bigint[], $5::uuid[],
      $6::varchar[], $7::jsonb[], $8::jsonb[], $9::jsonb[], $10::varchar[])
      AS q(account_id, uid, kind, parent_id, location_id, location_code, insurer_codes, query,
        target, lease_job)),
  leased AS (
    INSERT INTO eligibility_requests
      (account_id, uid, kind, parent_id, location_id, insurer_codes, query, target, status,
       job_due_at, attempts, lease_job, lease_owner)
    SELECT q.account_id, q.uid, q.kind, q.parent_id, l.id,
      ARRAY(SELECT jsonb_array_elements_text(q.insurer_codes)), q.query, q.target, 'processing',
      CASE WHEN q.lease_job IS NULL THEN now() ELSE now() + ($11 || ' milliseconds')::interval END,
      CASE WHEN q.lease_job IS NULL THEN 0 ELSE 1 END, q.lease_job,
      CASE WHEN q.lease_job IS NULL THEN NULL ELSE $12::uuid END
    FROM q CROSS JOIN LATERAL (
      SELECT l.id FROM locations l
      WHERE l.account_id = q.account_id
        AND CASE WHEN q.location_id IS NOT NULL THEN l.id = q.location_id
                 WHEN q.location_code IS NOT NULL THEN l.code = q.location_code
                 ELSE l.is_default END
      LIMIT 1) l
    RETURNING attempts AS attempt, lease_job AS "leaseJob", ${LEASED_REQUEST_COLUMNS})
  SELECT leased.*, ${SEARCH_SETUP_SQL} FROM leased`;

/**
 * Stores intake's requests, group-committed: the requests accepted while an INSERT is in flight
 * go out together in the next one (one statement and one commit for many POSTs; a lone request
 * is written at once). A refused statement (a duplicate uid, usually) is tried again request by
 * request, so only the refused request fails, with the database's error.
 */
export class IntakeWriter {
  private readonly group: GroupCommit<IntakeRow, IntakeStored | undefined>;

  constructor(
    private readonly db: DataSource,
    private readonly leaseMs: number,
    /** The registered process leases name (ProcessRegistry), when registered. */
    private readonly owner: () => string | null = () => null,
  ) {
    this.group = new GroupCommit((rows) => this.insert(rows), { maxBatch: 64, maxInFlight: 4 });
  }

  /** The stored row, or undefined when the request's location does not exist (nothing stored). */
  store(row: IntakeRow): Promise<IntakeStored | undefined> {
    return this.group.add(row);
  }

  private async insert(rows: IntakeRow[]): Promise<(IntakeStored | undefined)[]> {
    const { rows: stored } = await pgPool(this.db).query<IntakeStored>({
      name: 'eligibility-intake',
      text: INSERT_REQUESTS,
      values: [
        rows.map((r) => r.accountId),
        rows.map((r) => r.uid),
        rows.map((r) => r.kind),
        rows.map((r) => r.parentId),
        rows.map((r) => r.locationId),
        rows.map((r) => r.locationCode),
        rows.map((r) => JSON.stringify(r.insurerCodes)),
        rows.map((r) => JSON.stringify(r.query)),
        rows.map((r) => (r.target ? JSON.stringify(r.target) : null)),
        rows.map((r) => r.leaseJob),
        String(this.leaseMs),
        this.owner(),
      ],
    });
    // (account, uid) is unique: a batch holding the same twice is refused, then tried one by one.
    const byKey = new Map(stored.map((s) => [`${s.accountId} ${s.uid}`, s]));
    return rows.map((r) => byKey.get(`${r.accountId} ${r.uid}`));
  }
}
