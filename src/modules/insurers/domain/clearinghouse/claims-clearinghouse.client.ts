import type { ClaimsConfig } from '@/platform/config/claims';
import type { ClearinghouseConfig } from '@/platform/config/clearinghouse';
import {
  ClearinghouseConnection,
  type ClearinghouseDependencies,
} from './clearinghouse-connection';
import {
  CallFailure,
  callClearinghouse,
  HttpAnswer,
  parseJson,
  statusFailure,
  x12Field,
} from './clearinghouse-http';

/**
 * How a claim submission ended (docs/api.md, Claim lifecycle): the clearinghouse took the 837P (with its id), it
 * refused the file (a final `submission_failed`), or it could not take it now (retried).
 */
type SubmissionOutcome =
  | {
      kind: 'accepted';
      clearinghouseId: string;
      /** docs/api.md, Claim reports and remittances: the answer's own `x12` (a 277CA or 999), processed like a report. */
      report: string | null;
    }
  | { kind: 'refused'; reason: string }
  | { kind: 'unavailable'; reason: string; retryAfterMs: number | null };

/** How a claim status call ended: a 277 to read, or no answer (tried again at the next check). */
type StatusCallOutcome = { kind: 'answered'; x12: string } | { kind: 'failed'; reason: string };

/**
 * The clearinghouse's raw-X12 professional claims and claim status endpoints (the same account
 * and credentials as eligibility, docs/api.md, Real insurers): `POST {"x12": ...}` → JSON.
 */
export class ClaimsClearinghouseClient extends ClearinghouseConnection {
  constructor(
    config: ClearinghouseConfig,
    private readonly claims: ClaimsConfig,
    dependencies: ClearinghouseDependencies = {},
  ) {
    super(config, dependencies);
  }

  /** Whether claims to `insurerCode` can go out as 837P (an endpoint, credentials, a payer id). */
  submitsTo(insurerCode: string): boolean {
    return (
      this.claims.claimsUrl !== null &&
      this.authorization !== null &&
      !!this.payerIdFor(insurerCode)
    );
  }

  canCheckStatus(): boolean {
    return this.claims.claimStatusUrl !== null && this.authorization !== null;
  }

  /** docs/api.md, Claim reports and remittances: 276/277 only for insurers configured to answer it (INSURER_CLAIM_STATUS). */
  checksStatusOf(insurerCode: string): boolean {
    return this.canCheckStatus() && this.claims.statusInsurers.includes(insurerCode);
  }

  /** Whether reports are polled (CLEARINGHOUSE_REPORTS_URL and credentials). */
  pollsReports(): boolean {
    return this.claims.reportsUrl !== null && this.authorization !== null;
  }

  /**
   * One page of new reports (docs/api.md, Claim reports and remittances: `GET <url>` → `{"items": [{"id", "type",
   * "created_at"}], "next_page_token"}`). Throws a CallFailure when there is no usable answer.
   */
  async listReports(
    pageToken: string | null,
    timeoutMs: number,
  ): Promise<{ items: { id: string; type: string }[]; nextPageToken: string | null }> {
    const query = pageToken ? `?page_token=${encodeURIComponent(pageToken)}` : '';
    const body = (await this.call('GET', `${this.claims.reportsUrl}${query}`, timeoutMs)) as {
      items?: unknown;
      next_page_token?: unknown;
    } | null;
    if (!body || !Array.isArray(body.items))
      throw new CallFailure('unavailable', 'the report list has no items array');
    const items = (body.items as { id?: unknown; type?: unknown }[])
      .filter((i) => i && typeof i.id === 'string' && i.id !== '')
      .map((i) => ({ id: i.id as string, type: typeof i.type === 'string' ? i.type : '' }));
    const next = body.next_page_token;
    return { items, nextPageToken: typeof next === 'string' && next !== '' ? next : null };
  }

  /** `GET <url>/{id}` → the report's interchange. */
  async fetchReport(id: string, timeoutMs: number): Promise<string> {
    const x12 = x12Field(await this.call('GET', this.reportUrl(id), timeoutMs));
    if (x12 === null) throw new CallFailure('unavailable', `report ${id} came without x12`);
    return x12;
  }

  /** `DELETE <url>/{id}`, once the report is stored. */
  async deleteReport(id: string, timeoutMs: number): Promise<void> {
    await this.call('DELETE', this.reportUrl(id), timeoutMs);
  }

  private reportUrl(id: string): string {
    return `${this.claims.reportsUrl}/${encodeURIComponent(id)}`;
  }

