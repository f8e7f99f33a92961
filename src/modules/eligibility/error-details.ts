import type { EligibilityErrorCode } from './eligibility-request.entity';

/**
 * What each `error_code` means, in words (CONTRACT §21): the `error_detail` of every `error`
 * answer and the reason its web page gives. A sentence about the check, never about the patient.
 */
export const ERROR_DETAILS: Record<EligibilityErrorCode, string> = {
  insurer_problem:
    'The insurer could not be asked: it was unavailable, refused the practice set-up, or is not ' +
    'connected to this service. Try again later, or check the insurer settings.',
  unexpected_error:
    'The check failed because of an unexpected error on our side (it was logged). Try again.',
};

/** The `error_detail` of an answer: the words for its error code, null unless it is `error`. */
export function errorDetailOf(status: string, errorCode: string | null): string | null {
  if (status !== 'error' || errorCode === null) return null;
  return ERROR_DETAILS[errorCode as EligibilityErrorCode] ?? null;
}
