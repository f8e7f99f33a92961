import type { InsurerExchangeEntry } from '../run/domain/insurer-exchange-log';
import { formatInstant } from '@/platform/kernel/time';
import { describeAaa } from '@/modules/insurers';
import { prettyX12 } from '@/lib/x12';

/** One call to an insurer as the check's page shows it. */
export interface ExchangeView {
  insurerCode: string;
  attempt: number;
  startedAt: string;
  durationMs: number;
  outcome: string;
  error: string | null;
  httpStatus: number | null;
  url: string | null;
  traceNumber: string | null;
  /** AAA reasons in words: "75 (subscriber/insured not found)". */
  aaa: string[];
  /** The 270 (or the sandbox's question), one segment a line. */
  request: string | null;
  response: string | null;
}

export function exchangeViews(entries: InsurerExchangeEntry[]): ExchangeView[] {
  return entries.map((e) => ({
    insurerCode: e.insurerCode,
    attempt: e.attempt,
    startedAt: formatInstant(e.startedAt, 'utc'),
    durationMs: e.durationMs,
    outcome: e.outcome,
    error: e.error,
    httpStatus: e.httpStatus,
    url: e.url,
    traceNumber: e.traceNumber,
    aaa: e.aaaCodes.map(describeAaa),
    request: readable(e.request),
    response: readable(e.response),
  }));
}

/** X12 one segment a line; anything else (JSON, an error page) as it came. */
function readable(text: string | null): string | null {
  if (text === null) return null;
  return text.trimStart().startsWith('ISA') ? prettyX12(text) : text;
}
