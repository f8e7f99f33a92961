import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { NotFoundError } from '@/common/errors';
import { pgPool } from '@/database/pg-pool';
import type { StatementAuditEvent } from '@/modules/audit/audit.guard';
import { AuditService, type RecordedReads } from '@/modules/audit/audit.service';
import { REQUEST_UID_MAX_LENGTH } from './dto/create-eligibility.dto';
import { EligibilityRequest } from './eligibility-request.entity';
import { renderProcessing, ResultVersion } from './eligibility.renderer';
import { InsurerExchangeEntry, InsurerExchangeLog } from './insurer-exchange-log';

const SELECT_BODY_V1 =
  'SELECT body_v1 AS body FROM eligibility_requests WHERE account_id = $1 AND uid = $2';
const SELECT_BODY_V2 =
  'SELECT body_v2 AS body FROM eligibility_requests WHERE account_id = $1 AND uid = $2';

/** The body of each read of a group (`RecordedReads`: `q.key` is the uid). */
const RECORDED_BODY = (column: 'body_v1' | 'body_v2') =>
  `SELECT q.n, er.${column} AS body FROM q
    JOIN eligibility_requests er ON er.account_id = q.account_id AND er.uid = q.key`;

const notFound = (uid: string) => new NotFoundError(`Eligibility request ${uid} not found.`);

/** A request as the dashboard and patient links see it. */
export interface EligibilitySummary {
  id: string;
  uid: string;
  kind: string;
  status: string;
  errorCode: string | null;
  insurerCodes: string[];
  patientName: string;
  createdAt: Date;
  completedAt: Date | null;
  /** Complete without any plan (CONTRACT §21: shown as "No plan found", not as covered). */
  noPlanFound: boolean;
}

/** The read side: stored result bodies and request summaries, always within one account. */
@Injectable()
export class EligibilityQueryService {
  private readonly recordedBodies: Record<ResultVersion, RecordedReads<{ body: string | null }>>;

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly exchangeLog: InsurerExchangeLog,
    audit: AuditService,
  ) {
    this.recordedBodies = {
      v1: audit.recordedReads('eligibility-body-recorded-v1', RECORDED_BODY('body_v1')),
      v2: audit.recordedReads('eligibility-body-recorded-v2', RECORDED_BODY('body_v2')),
    };
  }

  /** The calls to insurers made for one request (patient data: staff pages only); 404 when unknown. */
  async exchanges(accountId: string, uid: string): Promise<InsurerExchangeEntry[]> {
    const request = await this.findRequest(accountId, uid);
    if (!request) throw new NotFoundError(`Eligibility request ${uid} not found.`);
    return this.exchangeLog.forRequest(accountId, request.id);
  }

  async findRequest(accountId: string, uid: string): Promise<EligibilityRequest | null> {
    return this.db.getRepository(EligibilityRequest).findOne({ where: { accountId, uid } });
  }

  /**
   * The result body of `version` exactly as stored (or the processing body); 404 when unknown.
   * One prepared statement on the driver's pool, no query runner; a uid longer than any
   * request's is not found without asking.
   */
  async getBody(accountId: string, uid: string, version: ResultVersion): Promise<string> {
    if (uid.length > REQUEST_UID_MAX_LENGTH) throw notFound(uid);
    const { rows } = await pgPool(this.db).query<{ body: string | null }>({
      name: `eligibility-body-${version}`,
      text: version === 'v1' ? SELECT_BODY_V1 : SELECT_BODY_V2,
      values: [accountId, uid],
    });
    if (rows.length === 0) throw notFound(uid);
    return rows[0].body ?? renderProcessing(uid);
  }

  /**
   * `getBody` for the API's GETs (the hot read path): the read's audit event is written by the
   * statement that reads the body, only when the request is found, and concurrent reads share
   * one statement (`RecordedReads`).
   */
  async getBodyRecorded(
    event: StatementAuditEvent,
    uid: string,
    version: ResultVersion,
  ): Promise<string> {
    if (uid.length > REQUEST_UID_MAX_LENGTH) throw notFound(uid);
    const row = await this.recordedBodies[version].read(uid, { ...event, resourceId: uid });
    if (!row) throw notFound(uid);
    return row.body ?? renderProcessing(uid);
  }

  /** V2 `results` (null while processing or on error) of several requests, by request id. */
  async resultsByIds(
    accountId: string,
    ids: string[],
  ): Promise<Map<string, { uid: string; status: string; results: unknown }>> {
    const map = new Map<string, { uid: string; status: string; results: unknown }>();
    if (ids.length === 0) return map;
    const rows: { id: string; uid: string; status: string; body: string | null }[] =
      await this.db.query(
        'SELECT id, uid, status, body_v2 AS body FROM eligibility_requests WHERE account_id = $1 AND id = ANY($2::bigint[])',
        [accountId, ids],
      );
    for (const r of rows) {
      map.set(String(r.id), {
        uid: r.uid,
        status: r.status,
        results: r.body ? (JSON.parse(r.body) as { results: unknown }).results : null,
      });
    }
    return map;
  }

  async listRecent(accountId: string, limit = 50): Promise<EligibilitySummary[]> {
    const rows = await this.db.getRepository(EligibilityRequest).find({
      where: { accountId },
      order: { createdAt: 'DESC', id: 'DESC' },
      take: limit,
    });
    const complete = rows.filter((r) => r.status === 'complete').map((r) => r.id);
    const withPlans: { request_id: string }[] = complete.length
      ? await this.db.query(
          `SELECT DISTINCT request_id FROM eligibility_results
           WHERE account_id = $1 AND request_id = ANY($2::bigint[])`,
          [accountId, complete],
        )
      : [];
    const found = new Set(withPlans.map((r) => String(r.request_id)));
    return rows.map((r) => summary(r, r.status === 'complete' && !found.has(String(r.id))));
  }
}

function summary(r: EligibilityRequest, noPlanFound: boolean): EligibilitySummary {
  return {
    id: r.id,
    uid: r.uid,
    kind: r.kind,
    status: r.status,
    errorCode: r.errorCode,
    insurerCodes: r.insurerCodes,
    patientName: `${r.query.firstName} ${r.query.lastName}`,
    createdAt: r.createdAt,
    completedAt: r.completedAt,
    noPlanFound,
  };
}
