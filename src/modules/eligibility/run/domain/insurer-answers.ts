import type { InsurerPlanResult, OutcomeWithoutPlans, WireExchange } from '@/modules/insurers';
import type { EligibilityRequest } from '../../store/eligibility-request.entity';
import type { ExchangeOutcome } from './insurer-exchange-log';
import type { InsurerOutcome } from '../../domain/search-outcome';

/** What a connector answered one call (InsurerCalls): plans, or why there are none. */
export type Answer = { kind: 'found'; plans: InsurerPlanResult[] } | OutcomeWithoutPlans;

/** The call's outcome as the exchange log (and the call's span) records it. */
export function exchangeOutcome(answer: Answer): ExchangeOutcome {
  return answer.kind === 'found' && answer.plans.length === 0 ? 'not_found' : answer.kind;
}

export function toOutcome(code: string, answer: Answer): InsurerOutcome {
  switch (answer.kind) {
    case 'found':
      return { code, kind: 'found', plans: answer.plans };
    case 'not_found':
      return { code, kind: 'found', plans: [] };
    case 'deferred':
      return { code, kind: 'deferred', retryAfterMs: answer.retryAfterMs };
    case 'rejected':
      return { code, kind: 'rejected', error: answer.reason };
    case 'unavailable':
      return {
        code,
        kind: 'unavailable',
        error: answer.reason,
        retryable: true,
        retryAfterMs: answer.retryAfterMs,
      };
    case 'unexpected':
      return { code, kind: 'failed', error: answer.reason };
  }
}

/**
 * The log entry of a connector with no wire protocol of its own (the sandbox): the question as
 * asked, and a summary of the answer.
 */
export function withoutWire(
  request: EligibilityRequest,
  code: string,
  answer: Answer,
): WireExchange {
  const q = request.query;
  const summary =
    answer.kind === 'found'
      ? {
          kind: 'found',
          plans: answer.plans.map((p) => ({
            plan_name: p.planName,
            status: p.status,
            persons: p.persons.map((x) => ({
              name: `${x.firstName} ${x.lastName}`,
              type: x.type,
              member_id: x.memberId,
            })),
          })),
        }
      : answer;
  return {
    url: null,
    request: JSON.stringify(
      {
        insurer_code: code,
        kind: request.kind,
        patient: {
          first_name: q.firstName,
          last_name: q.lastName,
          dob: q.dob,
          zipcode: q.zipcode,
          member_id: q.memberId,
        },
      },
      null,
      2,
    ),
    response: JSON.stringify(summary, null, 2),
    httpStatus: null,
    aaaCodes: [],
    traceNumber: null,
  };
}
