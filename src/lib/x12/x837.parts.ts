import { formatInstant } from '@/platform/kernel/time';
import { fromMinor, toMinor } from '@/platform/kernel/decimal';
import { X12WriteError } from './x12.errors';
import type { Separators } from './x12.segment';
import { x12BasicText } from './x12.text';
import type { SegmentData } from './x12.writer';

/** The input types of the 837P writer and the small pieces it is built from. */

export interface X837Address {
  line1: string;
  line2?: string | null;
  city: string;
  state: string;
  zipcode: string;
}

export interface X837Person {
  firstName: string;
  lastName: string;
  /** `YYYY-MM-DD`. */
  dob: string;
  /** `female`, `male`, anything else is sent as `U`. */
  sex: string | null;
  address: X837Address | null;
}

export interface X837Service {
  /** CPT/HCPCS: the first is the procedure (SV101-2), 2-character codes after it are modifiers. */
  codes: readonly string[];
  /** `YYYY-MM-DD` (DTP*472). */
  date: string;
  quantity: number;
  /** Price of ONE unit, a decimal string: SV102 = cost × quantity. */
  cost: string;
  /** ICD-10 codes of this line (`H52.13`); pointed to from SV107. */
  diagnosisCodes: readonly string[];
}

/** An individual provider (2310B rendering provider): a type-1 NPI, a name, a taxonomy. */
export interface X837IndividualProvider {
  npi: string;
  firstName: string;
  lastName: string;
  /** PRV03, the provider taxonomy code (`152W00000X`, optometrist). */
  taxonomyCode: string;
}

/** One professional claim as the 837P carries it (docs/api.md, Claim lifecycle and Claims). */
export interface ProfessionalClaim {
  /** 1000A: who sends the file (the service's clearinghouse account). */
  submitter: { id: string; name: string; contactEmail: string };
  /** 1000B: the clearinghouse. */
  receiver: { id: string; name: string };
  /** 2000A/2010AA: the location (its provider identity); every field is required (docs/x12-and-claims.md). */
  billingProvider: {
    npi: string;
    organizationName: string;
    taxId: string;
    /** The street address with its ZIP+4. */
    address: X837Address;
    taxonomyCode: string;
  };
  /** 2310B: the individual who rendered the care (the organisation's NPI cannot). */
  renderingProvider: X837IndividualProvider;
  /** 2010BA. When the patient is the subscriber, `address` and `sex` are required. */
  subscriber: X837Person & { memberId: string; groupNumber?: string | null };
  /** 2000C/2010CA, only when the patient is not the subscriber; `address` is then required. */
  patient: (X837Person & { relationship: string }) | null;
  payer: { id: string; name: string };
  /** CLM01, the patient control number: the claim code. */
  claimCode: string;
  /** CLM07/CLM08: benefits assigned to the provider. */
  acceptAssignment: boolean;
  /** What the patient paid (decimal string): `AMT*F5` when above zero. */
  paidAmount: string;
  services: readonly X837Service[];
}

const MAX_DIAGNOSES = 12;
const MAX_POINTERS = 4;

/** "145.0000" → "145", "90.5000" → "90.5": X12 decimals carry no trailing zeros. */
export function x12Amount(value: string): string {
  const text = fromMinor(toMinor(value));
  return text.replace(/\.?0+$/, '');
}

/** PAT01 / relationship words of a claim person's `type`. */
export function relationshipCode(type: string | null | undefined): string {
  switch ((type ?? '').toLowerCase()) {
    case 'spouse':
      return '01';
    case 'child':
    case 'dependent_child':
      return '19';
    default:
      return 'G8';
  }
}

/**
 * The claim's diagnoses (HI), de-duplicated in order of first use, and each line's pointers to
 * them (SV107, 1-based). A line without diagnoses points to the principal one.
 */
export function diagnosisPointers(services: readonly X837Service[]): {
  codes: string[];
  pointers: number[][];
} {
  const codes: string[] = [];
  for (const s of services)
    for (const raw of s.diagnosisCodes) {
      const code = raw.replace('.', '').toUpperCase();
      if (!codes.includes(code)) codes.push(code);
    }
  if (codes.length === 0) throw new X12WriteError('an 837P needs at least one diagnosis (HI)');
  if (codes.length > MAX_DIAGNOSES)
    throw new X12WriteError(`an 837P carries at most ${MAX_DIAGNOSES} diagnoses`);
  const pointers = services.map((s) => {
    const own = [
      ...new Set(s.diagnosisCodes.map((c) => codes.indexOf(c.replace('.', '').toUpperCase()) + 1)),
    ];
    return own.length === 0 ? [1] : own.slice(0, MAX_POINTERS);
  });
  return { codes, pointers };
}

/** A ZIP code as N403 carries it: 5 or 9 digits (`78701-1234` → `787011234`), else null. */
function n4Zip(zipcode: string): string | null {
  const digits = zipcode.trim().replace('-', '');
  return /^\d{5}(\d{4})?$/.test(digits) ? digits : null;
}

/** N3/N4 of a person or provider, transliterated to the X12 basic character set. */
export function address(a: X837Address, s: Separators, what: string): SegmentData[] {
  const line1 = x12BasicText(a.line1, 55, s);
  const line2 = a.line2 ? x12BasicText(a.line2, 55, s) : '';
  const city = x12BasicText(a.city, 30, s);
  const state = x12BasicText(a.state, 2, s);
  const zip = n4Zip(a.zipcode);
  if (!line1 || !city || !/^[A-Z]{2}$/.test(state) || !zip)
    throw new X12WriteError(`the ${what} address is incomplete (street, city, state and ZIP)`);
  return [line2 ? ['N3', line1, line2] : ['N3', line1], ['N4', city, state, zip]];
}

export function sexCode(sex: string | null): string {
  return sex === 'female' ? 'F' : sex === 'male' ? 'M' : 'U';
}

export function d8(date: string): string {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date))
    throw new X12WriteError(`${JSON.stringify(date)} is not YYYY-MM-DD`);
  return date.replaceAll('-', '');
}

/**
 * A transaction set's BHT: its structure, purpose and reference, made at `createdAt` (BHT04 the
 * UTC date, BHT05 the UTC time HHMM), then any further elements.
 */
export function bht(
  structure: string,
  purpose: string,
  reference: string,
  createdAt: Date,
  ...more: string[]
): SegmentData {
  const stamp = formatInstant(createdAt, 'utc');
  return [
    'BHT',
    structure,
    purpose,
    reference,
    d8(stamp.slice(0, 10)),
    stamp.slice(11, 16).replace(':', ''),
    ...more,
  ];
}

/** SV101: `codes[0]` is the procedure, each further code a two-character modifier (up to four). */
export function procedureComposite(codes: readonly string[]): string[] | string {
  // `V2100-RT` (a code with its modifiers, as claims accept them) is `V2100`, `RT`.
  const [procedure, ...rest] = codes.flatMap((c) => c.trim().toUpperCase().split('-'));
  if (!procedure || !/^[A-Z0-9]{5}$/.test(procedure))
    return `${JSON.stringify(procedure ?? '')} is not a CPT/HCPCS code`;
  if (rest.some((c) => c.length !== 2))
    return 'One procedure code per service line is needed to file electronically.';
  if (rest.some((c) => !/^[A-Z0-9]{2}$/.test(c)))
    return `${JSON.stringify(rest.find((c) => !/^[A-Z0-9]{2}$/.test(c)))} is not a procedure modifier`;
  if (rest.length > 4) return 'A service line carries at most four procedure modifiers.';
  return ['HC', procedure, ...rest];
}
