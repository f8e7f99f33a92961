/**
 * The person and address vocabulary the API shares (docs/api.md, Patients, Claims, Creating a
 * request, Appointments, Insurers and assisted verification): the shapes with their snake_case
 * keys, and the formats their fields are checked against. Each body keeps its own key order;
 * these types name what the keys are.
 */

export const SEX_CHOICES = ['female', 'male', 'other', 'unknown'] as const;

export const ZIPCODE = /^\d{5}(-\d{4})?$/;
export const ZIPCODE_MESSAGE = 'Enter a valid ZIP code (NNNNN or NNNNN-NNNN).';

export const SSN_LAST_FOUR = /^\d{4}$/;
export const SSN_LAST_FOUR_MESSAGE = 'Enter exactly 4 digits.';

export const PHONE = /^[0-9+().\-\s]{7,32}$/;
export const PHONE_MESSAGE = 'Enter a valid phone number.';

/** The earliest date of birth (or of service) a request may give. */
export const DOB_MIN = '1900-01-01';

/** A street address: a location's, an insurer's member's, a verifier's person's. */
export interface StreetAddress {
  line1: string;
  line2: string | null;
  city: string;
  state: string;
  zipcode: string;
}

/** A street address with the addressee when it is not the person ("c/o ..."): a claim's. */
export interface MailingAddress extends StreetAddress {
  recipient: string | null;
}

/** Every key of T present, each value possibly null: a patient's address as stored. */
export type Nullable<T> = { [K in keyof T]: T[K] | null };

/** T with the keys K optional: what a body may leave out. */
export type Optional<T, K extends keyof T> = Omit<T, K> & Partial<Pick<T, K>>;

/** A person as a request names them: first and last name, date of birth (`YYYY-MM-DD`). */
export interface NamedPerson {
  first_name: string;
  last_name: string;
  dob: string;
}

/** The subscriber who holds the plan, when the patient is their dependent. */
export interface Subscriber extends NamedPerson {
  member_id: string | null;
}

/** The patient of an eligibility request as sent (an appointment stores it). */
export interface AskedPatient extends Subscriber {
  zipcode: string;
  ssn_last_four: string | null;
  subscriber: Subscriber | null;
}

/** Optional keys of T (those that may be undefined): present in what `everyKey` returns. */
type EveryKey<T, K extends keyof T> = {
  [P in K]-?: undefined extends T[P] ? Exclude<T[P], undefined> | null : T[P];
};

/**
 * The `keys` of `o`, in that order, an absent one null: a body or a stored JSON object as an
 * answer shows it, every key there in the documented order (a jsonb column orders keys its own
 * way; a row written before a key existed lacks it).
 */
export function everyKey<T extends object, K extends keyof T>(
  o: T,
  keys: readonly K[],
): EveryKey<T, K> {
  const out = {} as Record<K, unknown>;
  for (const key of keys) out[key] = o[key] ?? null;
  return out as EveryKey<T, K>;
}
