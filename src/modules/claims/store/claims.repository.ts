import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { type KeysetPage, keysetPage } from '@/platform/http/pagination/keyset-paginator';
import type { Tx } from '@/platform/db/database';
import { entityColumns } from '@/platform/db/entity-columns';
import { execute, query, queryOne, sql, type Sql } from '@/platform/db/sql';
import { isoDate } from '@/platform/kernel/time';
import { ClaimServiceLine } from './claim-service-line.entity';
import { Claim } from './claim.entity';

/** A claim as it is created; its due time is the claims queue's (`ClaimsQueue.setDue`). */
export type NewClaim = Pick<
  Claim,
  | 'accountId'
  | 'locationId'
  | 'code'
  | 'status'
  | 'statusHistory'
  | 'createdAt'
  | 'insurerCode'
  | 'patient'
  | 'primaryMember'
  | 'paidAmount'
  | 'acceptAssignment'
  | 'metadata'
  | 'renderingProvider'
>;

/** One service line as it is created (its claim is the one stored with it). */
export type NewServiceLine = Pick<
  ClaimServiceLine,
  'position' | 'codes' | 'serviceDate' | 'quantity' | 'cost' | 'diagnosisCodes'
>;

/** The submission columns a move may set with its status (the channel, the 837P, the remittance). */
export type ClaimSubmissionSets = Partial<
  Pick<
    Claim,
    | 'submissionChannel'
    | 'clearinghouseId'
    | 'submittedAt'
    | 'x12837'
    | 'submissionDetail'
    | 'remittance'
  >
>;

/** The columns a move changes besides the queue's (`ClaimsQueue.setDue` sets those). */
export type ClaimMoveSets = Partial<Pick<Claim, 'status' | 'statusHistory'>> & ClaimSubmissionSets;

/** A claim's service line as the practice's history reads it (docs/api.md, Next eligible dates). */
export interface ClaimedLine {
  claimCode: string;
  insurerCode: string;
  patient: Claim['patient'];
  remittance: Claim['remittance'];
  codes: string[];
  serviceDate: string;
}

/**
 * Claims that did not use a benefit: the payer refused them or took them back (docs/api.md, Next
 * eligible dates), or they never reached it.
 */
export const CLAIMS_WITHOUT_SERVICE = ['rejected', 'denied', 'reversed', 'submission_failed'];

/** Claims matched within one account (`accountId`), or any account's (no `accountId`). */
export interface ClaimScope {
  accountId?: string;
}

/** The columns a move sets, by property; `json`: sent as JSON text. */
const MOVE_COLUMNS: Record<keyof ClaimMoveSets, { column: string; json?: true }> = {
  status: { column: 'status' },
  statusHistory: { column: 'status_history', json: true },
  submissionChannel: { column: 'submission_channel' },
  clearinghouseId: { column: 'clearinghouse_id' },
  submittedAt: { column: 'submitted_at' },
  x12837: { column: 'x12_837' },
  submissionDetail: { column: 'submission_detail' },
  remittance: { column: 'remittance', json: true },
};

/** A JSON column's value: its text, or NULL. */
const json = (value: unknown) =>
  value === null || value === undefined ? null : JSON.stringify(value);

/**
 * Claims and their service lines (`claims`, `claim_services`). The queue columns of a claim
 * (`job_due_at`, `attempts`, `lease_job`, `lease_owner`) are ClaimsQueue's.
 */
@Injectable()
export class ClaimsRepository {
  private readonly claimColumns: Sql;
  private readonly lineColumns: Sql;

  constructor(@InjectDataSource() private readonly db: DataSource) {
    this.claimColumns = entityColumns(db, Claim, 'c');
    this.lineColumns = entityColumns(db, ClaimServiceLine, 's');
  }

