import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, In } from 'typeorm';
import { type KeysetPage, paginateKeyset } from '@/platform/http/pagination/keyset-paginator';
import { managerOf, type Tx } from '@/platform/db/database';
import { queryPrepared } from '@/platform/db/pg-pool';
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

/**
 * Claims and their service lines (`claims`, `claim_services`). The queue columns of a claim
 * (`job_due_at`, `attempts`, `lease_job`, `lease_owner`) are ClaimsQueue's.
 */
@Injectable()
export class ClaimsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** Stores a new claim and its service lines (in the order given). */
  async insert(
    fields: NewClaim,
    lines: NewServiceLine[],
    tx?: Tx,
  ): Promise<{ claim: Claim; services: ClaimServiceLine[] }> {
    const em = managerOf(this.db, tx);
    const claim = await em.save(em.create(Claim, fields));
    const services = await em.save(
      lines.map((line) => em.create(ClaimServiceLine, { ...line, claimId: claim.id })),
    );
    return { claim, services };
  }

  findById(id: string, tx?: Tx): Promise<Claim | null> {
    return managerOf(this.db, tx).findOne(Claim, { where: { id } });
  }

  findByCode(accountId: string, code: string, tx?: Tx): Promise<Claim | null> {
    return managerOf(this.db, tx).findOne(Claim, { where: { accountId, code } });
  }

  /** The claim, its row locked until the end of `tx` (a move). */
  lockById(id: string, tx: Tx): Promise<Claim | null> {
    return managerOf(this.db, tx).findOne(Claim, {
      where: { id },
      lock: { mode: 'pessimistic_write' },
    });
  }

  /** Newest first, keyset-paginated on (created_at, id) like the patient list. */
  page(accountId: string, limit: number, cursor?: string | null): Promise<KeysetPage<Claim>> {
    return paginateKeyset(
      this.db
        .getRepository(Claim)
        .createQueryBuilder('c')
        .where('c.account_id = :accountId', { accountId }),
      { limit, cursor },
    );
  }

  /** The claim's service lines in their order. */
  linesOf(claimId: string, tx?: Tx): Promise<ClaimServiceLine[]> {
    return managerOf(this.db, tx).find(ClaimServiceLine, {
      where: { claimId },
      order: { position: 'ASC' },
    });
  }

  /** The service lines of several claims, each claim's in their order. */
  linesOfClaims(claimIds: string[], tx?: Tx): Promise<ClaimServiceLine[]> {
    return managerOf(this.db, tx).find(ClaimServiceLine, {
      where: { claimId: In(claimIds) },
      order: { position: 'ASC' },
    });
  }

  /** A move's columns (status, history, submission, remittance). */
  async update(id: string, sets: ClaimMoveSets, tx?: Tx): Promise<void> {
    await managerOf(this.db, tx).update(Claim, id, sets);
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
    await this.db.query(
      `UPDATE claims SET x12_control_number = nextval('x12_control_numbers'), x12_created_at = $2
       WHERE id = $1 AND x12_control_number IS NULL`,
      [claimId, createdAt],
    );
    const kept = await this.db.getRepository(Claim).findOneOrFail({
      where: { id: claimId },
      select: { id: true, x12ControlNumber: true, x12CreatedAt: true },
    });
    return { controlNumber: kept.x12ControlNumber!, createdAt: kept.x12CreatedAt! };
  }

  /** Counts one 276 status check of the claim; answers the count. */
  async countCheck(claimId: string): Promise<number> {
    // TypeORM answers a bare UPDATE ... RETURNING as [rows, count].
    const [rows]: [{ status_checks: number }[], number] = await this.db.query(
      `UPDATE claims SET status_checks = status_checks + 1 WHERE id = $1 RETURNING status_checks`,
      [claimId],
    );
    return rows[0]?.status_checks ?? 0;
  }

  /** The claims whose 837P interchange had this control number (ISA13 = GS06 = ST02). */
  byControlNumber(scope: ClaimScope, controlNumber: number, tx?: Tx): Promise<Claim[]> {
    return managerOf(this.db, tx).find(Claim, {
      where: { ...scope, x12ControlNumber: controlNumber },
    });
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
    const where = [
      { ...scope, code },
      ...(clearinghouseTrace ? [{ ...scope, clearinghouseId: clearinghouseTrace }] : []),
    ];
    return managerOf(this.db, tx).find(Claim, { where, take: 10 });
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
    const { rows } = await queryPrepared<{
      code: string;
      insurer_code: string;
      patient: Claim['patient'];
      remittance: Claim['remittance'];
      codes: string[];
      service_date: string | Date;
    }>(
      this.db,
      `SELECT c.code, c.insurer_code, c.patient, c.remittance, s.codes, s.service_date
       FROM claims c JOIN claim_services s ON s.claim_id = c.id
       WHERE c.account_id = $1 AND (c.patient->>'dob') = ANY($2::text[])
         AND ($3::text[] IS NULL OR c.insurer_code = ANY($3::text[]))
         AND c.status <> ALL($4::text[])
       ORDER BY s.service_date DESC, c.code, s.position
       LIMIT $5`,
      [accountId, dobs, insurerCodes, CLAIMS_WITHOUT_SERVICE, limit],
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
    return managerOf(this.db, tx).find(Claim, { where: { ...scope, code: In(codes) } });
  }
}
