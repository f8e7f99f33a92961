import { Injectable } from '@nestjs/common';
import { NotFoundError } from '@/platform/kernel/errors';
import { AuditService, type StatementAuditEvent } from '@/modules/audit';
import { EligibilityQueryService, EligibilityService } from '@/modules/eligibility';
import { inFhirTerms, searchOfBundle } from './bundle-intake';
import {
  coverageEligibilityResponse,
  coverageOf,
  parsePatientId,
  parseResponseId,
  patientOf,
  type RequestView,
  type V2View,
} from './fhir-resources';
import { SYSTEMS, type FhirResource } from './fhir.constants';

/** Search parameters of CoverageEligibilityResponse (docs/api.md, FHIR R4), as sent. */
export interface ResponseSearch {
  identifier?: string[];
  request?: string[];
  patient?: string[];
  created?: string[];
}

const QUEUED: V2View = {
  status: 'processing',
  error_code: null,
  error_detail: null,
  results: null,
};
/** Without a parameter naming a request, a search looks at the account's most recent ones. */
const RECENT = 50;

/**
 * The FHIR door over the eligibility module: a $submit is the JSON API's search (the same
 * service, rules and messages); reads map what the JSON API's V2 GET answers. Every read is
 * within the caller's account: another account's id is not found.
 */
@Injectable()
export class FhirService {
  constructor(
    private readonly eligibility: EligibilityService,
    private readonly queries: EligibilityQueryService,
    private readonly audit: AuditService,
  ) {}

  /**
   * Starts the search; its responses, all `queued` (one per insurer, in the Bundle's order).
   * Its audit event names the request by its uid, as the JSON API's create does.
   */
  async submit(event: StatementAuditEvent, body: unknown): Promise<FhirResource[]> {
    const accountId = event.actor.accountId;
    const { dto } = await searchOfBundle(body);
    const uid = await inFhirTerms(() => this.eligibility.create(accountId, dto));
    await this.audit.record({ ...event, resourceId: uid });
    const request = await this.requestByUid(accountId, uid);
    if (!request) throw new NotFoundError(`Eligibility request ${uid} not found.`);
    return request.insurerCodes.map((_, i) =>
      coverageEligibilityResponse(request, i + 1, QUEUED, []),
    );
  }

  /**
   * The reads of one request (a response, its Patient, its Coverage) are audited as the JSON
   * API's GET of the request: by its uid, in the statement that reads its answer.
   */
  async response(event: StatementAuditEvent, id: string): Promise<FhirResource> {
    const accountId = event.actor.accountId;
    const parsed = parseResponseId(id);
    const request = parsed ? await this.requestById(accountId, parsed.requestId) : null;
    if (!parsed || !request || parsed.n > request.insurerCodes.length)
      throw new NotFoundError(`CoverageEligibilityResponse ${id} not found.`);
    const v2 = await this.v2Recorded(event, request);
    return (await this.responsesOf(accountId, request, v2)).find((r) => r.id === id)!;
  }

  /**
   * FHIR search: each parameter given narrows the others and itself when repeated (AND); the
   * values of one, comma-separated, are alternatives (OR).
   */
  async search(accountId: string, params: ResponseSearch): Promise<FhirResource[]> {
    type Match = { uid?: string; id?: string };
    const groups: Match[][] = [
      ...(params.identifier ?? []).map((v) => v.split(',').map((x) => ({ uid: uidOfToken(x) }))),
      ...(params.request ?? []).map((v) =>
        v.split(',').map((x) => ({ id: idOfReference(x, 'CoverageEligibilityRequest') })),
      ),
      ...(params.patient ?? []).map((v) =>
        v.split(',').map((x) => ({ id: idOfReference(x, 'Patient') })),
      ),
    ];
    let requests: RequestView[];
    if (groups.length === 0) {
      const recent = await this.queries.listRecent(accountId, RECENT);
      requests = await this.many(recent.map((r) => this.requestByUid(accountId, r.uid)));
    } else {
      const candidates = await this.many(
        groups[0].map((m) =>
          m.uid !== undefined
            ? this.requestByUid(accountId, m.uid)
            : this.requestById(accountId, m.id!),
        ),
      );
      const matches = (r: RequestView, m: Match) =>
        m.uid !== undefined ? r.uid === m.uid : r.id === m.id;
      requests = candidates.filter((r) =>
        groups.every((group) => group.some((m) => matches(r, m))),
      );
    }
    const created = (params.created ?? []).map(dateFilter);
    const seen = new Set<string>();
    const out: FhirResource[] = [];
    for (const request of requests) {
      if (seen.has(request.id)) continue;
      seen.add(request.id);
      if (!created.every((f) => f(request.createdAt))) continue;
      out.push(...(await this.responsesOf(accountId, request)));
    }
    return out;
  }

