import { serializePlanJson } from '@/lib/benefits';
import type { EligibilityErrorCode, EligibilityStatus } from '../store/eligibility-request.entity';
import type { EligibilityResult, FoundPerson } from '../store/eligibility-result.entity';
import { errorDetailOf } from './error-details';
import { personIdentity } from './person-identity';

export type ResultVersion = 'v1' | 'v2';

export interface RenderInput {
  uid: string;
  status: EligibilityStatus;
  errorCode: EligibilityErrorCode | null;
  results: { result: EligibilityResult; persons: FoundPerson[] }[] | null;
  /** The words of `error_detail` when they are not the error code's own (a verifier's reason). */
  errorDetail?: string | null;
}

/** docs/api.md, Insurers and assisted verification: the task a person is answering, on a processing request's answers. */
export interface VerificationRef {
  task_id: string;
  state: string;
  due_by: string;
}

/**
 * The eligibility result body (SERVICE-SPEC "Eligibility result"), in the spec's key order. V1
 * persons carry no `plan`; V2 persons always do. `plan_token` and `plan_token_expired_at` are
 * present only for persons whose plan is in-network only (`insurer_state` `inn`), in both versions.
 */
export function renderResult(input: RenderInput, version: ResultVersion): string {
  const head = JSON.stringify({
    request_uid: input.uid,
    status: input.status,
    error_code: input.status === 'error' ? input.errorCode : null,
    error_detail:
      input.status === 'error' && input.errorDetail
        ? input.errorDetail
        : errorDetailOf(input.status, input.errorCode),
  });
  if (input.status !== 'complete' || !input.results) return withLast(head, 'results', 'null');
  // Appended only, copied once when read whole (see serializePlanJson): each plan's text is
  // serializePlanJson's, without a tree of every person's plan.
  let results = '';
  input.results.forEach(({ result, persons }, i) => {
    let list = '';
    persons.forEach((p, j) => {
      const json = JSON.stringify(personFields(p));
      const person = version === 'v2' ? withLast(json, 'plan', serializePlanJson(p.plan)) : json;
      list = j === 0 ? person : `${list},${person}`;
    });
    const entry = withLast(JSON.stringify(entryFields(result)), 'persons', `[${list}]`);
    results = i === 0 ? entry : `${results},${entry}`;
  });
  return withLast(head, 'results', `[${results}]`);
}

/**
 * An object's JSON with one more property at its end, whose value is already JSON: what
 * JSON.stringify writes for the object with that property last. The bodies are put together so.
 */
function withLast(json: string, key: string, valueJson: string): string {
  return json === '{}' ? `{"${key}":${valueJson}}` : `${json.slice(0, -1)},"${key}":${valueJson}}`;
}

/** A result entry's fields before its `persons`, in the spec's order. */
export function entryFields(result: EligibilityResult): Record<string, unknown> {
  return {
    id: Number(result.id),
    status: result.status,
    plan_name: result.planName,
    plan_group: result.planGroup,
    plan_group_id: result.planGroupId,
    plan_begin_date: result.planBeginDate,
    plan_end_date: result.planEndDate,
    plan_refresh_date: result.planRefreshDate,
    insurer_code: result.insurerCode,
    plan_is_active: result.planIsActive,
  };
}

/** A person's fields before the V2 `plan`, in the spec's order. */
export function personFields(p: FoundPerson): Record<string, unknown> {
  const out: Record<string, unknown> = {
    ...personIdentity(p),
    address: p.address && {
      line1: p.address.line1,
      line2: p.address.line2 ?? null,
      city: p.address.city,
      zipcode: p.address.zipcode,
      state: p.address.state,
    },
    email: p.email,
    phone: p.phone,
    id: Number(p.id),
    full_name: `${p.firstName} ${p.lastName}`,
    is_active: p.isActive,
  };
  if (p.insurerState === 'inn') {
    out.plan_token = p.planToken;
    out.plan_token_expired_at = p.planTokenExpiredAt;
  }
  return out;
}

/** The body while the search runs (nothing stored yet). */
export function renderProcessing(uid: string, verification: VerificationRef | null = null): string {
  const body = renderResult({ uid, status: 'processing', errorCode: null, results: null }, 'v2');
  return verification ? withLast(body, 'verification', JSON.stringify(verification)) : body;
}
