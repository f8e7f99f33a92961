import { randomUUID } from 'node:crypto';
import {
  DEFAULT_DETAIL_SERVICE_TYPES,
  DEFAULT_SERVICE_TYPES,
} from '@/platform/config/clearinghouse';
import { formatInstant, isoDate } from '@/platform/kernel/time';
import {
  EligibilityInquiry,
  type Interchange271,
  read271,
  write270,
  X12ParseError,
  X12WriteError,
} from '@/lib/x12';
import { ClearinghouseConnection } from './clearinghouse-connection';
import {
  CallFailure,
  callClearinghouse,
  type HttpAnswer,
  parseJson,
  statusFailure,
  x12Field,
} from './clearinghouse-http';
import type {
  EligibilityCheck,
  EligibilityCheckResult,
  EligibilityOutcome,
  InsurerExchange,
} from './clearinghouse.types';
import {
  benefitValidationNotes,
  collectValidations,
  map271,
  subscriberLoops,
} from './x271-result.mapper';

/**
 * The clearinghouse connection of docs/api.md, Real insurers: one call writes a 270, POSTs it as raw X12
 * (`{"x12": ...}`), reads the 271, checks it echoes the 270's trace, and maps it. Each call is one
 * attempt; the caller retries `unavailable` outcomes with its backoff and stores the exchange.
 */
export class ClearinghouseClient extends ClearinghouseConnection {
  /** Whether real insurers can be asked at all (an endpoint and credentials are set). */
  isConfigured(): boolean {
    return this.config.eligibilityUrl !== null && this.authorization !== null;
  }

  serviceTypesFor(insurerCode: string): readonly string[] {
    return this.config.serviceTypes[insurerCode] ?? DEFAULT_SERVICE_TYPES;
  }

  /** The service types of a details request: the deepest the payer honours. */
  detailServiceTypesFor(insurerCode: string): readonly string[] {
    return this.config.detailServiceTypes[insurerCode] ?? DEFAULT_DETAIL_SERVICE_TYPES;
  }

  /** The insurers asked over X12: every code with a payer id, once a clearinghouse is set up. */
  insurerCodes(): string[] {
    return this.isConfigured() ? Object.keys(this.config.payerIds) : [];
  }

  async checkEligibility(check: EligibilityCheck): Promise<EligibilityCheckResult> {
    const started = this.now();
    const traceNumber = randomUUID().replaceAll('-', '').toUpperCase();
    const exchange: InsurerExchange = {
      insurerCode: check.insurerCode,
      startedAt: formatInstant(started, 'utc'),
      durationMs: 0,
      url: withoutCredentials(this.config.eligibilityUrl),
      request: '',
      response: null,
      httpStatus: null,
      aaaCodes: [],
      outcome: 'unexpected',
      error: null,
      traceNumber,
      notes: [],
    };
    const finish = (outcome: EligibilityOutcome): EligibilityCheckResult => {
      exchange.outcome = outcome.kind;
      exchange.error = outcome.kind === 'found' ? null : outcome.reason;
      exchange.durationMs = Math.max(0, this.now() - started);
      return { outcome, exchange };
    };

    const url = this.config.eligibilityUrl;
    if (!url || !this.authorization) {
      return finish({ kind: 'rejected', reason: 'no clearinghouse is configured' });
    }
    const inquiryDate = isoDate(new Date(started))!;
    try {
      exchange.request = write270(
        this.inquiry(check, traceNumber, inquiryDate),
        this.envelope({ createdAt: new Date(started) }),
      );
    } catch (e) {
      if (e instanceof X12WriteError)
        return finish({ kind: 'rejected', reason: `the 270 cannot be written: ${e.message}` });
      throw e;
    }

    const remaining = check.deadline - this.now();
    if (remaining <= 0) {
      return finish({
        kind: 'unavailable',
        reason: 'the deadline passed before the call',
        retryAfterMs: null,
      });
    }
    const deadline = AbortSignal.timeout(remaining);
    const signal = check.signal ? AbortSignal.any([check.signal, deadline]) : deadline;
    try {
      const request = { method: 'POST', url, x12: exchange.request };
      const auth = this.authorization;
      const answer = await callClearinghouse(this.fetchImpl, auth, request, signal, this.now);
      exchange.httpStatus = answer.status;
      exchange.response = answer.body;
      const x12 = this.x12Of(answer);
      exchange.response = x12;
      return finish(this.interpret(x12, exchange, { inquiryDate, queryDob: check.patient.dob }));
    } catch (e) {
      if (!(e instanceof CallFailure)) throw e;
      return finish(
        e.kind === 'unavailable'
          ? { kind: 'unavailable', reason: e.message, retryAfterMs: e.retryAfterMs }
          : { kind: e.kind, reason: e.message },
      );
    }
  }

