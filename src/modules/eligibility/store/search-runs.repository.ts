import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { Tx } from '@/platform/db/database';
import { entityColumns } from '@/platform/db/entity-columns';
import { pgQueryable } from '@/platform/db/pg-pool';
import { query, queryOne, sql } from '@/platform/db/sql';
import { SequenceBlock } from '@/platform/db/sequence-block';
import { GroupCommit } from '@/platform/kernel/group-commit';
import type { DbQueue } from '@/platform/jobs/db-queue';
import { LocationSql } from '@/modules/accounts';
import { InsurerSettingsSql } from '@/modules/insurers';
import { TaskSql } from '@/modules/verification';
import type { FinishingDeliveries } from '@/modules/webhooks';
import type { EligibilityErrorCode } from './eligibility-request.entity';
import {
  EligibilityPerson,
  EligibilityResult,
  type FoundPerson,
} from './eligibility-result.entity';
import type { LeasedRow } from '../run/domain/search-lease';
import type { SettledOutcomes } from '../domain/search-outcome';
import {
  appendResults,
  finishCtes,
  finishManyCtes,
  FINISH_MANY_MAX,
  personRow,
  resultRow,
} from './search-runs.sql';

/** The RETURNING list of LeasedRequest, over `eligibility_requests`. */
export const LEASED_REQUEST_COLUMNS = sql`id, account_id AS "accountId", uid, kind, parent_id AS "parentId",
  location_id AS "locationId", insurer_codes AS "insurerCodes", query, target, status, attempts,
  insurer_outcomes AS "insurerOutcomes", options, batch_id AS "batchId", origin, created_at AS "createdAt"`;

/**
 * Select-list expressions over the lease's CTE `leased` (with "accountId", "locationId" and
 * "insurerCodes") answering `settings` and `provider` as JSON; `setupOf` reads them.
 */
export const SEARCH_SETUP_SQL = sql`
  ${InsurerSettingsSql.settingsJson({ accountId: sql`leased."accountId"`, codes: sql`leased."insurerCodes"` })} AS settings,
  ${LocationSql.providerJson({ locationId: sql`leased."locationId"`, accountId: sql`leased."accountId"` })} AS provider`;

/** What finishing needs of a request (a run has it from its lease; others read it). */
export interface Head {
  requestId: string;
  uid: string;
  accountId: string;
  batchId: string | null;
  /** Null for a client's request; `appointment` for an appointment's check. */
  origin: 'appointment' | null;
  /**
   * A run's own finish (docs/architecture.md, What operators see): when the request was accepted
   * and which of its insurers a person answers, for `eligibility_search_duration_seconds`.
   */
  measured?: { createdAt: Date; assisted: readonly string[] };
  /** Read with the head (the watchdog's finish): the insurers and their settled outcomes. */
  progress?: { codes: string[]; outcomes: SettledOutcomes };
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

/** The bodies as the finishing statements' CTE `request` answers them, for the deliveries. */
const REQUEST_BODIES = { v1: sql`request.v1`, v2: sql`request.v2` };

/**
 * The results' and persons' recordsets (JSON text) of `fs`' finishes, each row naming its
 * request (a statement for one request ignores the name).
 */
function recordsets(fs: readonly Pick<Finishing, 'requestId' | 'results'>[]) {
  return {
    results: JSON.stringify(
      fs.flatMap((f) =>
        f.results.map(({ result }) => ({ request_id: f.requestId, ...resultRow(result) })),
      ),
    ),
    persons: JSON.stringify(
      fs.flatMap((f) =>
        f.results.flatMap(({ persons, keepPlans }) =>
          persons.map((p) => ({ request_id: f.requestId, ...personRow(p, keepPlans === true) })),
        ),
      ),
    ),
  };
}

/** What a finish answers: the deliveries it recorded, or null (the request was finished already). */
type FinishAnswer = ReturnType<FinishingDeliveries['read']> | null;

interface GroupedFinish {
  f: Finishing;
  deliveries: FinishingDeliveries;
}

/**
 * A search's run on `eligibility_requests` and its results: the lease's select list (the row and
 * what its insurer calls need), the stored result a details request asks about, and finishing
 * (the request row, its results and persons, in one prepared statement; ids from sequence
 * blocks). The lease's SEARCH_SETUP_SQL reads the insurers' settings and the location with their
 * owners' SQL pieces (InsurerSettingsSql, LocationSql), the watchdog the open tasks with
 * verification's (TaskSql).
 */
@Injectable()
export class SearchRunsRepository {
  private readonly resultIds: SequenceBlock;
  private readonly personIds: SequenceBlock;
  /** Finishes of single searches, group-committed: those ready together share one statement. */
  private readonly finishes: GroupCommit<GroupedFinish, FinishAnswer>;

