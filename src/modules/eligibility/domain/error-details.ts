import { insurerName } from '@/modules/insurers';
import type { EligibilityErrorCode } from '../store/eligibility-request.entity';

/**
 * What each `error_code` means, in words (docs/api.md, Errors): the `error_detail` of every `error`
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

/**
 * Why an insurer the service cannot ask ends the check, naming the insurer and the setting that
 * changes it: trying again can never help, so the answer must not say "try again later".
 */
export function notConnectedDetail(code: string, clearinghouseConfigured: boolean): string {
  const name = insurerName(code);
  const setting = clearinghouseConfigured
    ? `the operator gives it a payer id (INSURER_PAYER_IDS)`
    : `the operator configures a clearinghouse (CLEARINGHOUSE_ELIGIBILITY_URL)`;
  return (
    `${name} is not connected to this service, so it cannot be checked until ${setting}, or ` +
    `an administrator switches ${name} to assisted verification on the Insurers page. Trying ` +
    `again will not help.`
  );
}

/** Why an insurer switched off for the practice ends the check. */
export function switchedOffDetail(code: string): string {
  const name = insurerName(code);
  return (
    `${name} is switched off for this practice, so it was not checked: an administrator can ` +
    `switch it on on the Insurers page.`
  );
}