  private inquiry(check: EligibilityCheck, traceNumber: string, date: string): EligibilityInquiry {
    const taxId = check.provider.taxId;
    const originator =
      taxId && /^\d{9}$/.test(taxId)
        ? `1${taxId}`
        : `9${this.config.submitterId
            .replace(/[^A-Za-z0-9]/g, '')
            .toUpperCase()
            .padEnd(9, '0')
            .slice(0, 9)}`;
    return {
      payer: { id: check.payerId, name: check.payerName },
      provider: check.provider,
      ...(check.subscriber
        ? {
            subscriber: {
              ...check.subscriber,
              // A family plan's dependents share the subscriber's id: the patient's stands in.
              memberId: check.subscriber.memberId ?? check.patient.memberId,
            },
            dependent: check.patient,
          }
        : { subscriber: check.patient }),
      serviceTypes: check.serviceTypes ?? this.serviceTypesFor(check.insurerCode),
      traceNumber,
      traceOriginator: originator,
      date,
    };
  }

  /** The 271 text of an HTTP answer: 200 carries it, a 400 may too (AAA 79: payer not configured). */
  private x12Of(answer: HttpAnswer): string {
    const failure = statusFailure(answer);
    if (failure) throw failure;
    const { status, body } = answer;
    const x12 = x12Field(parseJson(body));
    if (x12 !== null && (status === 200 || status === 400)) return x12;
    throw new CallFailure(
      'unexpected',
      status === 200
        ? 'the clearinghouse answered HTTP 200 without an x12 field'
        : `the clearinghouse answered HTTP ${status}`,
      status,
    );
  }

  private interpret(
    x12: string,
    exchange: InsurerExchange,
    options: { inquiryDate: string; queryDob: string },
  ): EligibilityOutcome {
    let answer: Interchange271;
    try {
      answer = read271(x12);
    } catch (e) {
      if (e instanceof X12ParseError)
        return { kind: 'unexpected', reason: `the 271 does not parse: ${e.message}` };
      throw e;
    }
    exchange.aaaCodes = [...new Set(collectValidations(answer).map((v) => v.reason))];
    exchange.notes.push(...answer.slips, ...answer.skipped, ...benefitValidationNotes(answer));
    const foreign = traceMismatch(answer, exchange.traceNumber);
    if (foreign) return { kind: 'unexpected', reason: foreign };
    const mapped = map271(answer, options);
    if (mapped.kind === 'found') return mapped;
    if (mapped.kind === 'retryable')
      return { kind: 'unavailable', reason: mapped.reason, retryAfterMs: null };
    return { kind: mapped.kind, reason: mapped.reason };
  }
}

/**
 * Each subscriber loop must echo the 270's TRN (TRN01 `2`), in 2000C or in a 2000D, whichever
 * holds the patient (docs/api.md, Real insurers); a 271 for another inquiry is refused.
 */
function traceMismatch(answer: Interchange271, trace: string): string | null {
  for (const { subscriber } of subscriberLoops(answer)) {
    const echoed = [subscriber, ...subscriber.dependents]
      .flatMap((loop) => loop.traces)
      .filter((t) => t.type === '2')
      .map((t) => t.trace);
    if (!echoed.includes(trace))
      return echoed.length === 0
        ? 'the 271 does not echo the trace of the 270 (no TRN*2 in the subscriber or dependent loop)'
        : `the 271 answers another inquiry (trace ${echoed.join(', ')}, expected ${trace})`;
  }
  return null;
}

/** The endpoint as the exchange log shows it: never a user or password inside the URL. */
function withoutCredentials(url: string | null): string {
  if (!url) return '';
  const parsed = new URL(url);
  parsed.username = '';
  parsed.password = '';
  return parsed.toString();
}