  constructor(@InjectDataSource() private readonly db: DataSource) {
    const pg = pgQueryable(db);
    this.resultIds = new SequenceBlock(pg, 'eligibility_results_id_seq');
    this.personIds = new SequenceBlock(pg, 'eligibility_persons_id_seq');
    this.finishes = new GroupCommit((items) => this.finishMany(items), {
      maxBatch: FINISH_MANY_MAX,
      maxInFlight: 4,
    });
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
    const row = await queryOne<{
      uid: string;
      account_id: string;
      batch_id: string | null;
      origin: 'appointment' | null;
      status: string;
      insurer_codes: string[];
      insurer_outcomes: SettledOutcomes | null;
    }>(
      this.db,
      sql`SELECT uid, account_id, batch_id, origin, status, insurer_codes, insurer_outcomes
       FROM eligibility_requests WHERE id = ${requestId}`,
    );
    if (!row || row.status !== 'processing') return null;
    return {
      requestId,
      uid: row.uid,
      accountId: row.account_id,
      batchId: row.batch_id === null ? null : String(row.batch_id),
      origin: row.origin,
      progress: { codes: row.insurer_codes, outcomes: row.insurer_outcomes ?? {} },
    };
  }

  /**
   * The finishing statement, with the outbox's `deliveries` built into it (the bodies from its
   * CTE `request`): answers the recorded deliveries, or null when the request was finished
   * already.
   */
  async finish(f: Finishing, deliveries: FinishingDeliveries, tx?: Tx): Promise<FinishAnswer> {
    const { cte, summary } = deliveries.sql({ bodies: REQUEST_BODIES });
    const { results, persons } = recordsets([f]);
    const row = await queryOne<{ deliveries: unknown }>(
      this.db,
      sql`${finishCtes({ ...f, results, persons })}, ${cte}
      SELECT request.id, ${summary} AS deliveries FROM request`,
      tx,
    );
    return row === null ? null : deliveries.read(row.deliveries, tx ?? null);
  }

  /**
   * `finish` for a single search (no transaction of the caller's), group-committed: the finishes
   * that become ready while one statement is in flight go together in the next (FINISH_MANY_CTES),
   * one statement and one commit for many searches; a lone one goes at once. Answers as `finish`.
   */
  async finishGrouped(f: Finishing, deliveries: FinishingDeliveries): Promise<FinishAnswer> {
    return (await this.finishes.add({ f, deliveries })) ?? null;
  }

  /** One statement finishing `items`' requests (each with its own deliveries). */
  private async finishMany(items: GroupedFinish[]): Promise<FinishAnswer[]> {
    const fs = items.map((i) => i.f);
    const { cte, summary } = items[0].deliveries.sql({ bodies: REQUEST_BODIES });
    const rows = await query<{ id: string; deliveries: unknown }>(
      this.db,
      sql`${finishManyCtes(fs, recordsets(fs))}, ${cte}
      SELECT request.id, ${summary} AS deliveries FROM request`,
    );
    const finished = new Map(rows.map((r) => [String(r.id), r.deliveries]));
    return items.map(({ f, deliveries }) =>
      finished.has(f.requestId) ? deliveries.read(finished.get(f.requestId), null) : null,
    );
  }

  /**
   * A complete request's answer grows: its new bodies and the results they added (APPEND_RESULTS_SQL),
   * in `tx`; false when it is not complete.
   */
  async append(
    requestId: string,
    bodies: { v1: string; v2: string },
    results: Finishing['results'],
    tx: Tx,
  ): Promise<boolean> {
    const sets = recordsets([{ requestId, results }]);
    const statement = appendResults({ requestId, bodyV1: bodies.v1, bodyV2: bodies.v2, ...sets });
    return (await queryOne(this.db, statement, tx)) !== null;
  }

  /** The number of results a request has (a later result's position follows them). */
  async resultCount(requestId: string, tx: Tx): Promise<number> {
    const row = await queryOne<{ n: number }>(
      this.db,
      sql`SELECT count(*)::int AS n FROM eligibility_results WHERE request_id = ${requestId}`,
      tx,
    );
    return row!.n;
  }

  /** A details request's target: the stored result and its person (null when either is gone). */
  async target(
    resultId: string,
    personId: string,
  ): Promise<{ result: EligibilityResult; person: EligibilityPerson } | null> {
    const result = await queryOne<EligibilityResult>(
      this.db,
      sql`SELECT ${entityColumns(this.db, EligibilityResult, 'r')} FROM eligibility_results r
       WHERE r.id = ${resultId}`,
    );
    const person = await queryOne<EligibilityPerson>(
      this.db,
      sql`SELECT ${entityColumns(this.db, EligibilityPerson, 'p')} FROM eligibility_persons p
       WHERE p.id = ${personId} AND p.result_id = ${resultId}`,
    );
    return result && person ? { result, person } : null;
  }

  /**
   * Requests still `processing` past `limitSeconds` (a batch item or an appointment's check from
   * its first run), oldest first, except those waiting for a person (an open verification task).
   */
  async stuck(limitSeconds: number, limit: number): Promise<string[]> {
    const rows = await query<{ id: string }>(
      this.db,
      sql`SELECT id FROM eligibility_requests
       WHERE status = 'processing'
         AND (CASE WHEN batch_id IS NULL AND origin IS NULL THEN created_at ELSE started_at END)
             < now() - (${String(limitSeconds)} || ' seconds')::interval
         AND NOT ${TaskSql.anyOpen(sql`eligibility_requests.id`)}
       ORDER BY created_at LIMIT ${limit}`,
    );
    return rows.map((r) => String(r.id));
  }
}