  /** Stores a new claim and its service lines (in the order given). */
  async insert(
    f: NewClaim,
    lines: NewServiceLine[],
    tx?: Tx,
  ): Promise<{ claim: Claim; services: ClaimServiceLine[] }> {
    const claim = (await queryOne<Claim>(
      this.db,
      sql`INSERT INTO claims AS c (account_id, location_id, code, status, status_history, created_at,
         insurer_code, patient, primary_member, paid_amount, accept_assignment, metadata, rendering_provider)
       VALUES (${f.accountId}, ${f.locationId}, ${f.code}, ${f.status}, ${json(f.statusHistory)}::jsonb,
         ${f.createdAt}, ${f.insurerCode}, ${json(f.patient)}::jsonb, ${json(f.primaryMember)}::jsonb,
         ${f.paidAmount}, ${f.acceptAssignment}, ${json(f.metadata)}::json, ${json(f.renderingProvider)}::jsonb)
       RETURNING ${this.claimColumns}`,
      tx,
    ))!;
    if (lines.length === 0) return { claim, services: [] };
    const rows = lines.map(
      (l) => sql`(${claim.id}, ${l.position}, ${l.codes}::text[], ${l.serviceDate}::date,
        ${l.quantity}, ${l.cost}::numeric, ${l.diagnosisCodes}::text[])`,
    );
    const services = await query<ClaimServiceLine>(
      this.db,
      sql`INSERT INTO claim_services AS s (claim_id, position, codes, service_date, quantity, cost, diagnosis_codes)
       VALUES ${sql.join(rows)} RETURNING ${this.lineColumns}`,
      tx,
    );
    return { claim, services };
  }

  /** The claims matching `where`; `tail` follows it (a lock, a limit). */
  private claims(where: Sql, tx?: Tx, tail = sql.empty): Promise<Claim[]> {
    return query(
      this.db,
      sql`SELECT ${this.claimColumns} FROM claims c WHERE ${where} ${tail}`,
      tx,
    );
  }

  /** `scope`'s condition on the claims' alias. */
  private scoped(scope: ClaimScope, where: Sql): Sql {
    return scope.accountId ? sql`c.account_id = ${scope.accountId} AND ${where}` : where;
  }

  async findById(id: string, tx?: Tx): Promise<Claim | null> {
    return (await this.claims(sql`c.id = ${id}`, tx))[0] ?? null;
  }

  async findByCode(accountId: string, code: string, tx?: Tx): Promise<Claim | null> {
    return (
      (await this.claims(sql`c.account_id = ${accountId} AND c.code = ${code}`, tx))[0] ?? null
    );
  }

  /** The claim, its row locked until the end of `tx` (a move). */
  async lockById(id: string, tx: Tx): Promise<Claim | null> {
    return (await this.claims(sql`c.id = ${id}`, tx, sql`FOR UPDATE`))[0] ?? null;
  }

  /** Newest first, keyset-paginated on (created_at, id) like the patient list. */
  page(accountId: string, limit: number, cursor?: string | null): Promise<KeysetPage<Claim>> {
    return keysetPage(
      this.db,
      sql`SELECT ${this.claimColumns} FROM claims c WHERE c.account_id = ${accountId}`,
      { limit, cursor },
    );
  }

  /** The claim's service lines in their order. */
  linesOf(claimId: string, tx?: Tx): Promise<ClaimServiceLine[]> {
    return this.linesOfClaims([claimId], tx);
  }

  /** The service lines of several claims, each claim's in their order. */
  linesOfClaims(claimIds: string[], tx?: Tx): Promise<ClaimServiceLine[]> {
    return query(
      this.db,
      sql`SELECT ${this.lineColumns} FROM claim_services s
       WHERE s.claim_id = ANY(${claimIds}::uuid[]) ORDER BY s.position ASC`,
      tx,
    );
  }

  /** A move's columns (status, history, submission, remittance). */
  async update(id: string, sets: ClaimMoveSets, tx?: Tx): Promise<void> {
    const assignments = Object.entries(sets)
      .filter(([, value]) => value !== undefined)
      .map(([property, value]) => {
        const { column, json: isJson } = MOVE_COLUMNS[property as keyof ClaimMoveSets];
        return isJson
          ? sql`${sql.raw(column)} = ${json(value)}::jsonb`
          : sql`${sql.raw(column)} = ${value}`;
      });
    if (assignments.length === 0) return;
    await execute(this.db, sql`UPDATE claims SET ${sql.join(assignments)} WHERE id = ${id}`, tx);
  }