  private async call(method: string, url: string, timeoutMs: number): Promise<unknown> {
    const signal = AbortSignal.timeout(timeoutMs);
    const answer = await callClearinghouse(
      this.fetchImpl,
      this.authorization!,
      { method, url },
      signal,
      this.now,
    ).catch((e: unknown) => {
      // The token's deadline is the call's: said as the clearinghouse's.
      throw signal.aborted ? CallFailure.fromAbort(signal.reason, 'the clearinghouse') : e;
    });
    if (answer.status < 200 || answer.status > 299)
      throw new CallFailure('unavailable', `the clearinghouse answered HTTP ${answer.status}`);
    return answer.body === '' ? null : parseJson(answer.body);
  }

  /**
   * Sends an 837P. `idempotencyKey` goes out as the `Idempotency-Key` header: the same on every
   * retry of one claim, so a clearinghouse that took the claim before its answer was lost does
   * not take it twice (docs/api.md, Claims).
   */
  async submit(x12: string, timeoutMs: number, idempotencyKey: string): Promise<SubmissionOutcome> {
    if (!this.claims.claimsUrl || !this.authorization)
      return { kind: 'refused', reason: 'no claims endpoint is configured' };
    let answer: HttpAnswer;
    try {
      answer = await this.post(this.claims.claimsUrl, x12, timeoutMs, {
        'idempotency-key': idempotencyKey,
      });
      const failure = statusFailure(answer);
      if (failure) throw failure;
    } catch (e) {
      if (!(e instanceof CallFailure)) throw e;
      return e.kind === 'unavailable'
        ? { kind: 'unavailable', reason: e.message, retryAfterMs: e.retryAfterMs }
        : { kind: 'refused', reason: e.message };
    }
    const { status } = answer;
    const body = parseJson(answer.body);
    const errors = errorTexts(body);
    if (status < 200 || status > 299 || errors.length > 0 || statusOf(body) === 'ERROR') {
      const reason = errors.length > 0 ? errors.join('; ') : `HTTP ${status}`;
      return { kind: 'refused', reason: `the clearinghouse refused the claim: ${reason}` };
    }
    const id = clearinghouseIdOf(body);
    if (!id)
      return {
        kind: 'unavailable',
        reason: 'the clearinghouse answered without a claim id',
        retryAfterMs: null,
      };
    return { kind: 'accepted', clearinghouseId: id.slice(0, 100), report: x12Field(body) };
  }

  async checkStatus(x12: string, timeoutMs: number): Promise<StatusCallOutcome> {
    if (!this.claims.claimStatusUrl || !this.authorization)
      return { kind: 'failed', reason: 'no claim status endpoint is configured' };
    try {
      const answer = await this.post(this.claims.claimStatusUrl, x12, timeoutMs);
      const x12Answer = x12Field(parseJson(answer.body));
      if (answer.status === 200 && x12Answer !== null) return { kind: 'answered', x12: x12Answer };
      return {
        kind: 'failed',
        reason: `the clearinghouse answered HTTP ${answer.status} without a 277`,
      };
    } catch (e) {
      if (!(e instanceof CallFailure)) throw e;
      return { kind: 'failed', reason: e.message };
    }
  }

  private post(
    url: string,
    x12: string,
    timeoutMs: number,
    headers: Record<string, string> = {},
  ): Promise<HttpAnswer> {
    const request = { method: 'POST', url, x12, headers };
    const signal = AbortSignal.timeout(timeoutMs);
    return callClearinghouse(this.fetchImpl, this.authorization!, request, signal, this.now);
  }
}

function statusOf(body: unknown): string | null {
  const status = (body as { status?: unknown } | null)?.status;
  return typeof status === 'string' ? status.toUpperCase() : null;
}

/** `errors: [{description|message|code}]`, or a top-level `message`/`detail` on an error answer. */
function errorTexts(body: unknown): string[] {
  const b = body as { errors?: unknown; message?: unknown; detail?: unknown } | null;
  const out: string[] = [];
  if (Array.isArray(b?.errors)) {
    for (const e of b.errors as unknown[]) {
      if (typeof e === 'string') out.push(e);
      else if (e && typeof e === 'object') {
        const o = e as Record<string, unknown>;
        const text = [o.description, o.message, o.code].find((v) => typeof v === 'string');
        if (typeof text === 'string') out.push(text);
      }
    }
  }
  if (out.length === 0 && statusOf(body) === 'ERROR') {
    const text = [b?.message, b?.detail].find((v) => typeof v === 'string');
    if (typeof text === 'string') out.push(text);
  }
  return out.map((t) => t.slice(0, 500));
}

/** Optum's and Stedi's claim answers: `claimReference.correlationId` (else other ids they give). */
function clearinghouseIdOf(body: unknown): string | null {
  const b = body as Record<string, unknown> | null;
  const ref = (b?.claimReference ?? null) as Record<string, unknown> | null;
  for (const value of [ref?.correlationId, ref?.rhclaimNumber, b?.id, b?.controlNumber]) {
    if (typeof value === 'string' && value.trim() !== '') return value.trim();
  }
  return null;
}
