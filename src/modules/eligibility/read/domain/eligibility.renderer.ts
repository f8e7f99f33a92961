import { serializePlanJson } from '@/lib/benefits';
import type {
  EligibilityErrorCode,
  EligibilityStatus,
} from '../../store/eligibility-request.entity';
import type { EligibilityResult, FoundPerson } from '../../store/eligibility-result.entity';
import { errorDetailOf } from '../../domain/error-details';
import { personIdentity } from '../../domain/person-identity';
import type { InsurerEntry } from '../../domain/insurer-entries';

export type ResultVersion = 'v1' | 'v2';

export interface RenderInput {
  uid: string;
  status: EligibilityStatus;
  errorCode: EligibilityErrorCode | null;
  results: { result: EligibilityResult; persons: FoundPerson[] }[] | null;
  /** The words of `error_detail` when they are not the error code's own (a verifier's reason). */
  errorDetail?: string | null;
  /** docs/api.md, Universal Search insurer by insurer: one entry per insurer asked, in order. */
  insurers: InsurerEntry[];
  /**
   * The request's `origin` (docs/api.md, V1 and V2 results), written after `request_uid`;
   * undefined: left out (a read adds it, `withOrigin`).
   */
  origin?: 'appointment' | null;
}

/** docs/api.md, Insurers and assisted verification: the task a person is answering, on a processing request's answers. */
export interface VerificationRef {
  task_id: string;
  state: string;
  due_by: string;
}

/** The key every answer ends with (its `insurers`); the text before it ends the rest. */
export const INSURERS_KEY = ',"insurers":';

/** An answer's text with its `insurers` (last, always) replaced. */
export function withInsurers(body: string, insurers: InsurerEntry[]): string {
  const at = body.lastIndexOf(INSURERS_KEY);
  const head = at < 0 ? body.slice(0, -1) : body.slice(0, at);
  return `${head}${INSURERS_KEY}${JSON.stringify(insurers)}}`;
}

/**
 * An answer's `insurers`, read back from its text (null when it has none: an answer stored
 * before they existed). No value of the patient's can hold the key's text: strings are escaped.
 */
export function insurersOf(body: string): InsurerEntry[] | null {
  const at = body.lastIndexOf(INSURERS_KEY);
  return at < 0 ? null : (JSON.parse(body.slice(at + INSURERS_KEY.length, -1)) as InsurerEntry[]);
}

/**
 * A complete answer's text with `entries` (rendered result entries, JSON, comma-separated)
 * appended to its `results`, and its `insurers` replaced.
 */
export function withMoreResults(body: string, entries: string, insurers: InsurerEntry[]): string {
  if (entries === '') return withInsurers(body, insurers);
  const at = body.lastIndexOf(INSURERS_KEY);
  const head = at < 0 ? body.slice(0, -1) : body.slice(0, at);
  // The head ends with the results array: `…"results":[…]`.
  const open = head.endsWith('[]') ? head.slice(0, -1) : `${head.slice(0, -1)},`;
  return `${open}${entries}]${INSURERS_KEY}${JSON.stringify(insurers)}}`;
}

/**
 * An answer's text with the request's `origin` after its `request_uid` (the first key of every
 * answer), unless it has one: answers stored before it was written (and the processing and
 * purged answers) are read with it, and need no rewrite.
 */
export function withOrigin(body: string, uid: string, origin: 'appointment' | null): string {
  const head = `{"request_uid":${JSON.stringify(uid)}`;
  if (!body.startsWith(head) || body.startsWith(`${head},"origin":`)) return body;
  return `${head},"origin":${JSON.stringify(origin)}${body.slice(head.length)}`;
}

/**
 * The eligibility result body (docs/api.md, V1 and V2 results), in the documented key order. V1
 * persons carry no `plan`; V2 persons always do. `plan_token` and `plan_token_expired_at` are
 * present only for persons whose plan is in-network only (`insurer_state` `inn`), in both versions.
 */
export function renderResult(input: RenderInput, version: ResultVersion): string {
  const head = JSON.stringify({
    request_uid: input.uid,
    ...(input.origin === undefined ? {} : { origin: input.origin }),
    status: input.status,
    error_code: input.status === 'error' ? input.errorCode : null,
    error_detail:
      input.status === 'error' && input.errorDetail
        ? input.errorDetail
        : errorDetailOf(input.status, input.errorCode),
  });
  // Appended only, copied once when read whole (see serializePlanJson): each plan's text is
  // serializePlanJson's, without a tree of every person's plan.
  const results =
    input.status === 'complete' && input.results
      ? `[${renderEntries(input.results, version)}]`
      : 'null';
  return withLast(withLast(head, 'results', results), 'insurers', JSON.stringify(input.insurers));
}

/** Result entries as the answer's `results` holds them, comma-separated (no brackets). */
export function renderEntries(
  list: NonNullable<RenderInput['results']>,
  version: ResultVersion,
): string {
  let results = '';
  list.forEach(({ result, persons }, i) => {
    let list = '';
    persons.forEach((p, j) => {
      const json = JSON.stringify(personFields(p));
      const person = version === 'v2' ? withLast(json, 'plan', serializePlanJson(p.plan)) : json;
      list = j === 0 ? person : `${list},${person}`;
    });
    const entry = withLast(JSON.stringify(entryFields(result)), 'persons', `[${list}]`);
    results = i === 0 ? entry : `${results},${entry}`;
  });
  return results;
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

/**
 * The body while the search runs: `verification` (the first open task by due time, docs/api.md,
 * Insurers and assisted verification) and `verifications` (every open task, in that order), before
 * `insurers`, which ends every answer. Both are absent while no person is checking.
 */
export function renderProcessing(
  uid: string,
  insurers: InsurerEntry[],
  verifications: readonly VerificationRef[] = [],
): string {
  const head = JSON.stringify({
    request_uid: uid,
    status: 'processing',
    error_code: null,
    error_detail: null,
    results: null,
  });
  const body =
    verifications.length > 0
      ? withLast(
          withLast(head, 'verification', JSON.stringify(verifications[0])),
          'verifications',
          JSON.stringify(verifications),
        )
      : head;
  return withLast(body, 'insurers', JSON.stringify(insurers));
}
