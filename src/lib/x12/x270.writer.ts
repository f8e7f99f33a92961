import { X12WriteError } from './x12.errors';
import { DEFAULT_SEPARATORS, Separators } from './x12.segment';
import { SegmentData, nm1Segment, organisationNm1, singleTransactionWriter } from './x12.writer';
import { x12Text } from './x12.text';
import { bht, d8 } from './x837.parts';

/** What one 270 asks: is this subscriber covered by this payer, for these service types. */
export interface EligibilityInquiry {
  payer: { id: string; name: string };
  provider: { npi: string; organizationName: string; taxId?: string | null };
  subscriber: { firstName: string; lastName: string; dob: string; memberId?: string | null };
  /**
   * docs/api.md, Real insurers: the patient when they are the subscriber's dependent. The 270 then names the
   * subscriber in 2000C and asks about the patient in 2000D (TRN, NM1*03, DMG, DTP, EQ there).
   */
  dependent?: { firstName: string; lastName: string; dob: string } | null;
  /** EQ01 service type codes (`30`, `AL`, ...), at least one. */
  serviceTypes: readonly string[];
  /** TRN02: unique per call; the 271 echoes it. */
  traceNumber: string;
  /** TRN03: `1` + the practice's EIN, or `9` + another 9-character id of the originator. */
  traceOriginator: string;
  /** DTP*291: the date the eligibility is asked for (`YYYY-MM-DD`). */
  date: string;
}

export type { EnvelopeSettings } from './x12.writer';

/**
 * The 270 transaction set of docs/api.md, Real insurers: BHT 0022*13, 2000A payer (NM1*PR ... PI), 2000B
 * provider (NM1*1P*2*org*****XX*npi), 2000C subscriber (TRN, NM1*IL with MI member id when known,
 * DMG, DTP*291, EQ with the service types). With a dependent (docs/api.md, Creating a request: `subscriber`) the TRN, DTP and EQ move to
 * the 2000D patient (NM1*03, DMG).
 */
function build270(
  inquiry: EligibilityInquiry,
  createdAt: Date,
  s: Separators = DEFAULT_SEPARATORS,
): SegmentData[] {
  if (!/^\d{10}$/.test(inquiry.provider.npi)) {
    throw new X12WriteError(
      `the provider NPI must be 10 digits (got ${JSON.stringify(inquiry.provider.npi)})`,
    );
  }
  if (inquiry.serviceTypes.length === 0)
    throw new X12WriteError('EQ01 needs at least one service type');
  const badType = inquiry.serviceTypes.find((t) => !/^[A-Z0-9]{1,2}$/.test(t));
  if (badType !== undefined)
    throw new X12WriteError(`EQ01: ${JSON.stringify(badType)} is not a service type code`);
  const named = (value: string, max: number, what: string) => {
    const text = x12Text(value, max, s).toUpperCase();
    if (text === '') throw new X12WriteError(`the ${what} is blank once made X12-safe`);
    return text;
  };
  const organization = named(inquiry.provider.organizationName, 60, 'organisation name');
  const last = named(inquiry.subscriber.lastName, 60, 'last name');
  const first = named(inquiry.subscriber.firstName, 35, 'first name');
  const memberId = inquiry.subscriber.memberId ? x12Text(inquiry.subscriber.memberId, 80, s) : '';
  const segments: SegmentData[] = [
    bht('0022', '13', inquiry.traceNumber, createdAt),
    ['HL', '1', '', '20', '1'],
    organisationNm1('PR', x12Text(inquiry.payer.name, 60, s).toUpperCase(), 'PI', inquiry.payer.id),
    ['HL', '2', '1', '21', '1'],
    organisationNm1('1P', organization, 'XX', inquiry.provider.npi),
  ];
  if (inquiry.provider.taxId) segments.push(['REF', 'TJ', inquiry.provider.taxId]);
  const subscriberName: SegmentData = memberId
    ? nm1Segment('IL', '1', last, first, 'MI', memberId)
    : ['NM1', 'IL', '1', last, first];
  const trace: SegmentData = ['TRN', '1', inquiry.traceNumber, inquiry.traceOriginator];
  const asked: SegmentData[] = [
    ['DTP', '291', 'D8', d8(inquiry.date)],
    ['EQ', { repeat: inquiry.serviceTypes }],
  ];
  const dependent = inquiry.dependent;
  if (!dependent) {
    segments.push(
      ['HL', '3', '2', '22', '0'],
      trace,
      subscriberName,
      ['DMG', 'D8', d8(inquiry.subscriber.dob)],
      ...asked,
    );
  } else {
    const dependentLast = x12Text(dependent.lastName, 60, s).toUpperCase();
    const dependentFirst = x12Text(dependent.firstName, 35, s).toUpperCase();
    if (dependentLast === '' || dependentFirst === '')
      throw new X12WriteError("the dependent's name is blank once made X12-safe");
    segments.push(
      ['HL', '3', '2', '22', '1'],
      subscriberName,
      ['DMG', 'D8', d8(inquiry.subscriber.dob)],
      ['HL', '4', '3', '23', '0'],
      trace,
      ['NM1', '03', '1', dependentLast, dependentFirst],
      ['DMG', 'D8', d8(dependent.dob)],
      ...asked,
    );
  }
  return segments;
}

/** A whole 270 interchange: one group (`HS`), one transaction set. */
export const write270 = singleTransactionWriter(
  { type: '270', functionalId: 'HS', version: '005010X279A1' },
  build270,
);
