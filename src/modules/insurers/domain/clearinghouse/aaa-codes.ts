/**
 * AAA reject reasons (005010X279A1, AAA03) and what docs/api.md, Real insurers does with them.
 */

/** How a 271's AAA codes end a search. */
export type AaaClass = 'not_found' | 'retryable' | 'rejected' | 'unexpected';

const NOT_FOUND = new Set(['72', '73', '75', '67', '58', '71', '64', '65']);
const RETRYABLE = new Set(['42', '80']);
const REJECTED = new Set(['41', '43', '44', '50', '51', '79']);

/** The reasons in words, for the exchange log staff read. */
const AAA_REASONS: Readonly<Record<string, string>> = {
  '04': 'authorized quantity exceeded',
  '15': 'required application data missing',
  '33': 'input errors',
  '35': 'out of network',
  '41': 'authorization or access restrictions',
  '42': 'unable to respond at current time',
  '43': 'invalid or missing provider identification',
  '44': 'invalid or missing provider name',
  '45': 'invalid or missing provider specialty',
  '46': 'invalid or missing provider phone number',
  '47': 'invalid or missing provider state',
  '48': 'invalid or missing referring provider identification number',
  '49': 'provider is not primary care physician',
  '50': 'provider ineligible for inquiries',
  '51': 'provider not on file',
  '52': 'service dates not within provider plan enrollment',
  '53': 'inquired benefit inconsistent with provider type',
  '54': 'inappropriate product or service id qualifier',
  '55': 'inappropriate product or service id',
  '56': 'inappropriate date',
  '57': 'invalid or missing date(s) of service',
  '58': 'invalid or missing date of birth',
  '60': 'date of birth follows date(s) of service',
  '61': 'date of death precedes date(s) of service',
  '62': 'date of service not within allowable inquiry period',
  '63': 'date of service in future',
  '64': 'invalid or missing patient id',
  '65': 'invalid or missing patient name',
  '66': 'invalid or missing patient gender code',
  '67': 'patient not found',
  '68': 'duplicate patient id number',
  '69': 'inconsistent with patient’s age',
  '70': 'inconsistent with patient’s gender',
  '71': 'patient birth date does not match that for the patient on the database',
  '72': 'invalid or missing subscriber/insured id',
  '73': 'invalid or missing subscriber/insured name',
  '74': 'invalid or missing subscriber/insured gender code',
  '75': 'subscriber/insured not found',
  '76': 'duplicate subscriber/insured id number',
  '77': 'subscriber found, patient not found',
  '78': 'subscriber/insured not in group/plan identified',
  '79': 'invalid participant identification',
  '80': 'no response received, transaction terminated',
  '97': 'invalid or missing provider address',
  T4: 'payer name or identifier missing',
};

/** "75 (subscriber/insured not found)". */
export function describeAaa(code: string): string {
  const words = AAA_REASONS[code];
  return words ? `${code} (${words})` : code;
}

/**
 * The class of a set of AAA codes: a setup problem wins over everything (retrying cannot help),
 * then an unknown reason, then "ask again later", then "not found".
 */
export function classifyAaa(codes: readonly string[]): AaaClass | null {
  if (codes.length === 0) return null;
  if (codes.some((c) => REJECTED.has(c))) return 'rejected';
  if (codes.some((c) => !NOT_FOUND.has(c) && !RETRYABLE.has(c))) return 'unexpected';
  if (codes.some((c) => RETRYABLE.has(c))) return 'retryable';
  return 'not_found';
}
