import { Injectable } from '@nestjs/common';
import { NotFoundError } from '@/platform/kernel/errors';
import { AuditService, type RecordedReads, type StatementAuditEvent } from '@/modules/audit';
import { REQUEST_UID_MAX_LENGTH } from '../../api/dto/create-eligibility.dto';
import type { EligibilityRequest } from '../../store/eligibility-request.entity';
import {
  type BodyRow,
  EligibilityRequestsRepository,
} from '../../store/eligibility-requests.repository';
import { renderProcessing, withOrigin, ResultVersion } from './eligibility.renderer';
import { insurerEntries } from '../../domain/insurer-entries';
import { InsurerExchangeEntry, InsurerExchangeLog } from '../../run/domain/insurer-exchange-log';

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
  /** Complete without any plan (docs/api.md, Errors: shown as "No plan found", not as covered). */
  noPlanFound: boolean;
  /** Complete without a plan yet, while people still check insurers: not "no plan found". */
  stillChecking: boolean;
}

/** The read side: stored result bodies and request summaries, always within one account. */
@Injectable()
export class EligibilityQueryService {
  private readonly recordedBodies: Record<ResultVersion, RecordedReads<BodyRow>>;

  constructor(
    private readonly requests: EligibilityRequestsRepository,
    private readonly exchangeLog: InsurerExchangeLog,
    audit: AuditService,
  ) {
    this.recordedBodies = {
      v1: audit.recordedReads(requests.recordedBodySelect('v1')),
      v2: audit.recordedReads(requests.recordedBodySelect('v2')),
    };
  }

  /** The calls to insurers made for one request (patient data: staff pages only); 404 when unknown. */
  async exchanges(accountId: string, uid: string): Promise<InsurerExchangeEntry[]> {
    const request = await this.findRequest(accountId, uid);
    if (!request) throw notFound(uid);
    return this.exchangeLog.forRequest(accountId, request.id);
  }

  async findRequest(accountId: string, uid: string): Promise<EligibilityRequest | null> {
    return this.requests.findByUid(accountId, uid);
  }

  /**
   * The result body of `version` exactly as stored (or the processing body); 404 when unknown.
   * One prepared statement on the driver's pool, no query runner; a uid longer than any
   * request's is not found without asking.
   */
  async getBody(accountId: string, uid: string, version: ResultVersion): Promise<string> {
    if (uid.length > REQUEST_UID_MAX_LENGTH) throw notFound(uid);
    const row = await this.requests.body(accountId, uid, version);
    if (!row) throw notFound(uid);
    return bodyOf(uid, row);
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
    return bodyOf(uid, row);
  }

  /** V2 `results` (null while processing or on error) of several requests, by request id. */
  async resultsByIds(
    accountId: string,
    ids: string[],
  ): Promise<Map<string, { uid: string; status: string; results: unknown }>> {
    const map = new Map<string, { uid: string; status: string; results: unknown }>();
    if (ids.length === 0) return map;
    for (const r of await this.requests.v2BodiesByIds(accountId, ids)) {
      map.set(String(r.id), {
        uid: r.uid,
        status: r.status,
        results: r.body ? (JSON.parse(r.body) as { results: unknown }).results : null,
      });
    }
    return map;
  }

  async listRecent(accountId: string, limit = 50): Promise<EligibilitySummary[]> {
    const rows = await this.requests.listRecent(accountId, limit);
    const complete = rows.filter((r) => r.status === 'complete').map((r) => r.id);
    const found = complete.length
      ? await this.requests.withResults(accountId, complete)
      : new Set<string>();
    const planless = complete.filter((id) => !found.has(String(id)));
    const waiting = planless.length
      ? await this.requests.waitingForPeople(accountId, planless)
      : new Set<string>();
    return rows.map((r) => {
      const planlessNow = r.status === 'complete' && !found.has(String(r.id));
      const checking = planlessNow && waiting.has(String(r.id));
      return summary(r, planlessNow && !checking, checking);
    });
  }
}

/**
 * The stored answer, or the processing one of a search that has stored none yet, with the
 * request's `origin` after its `request_uid` (docs/api.md, V1 and V2 results).
 */
function bodyOf(uid: string, row: BodyRow): string {
  const body =
    row.body ??
    renderProcessing(uid, insurerEntries(row.codes ?? [], {}, row.attempts > 0, new Map(), null));
  return withOrigin(body, uid, row.origin ?? null);
}

function summary(
  r: EligibilityRequest,
  noPlanFound: boolean,
  stillChecking: boolean,
): EligibilitySummary {
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
    stillChecking,
  };
}