  /**
   * The claim's interchange control number and time: when it has none yet, the next number of
   * the deployment's `x12_control_numbers` sequence (so no two claims share one until it wraps)
   * and `createdAt`; the ones kept are answered.
   */
  async keepEnvelope(
    claimId: string,
    createdAt: Date,
  ): Promise<{ controlNumber: number; createdAt: Date }> {
    await execute(
      this.db,
      sql`UPDATE claims SET x12_control_number = nextval('x12_control_numbers'), x12_created_at = ${createdAt}
       WHERE id = ${claimId} AND x12_control_number IS NULL`,
    );
    const kept = await queryOne<{ controlNumber: number; createdAt: Date }>(
      this.db,
      sql`SELECT x12_control_number AS "controlNumber", x12_created_at AS "createdAt"
       FROM claims WHERE id = ${claimId}`,
    );
    if (!kept) throw new Error(`Claim ${claimId} not found.`);
    return kept;
  }

  /** Counts one 276 status check of the claim; answers the count. */
  async countCheck(claimId: string): Promise<number> {
    const row = await queryOne<{ status_checks: number }>(
      this.db,
      sql`UPDATE claims SET status_checks = status_checks + 1 WHERE id = ${claimId} RETURNING status_checks`,
    );
    return row?.status_checks ?? 0;
  }

  /** The claims whose 837P interchange had this control number (ISA13 = GS06 = ST02). */
  byControlNumber(scope: ClaimScope, controlNumber: number, tx?: Tx): Promise<Claim[]> {
    return this.claims(this.scoped(scope, sql`c.x12_control_number = ${controlNumber}`), tx);
  }

  /**
   * The claims a 277CA names: by its code (CLM01), or by the clearinghouse's trace when given
   * (a few at most: the caller moves none when they are of several accounts).
   */
  byCodeOrTrace(
    scope: ClaimScope,
    code: string,
    clearinghouseTrace: string | null,
    tx?: Tx,
  ): Promise<Claim[]> {
    const named = clearinghouseTrace
      ? sql`(c.code = ${code} OR c.clearinghouse_id = ${clearinghouseTrace})`
      : sql`c.code = ${code}`;
    return this.claims(this.scoped(scope, named), tx, sql`LIMIT 10`);
  }

  /**
   * The service lines of the account's claims whose patient was born on one of `dobs` (to these
   * insurers when given), claims that used no benefit left out: the most recent service first, at
   * most `limit` (claims_patient_dob_idx).
   */
  async linesOfPatients(
    accountId: string,
    dobs: readonly string[],
    insurerCodes: readonly string[] | null,
    limit: number,
  ): Promise<ClaimedLine[]> {
    const rows = await query<{
      code: string;
      insurer_code: string;
      patient: Claim['patient'];
      remittance: Claim['remittance'];
      codes: string[];
      service_date: string | Date;
    }>(
      this.db,
      sql`SELECT c.code, c.insurer_code, c.patient, c.remittance, s.codes, s.service_date
       FROM claims c JOIN claim_services s ON s.claim_id = c.id
       WHERE c.account_id = ${accountId} AND (c.patient->>'dob') = ANY(${dobs}::text[])
         AND (${insurerCodes}::text[] IS NULL OR c.insurer_code = ANY(${insurerCodes}::text[]))
         AND c.status <> ALL(${CLAIMS_WITHOUT_SERVICE}::text[])
       ORDER BY s.service_date DESC, c.code, s.position
       LIMIT ${limit}`,
    );
    return rows.map((r) => ({
      claimCode: r.code,
      insurerCode: r.insurer_code,
      patient: r.patient,
      remittance: r.remittance,
      codes: r.codes,
      serviceDate: isoDate(r.service_date)!,
    }));
  }

  /** The claims with these codes (none asked: none answered, without a query). */
  async byCodes(scope: ClaimScope, codes: string[], tx?: Tx): Promise<Claim[]> {
    if (codes.length === 0) return [];
    return this.claims(this.scoped(scope, sql`c.code = ANY(${codes}::text[])`), tx);
  }
}
