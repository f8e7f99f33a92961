import { errorDetailOf } from './error-details';

/**
 * The answer of a purged request (SECURITY.md, Retention): its uid, status and error code stay,
 * its results are gone, and `purged` says why. Key order as every result body.
 */
export function purgedBody(uid: string, status: string, errorCode: string | null): string {
  return JSON.stringify({
    request_uid: uid,
    status,
    error_code: status === 'error' ? errorCode : null,
    error_detail: errorDetailOf(status, errorCode),
    results: [],
    purged: true,
  });
}
