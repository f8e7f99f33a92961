import { addFieldError, type ErrorTree } from '@/platform/kernel/errors';
import { MSG } from '@/platform/kernel/messages';
import { timestampMs } from '@/platform/http/validation/fields';
import { isKnownInsurer, unknownInsurerMessages } from '@/modules/insurers';
import { MAX_SYNC_WINDOW_DAYS } from './appointment-words';

/** The messages of appointments' own rules (docs/api.md, Appointments). */
export const APPOINTMENT_MESSAGES = {
  patientBoth: 'Send either patient_code or patient, not both.',
  subscriberWithoutPatient: 'Send subscriber only with patient.',
  insurerBoth: 'Send either insurer_code or insurer_code_list, not both.',
  endsBeforeStarts: 'Must be after starts_at.',
  unknownPatient: (code: string) => `Patient ${code} does not exist.`,
  // AccountsService.resolveLocation's words, so a location error reads as on every endpoint.
  unknownLocation: (code: string) => `Location ${code} does not exist.`,
  noDefaultLocation: 'The account has no default location.',
  listedTwice: 'Listed more than once in this sync.',
  toBeforeFrom: 'Must be after from.',
  windowTooLong: `The window may span at most ${MAX_SYNC_WINDOW_DAYS} days.`,
} as const;

const given = (value: unknown) => value !== undefined && value !== null;

/**
 * The rules between the fields of an upsert body, on the body as sent (so they apply to a body
 * refused for its fields too: docs/api.md, Errors, all errors of a request together): exactly one
 * of `patient_code` and `patient` (`subscriber` only with `patient`), exactly one of
 * `insurer_code` and `insurer_code_list`, each code known (the eligibility request's words: an
 * unknown code is a whole-request error), and `ends_at` after `starts_at`. A field refused for
 * its own value is left to that error.
 */
export function appointmentBodyErrors(sent: unknown, errors: ErrorTree): void {
  if (typeof sent !== 'object' || sent === null || Array.isArray(sent)) return;
  const body = sent as Record<string, unknown>;
  const add = (field: string, message: string) => addFieldError(errors, [field], message);

  const byCode = given(body.patient_code);
  const inline = given(body.patient);
  if (byCode && inline) add('patient_code', APPOINTMENT_MESSAGES.patientBoth);
  else if (!byCode && !inline && !errors.patient_code && !errors.patient)
    add('patient', MSG.required);
  if (byCode && !inline && given(body.subscriber))
    add('subscriber', APPOINTMENT_MESSAGES.subscriberWithoutPatient);

  const code = body.insurer_code;
  const list = body.insurer_code_list;
  if (given(code) && given(list)) add('insurer_code', APPOINTMENT_MESSAGES.insurerBoth);
  else if (!given(code) && !given(list)) add('insurer_code', MSG.required);
  const asked: unknown[] = [];
  if (given(code) && !errors.insurer_code) asked.push(code);
  const listErrors = errors.insurer_code_list as ErrorTree | undefined;
  if (Array.isArray(list) && !listErrors?.$)
    asked.push(...list.filter((_, i) => !listErrors?.[String(i)]));
  const unknown = asked
    .filter((c): c is string => typeof c === 'string')
    .map((c) => c.trim())
    .filter((c) => c !== '' && !isKnownInsurer(c));
  if (unknown.length > 0) (errors.$ ??= []).push(...unknown.flatMap(unknownInsurerMessages));

  if (!errors.starts_at && !errors.ends_at && given(body.ends_at)) {
    const starts = timestampMs(body.starts_at);
    const ends = timestampMs(body.ends_at);
    if (starts !== null && ends !== null && ends <= starts)
      add('ends_at', APPOINTMENT_MESSAGES.endsBeforeStarts);
  }
}

/**
 * A sync's window (docs/api.md, Appointments): `to` after `from`, at most 31 days later. `from`
 * and `to` are valid timestamps here.
 */
export function windowErrors(from: string, to: string, errors: ErrorTree): void {
  const span = timestampMs(to)! - timestampMs(from)!;
  if (span <= 0) addFieldError(errors, ['to'], APPOINTMENT_MESSAGES.toBeforeFrom);
  else if (span > MAX_SYNC_WINDOW_DAYS * 86_400_000)
    addFieldError(errors, ['to'], APPOINTMENT_MESSAGES.windowTooLong);
}
