import { MAX_SERVICES } from '../api/dto/create-claim.dto';

/**
 * The web "New claim" form (plain urlencoded fields, no JavaScript): `patient_<field>`,
 * `member_<field>`, `service_<n>_<field>` for the six lines, then the claim's own fields
 * (`account_number` goes into `metadata`). It is turned into the API's body and bound with the
 * API's CreateClaimDto, so the rules and messages are the API's, and the errors come back in the
 * API's tree (`patient.first_name`, `services.0.codes`), which the view shows by each field.
 */

export const PERSON_FIELDS = [
  'first_name',
  'last_name',
  'dob',
  'sex',
  'type',
  'member_id',
  'phone',
  'email',
] as const;
export const ADDRESS_FIELDS = ['line1', 'line2', 'city', 'state', 'zipcode'] as const;
export const SERVICE_FIELDS = ['date', 'codes', 'quantity', 'cost', 'diagnosis_codes'] as const;
export const SERVICE_ROWS = Array.from({ length: MAX_SERVICES }, (_, i) => i);

/** `V2100 RT, V2750` → `['V2100', 'RT', 'V2750']`. */
const list = (value: string | undefined) =>
  (value ?? '')
    .split(/[\s,]+/)
    .map((v) => v.trim())
    .filter(Boolean);

function person(form: Record<string, string>, prefix: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of PERSON_FIELDS) out[f] = form[`${prefix}_${f}`];
  const address = Object.fromEntries(
    ADDRESS_FIELDS.map((f) => [f, form[`${prefix}_address_${f}`] ?? '']),
  );
  // All blank: no address (bindForm drops the blanks); any given: checked in full.
  out.address = ADDRESS_FIELDS.some((f) => address[f].trim()) ? address : undefined;
  return out;
}

/** The API body of a submitted form. Blank service rows are left out; the others keep order. */
export function claimBodyOf(form: Record<string, string>): Record<string, unknown> {
  const patient = person(form, 'patient');
  const member = form.member_is_patient === 'true' ? { ...patient } : person(form, 'member');
  member.insurer_code = form.insurer_code;
  if (form.member_is_patient === 'true' && form.member_member_id)
    member.member_id = form.member_member_id;
  const services = SERVICE_ROWS.filter((n) =>
    SERVICE_FIELDS.some((f) => (form[`service_${n}_${f}`] ?? '').trim() !== ''),
  ).map((n) => {
    const codes = list(form[`service_${n}_codes`]);
    const line: Record<string, unknown> = {
      date: form[`service_${n}_date`],
      codes: codes.length ? codes : undefined,
      quantity: form[`service_${n}_quantity`],
      cost: form[`service_${n}_cost`],
      diagnosis_codes: list(form[`service_${n}_diagnosis_codes`]),
    };
    // A blank field of a line is absent ("This field is required."), as a form's blanks are.
    return Object.fromEntries(Object.entries(line).filter(([, v]) => v !== undefined && v !== ''));
  });
  return {
    patient,
    primary_member: member,
    // An empty list is "This field is required." on `services`, as in the API.
    services: services.length ? services : undefined,
    paid_amount: form.paid_amount,
    accept_assignment: form.accept_assignment === 'true',
    // The practice's account number for the patient: the API's metadata.account_number (box 26).
    metadata: form.account_number?.trim()
      ? { account_number: form.account_number.trim() }
      : undefined,
    location_code: form.location_code,
  };
}

/**
 * The service rows' errors by the form's row number: the API numbers the lines it was sent, and
 * blank rows were left out of it.
 */
export function serviceRowOfLine(form: Record<string, string>): number[] {
  return SERVICE_ROWS.filter((n) =>
    SERVICE_FIELDS.some((f) => (form[`service_${n}_${f}`] ?? '').trim() !== ''),
  );
}
