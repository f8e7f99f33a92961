import { Injectable } from '@nestjs/common';
import { GroupCommit } from '@/platform/kernel/group-commit';
import type { WireExchange } from '@/modules/insurers';
import {
  InsurerExchangesRepository,
  type NewInsurerExchange,
} from '../store/insurer-exchanges.repository';

export type ExchangeOutcome =
  'found' | 'not_found' | 'rejected' | 'unavailable' | 'unexpected' | 'deferred';

/** One call to an insurer, as the exchange log keeps it (docs/api.md, Real insurers). */
export interface InsurerExchangeEntry extends WireExchange {
  insurerCode: string;
  /** The search attempt the call belonged to (1-based). */
  attempt: number;
  startedAt: Date;
  durationMs: number;
  outcome: ExchangeOutcome;
  /**
   * Why the call found no plans, in words; when it did, what the answer carried that was read
   * past (docs/api.md, Real insurers envelope slips, benefit-level AAA), or null.
   */
  error: string | null;
}

/**
 * The insurer exchange log: every call to an insurer (the sandbox included), per eligibility
 * request. It holds patient data (the 270 and 271): staff read it on the check's page; it is
 * never logged and never sent in webhooks.
 */
@Injectable()
export class InsurerExchangeLog {
  /**
   * Group-committed: the calls that end while a write is in flight are written together by the
   * next one (a row the database refuses fails only its own call's record).
   */
  private readonly writes = new GroupCommit<NewInsurerExchange>(
    (rows) => this.rows.insertMany(rows),
    {
      maxBatch: 200,
      maxInFlight: 4,
    },
  );

  constructor(private readonly rows: InsurerExchangesRepository) {}

  record(accountId: string, requestId: string, entry: InsurerExchangeEntry): Promise<void> {
    return this.writes.add({
      account_id: accountId,
      request_id: requestId,
      insurer_code: entry.insurerCode,
      attempt: entry.attempt,
      started_at: entry.startedAt,
      duration_ms: Math.max(0, Math.round(entry.durationMs)),
      url: entry.url,
      request: entry.request,
      response: entry.response,
      http_status: entry.httpStatus,
      aaa_codes: entry.aaaCodes,
      outcome: entry.outcome,
      error: entry.error,
      trace_number: entry.traceNumber,
    });
  }

  /** The calls made for one request of the account, oldest first. */
  async forRequest(accountId: string, requestId: string): Promise<InsurerExchangeEntry[]> {
    const rows = await this.rows.forRequest(accountId, requestId);
    return rows.map((r) => ({
      insurerCode: r.insurer_code,
      attempt: r.attempt,
      startedAt: r.started_at,
      durationMs: r.duration_ms,
      url: r.url,
      request: r.request,
      response: r.response,
      httpStatus: r.http_status,
      aaaCodes: r.aaa_codes,
      outcome: r.outcome as ExchangeOutcome,
      error: r.error,
      traceNumber: r.trace_number,
    }));
  }
}