  async patient(event: StatementAuditEvent, id: string): Promise<FhirResource> {
    const requestId = parsePatientId(id);
    const request = requestId ? await this.requestById(event.actor.accountId, requestId) : null;
    if (!request) throw new NotFoundError(`Patient ${id} not found.`);
    // docs/api.md, FHIR R4: after PHI_RETENTION_DAYS the request keeps no patient to answer.
    if (!request.query.firstName)
      throw new NotFoundError(`Patient ${id} not found: its data was erased.`);
    return patientOf(request, await this.v2Recorded(event, request));
  }

  async coverage(event: StatementAuditEvent, id: string): Promise<FhirResource> {
    const parsed = parseResponseId(id);
    const request = parsed ? await this.requestById(event.actor.accountId, parsed.requestId) : null;
    if (!parsed || !request || parsed.n > request.insurerCodes.length)
      throw new NotFoundError(`Coverage ${id} not found.`);
    await this.v2Recorded(event, request);
    return coverageOf(request, parsed.n);
  }

  private async responsesOf(
    accountId: string,
    request: RequestView,
    read?: V2View,
  ): Promise<FhirResource[]> {
    const v2 = read ?? (await this.v2(accountId, request));
    const failed = new Set(
      (v2.insurers ?? []).filter((e) => e.state === 'failed').map((e) => e.insurer_code as string),
    );
    const aaa = new Map<string, string[]>();
    if (failed.size > 0 || v2.status === 'error') {
      for (const exchange of await this.queries.exchanges(accountId, request.uid)) {
        const codes = aaa.get(exchange.insurerCode) ?? [];
        for (const c of exchange.aaaCodes ?? []) if (!codes.includes(c)) codes.push(c);
        aaa.set(exchange.insurerCode, codes);
      }
    }
    return request.insurerCodes.map((code, i) =>
      coverageEligibilityResponse(request, i + 1, v2, aaa.get(code) ?? []),
    );
  }

  private async v2(accountId: string, request: RequestView): Promise<V2View> {
    return JSON.parse(await this.queries.getBody(accountId, request.uid, 'v2')) as V2View;
  }

  private async v2Recorded(event: StatementAuditEvent, request: RequestView): Promise<V2View> {
    return JSON.parse(await this.queries.getBodyRecorded(event, request.uid, 'v2')) as V2View;
  }

  private async requestById(accountId: string, id: string): Promise<RequestView | null> {
    if (!/^[1-9]\d{0,17}$/.test(id)) return null;
    const found = (await this.queries.resultsByIds(accountId, [id])).get(id);
    return found ? this.requestByUid(accountId, found.uid) : null;
  }

  private async requestByUid(accountId: string, uid: string): Promise<RequestView | null> {
    const r = await this.queries.findRequest(accountId, uid);
    if (!r || r.kind !== 'search') return null;
    return {
      id: r.id,
      uid: r.uid,
      createdAt: r.createdAt,
      insurerCodes: r.insurerCodes,
      query: r.query,
    };
  }

  private async many(lookups: Promise<RequestView | null>[]): Promise<RequestView[]> {
    return (await Promise.all(lookups)).filter((r): r is RequestView => r !== null);
  }
}

/** `urn:vision-eligibility:request-uid|<uid>` (or a bare uid) → the uid. */
function uidOfToken(value: string): string {
  const bar = value.indexOf('|');
  if (bar === -1) return value;
  const system = value.slice(0, bar);
  // Another system's identifier names none of ours.
  return system === '' || system === SYSTEMS.requestUid ? value.slice(bar + 1) : '\u0000none';
}

function idOfReference(value: string, type: string): string {
  const parts = value.split('/');
  if (parts.length === 1) return value;
  return parts[parts.length - 2] === type ? parts[parts.length - 1] : '';
}

/** A FHIR date search (`ge2026-01-01`, `2026-12-06`): a test of a created instant. */
function dateFilter(value: string): (at: Date) => boolean {
  const m =
    /^(eq|ne|gt|lt|ge|le|sa|eb)?(\d{4}(?:-\d{2}(?:-\d{2})?)?)(T[0-9:.]+(?:Z|[+-]\d{2}:\d{2})?)?$/.exec(
      value,
    );
  if (!m) return () => false;
  const prefix = m[1] ?? 'eq';
  const [y, mo, d] = m[2].split('-').map(Number);
  let start: number;
  let end: number;
  if (m[3]) {
    start = Date.parse(`${m[2]}${m[3]}`);
    end = start + 1;
  } else {
    start = Date.UTC(y, (mo ?? 1) - 1, d ?? 1);
    end = d ? Date.UTC(y, mo - 1, d + 1) : mo ? Date.UTC(y, mo, 1) : Date.UTC(y + 1, 0, 1);
  }
  if (Number.isNaN(start)) return () => false;
  return (at) => {
    const t = at.getTime();
    switch (prefix) {
      case 'ne':
        return t < start || t >= end;
      case 'gt':
      case 'sa':
        return t >= end;
      case 'lt':
      case 'eb':
        return t < start;
      case 'ge':
        return t >= start;
      case 'le':
        return t < end;
      default:
        return t >= start && t < end;
    }
  };
}
