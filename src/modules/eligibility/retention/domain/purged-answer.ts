import { errorDetailOf } from '../../domain/error-details';
import type { InsurerEntry } from '../../domain/insurer-entries';

/**
 * The answer of a purged request (SECURITY.md, Retention): its uid, status and error code stay,
 * its results are gone, and `purged` says why. Key order as every result body; `insurers`
 * (docs/api.md, Universal Search insurer by insurer: no patient data in them) stay, last, without
 * the ids of the results that are gone. An answer stored before they existed has none.
 */
export function purgedBody(
  uid: string,
  status: string,
  errorCode: string | null,
  insurers: InsurerEntry[] | null = null,
): string {
  return JSON.stringify({
    request_uid: uid,
    status,
    error_code: status === 'error' ? errorCode : null,
    error_detail: errorDetailOf(status, errorCode),
    results: [],
    purged: true,
    ...(insurers ? { insurers: insurers.map((e) => ({ ...e, result_ids: [] })) } : {}),
  });
}

/** The `insurers` of a stored answer from its tail (`[…]}` after the key), or null without one. */
export function insurersOfTail(tail: string | null): InsurerEntry[] | null {
  return tail ? (JSON.parse(tail.slice(0, -1)) as InsurerEntry[]) : null;
}
