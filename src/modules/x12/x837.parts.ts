import { fromMinor, toMinor } from '@/common/decimal';
import { X12WriteError } from './x12.errors';
import type { Separators } from './x12.segment';
import { SegmentData, x12Text } from './x12.writer';

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

/** One professional claim as the 837P carries it (CONTRACT §12). */
export interface ProfessionalClaim {
  /** 1000A: who sends the file (the service's clearinghouse account). */
  submitter: { id: string; name: string; contactEmail: string };
  /** 1000B: the clearinghouse. */
  receiver: { id: string; name: string };
  /** 2010AA: the location (its provider identity). */
  billingProvider: {
    npi: string;
    organizationName: string;
    taxId: string | null;
    address: X837Address | null;
  };
  subscriber: X837Person & { memberId: string; groupNumber?: string | null };
  /** 2000C/2010CA, only when the patient is not the subscriber. */
  patient: (X837Person & { relationship: string }) | null;
  payer: { id: string; name: string };
  /** CLM01, the patient control number: the claim code. */
  claimCode: string;
  /** CLM07/CLM08: benefits assigned to the provider. */
  acceptAssignment: boolean;
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

/**
 * The 837P transaction set (005010X222A1): 1000A submitter, 1000B receiver, 2000A/2010AA billing
 * provider, 2000B subscriber (2010BA) and payer (2010BB), 2000C patient only when the patient is
 * not the subscriber, then 2300 (CLM, HI) and one 2400 (LX, SV1, DTP*472) per service.
 */
export function address(a: X837Address | null, s: Separators): SegmentData[] {
  if (!a) return [];
  const line2 = a.line2 ? x12Text(a.line2, 55, s) : '';
  return [
    line2 ? ['N3', x12Text(a.line1, 55, s), line2] : ['N3', x12Text(a.line1, 55, s)],
    [
      'N4',
      x12Text(a.city, 30, s),
      x12Text(a.state, 2, s).toUpperCase(),
      a.zipcode.replace('-', ''),
    ],
  ];
}

export function sexCode(sex: string | null): string {
  return sex === 'female' ? 'F' : sex === 'male' ? 'M' : 'U';
}

export function d8(date: string): string {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date))
    throw new X12WriteError(`${JSON.stringify(date)} is not YYYY-MM-DD`);
  return date.replaceAll('-', '');
}
