import { X12WriteError } from './x12.errors';
import { DEFAULT_SEPARATORS, Separators } from './x12.segment';
import { SegmentData, nm1Segment, organisationNm1, singleTransactionWriter } from './x12.writer';
import { x12Text } from './x12.text';
import { bht, d8, sexCode, x12Amount } from './x837.parts';

interface StatusPerson {
  firstName: string;
  lastName: string;
  dob: string;
  sex: string | null;
}

/** One claim status question (276): which claim, sent by whom, about whom. */
export interface ClaimStatusInquiry {
  payer: { id: string; name: string };
  /** 2100B information receiver: the service's clearinghouse account. */
  receiver: { id: string; name: string };
  provider: { npi: string; organizationName: string };
  subscriber: StatusPerson & { memberId: string };
  /** The patient when not the subscriber (2000E). */
  patient: StatusPerson | null;
  /** TRN02: unique per call; the 277 echoes it (TRN*2). */
  traceNumber: string;
  /** REF*EJ: the patient control number the 837P sent (CLM01, the claim code). */
  claimCode: string;
  /** REF*1K: the payer's claim number when known (the clearinghouse's id). */
  payerClaimNumber: string | null;
  /** AMT*T3: the claim's total charge. */
  totalCharge: string;
  /** DTP*472: the first and last service dates. */
  serviceFrom: string;
  serviceTo: string;
}

/**
 * The 276 transaction set (005010X212): 2000A payer, 2000B information receiver, 2000C provider,
 * 2000D subscriber and, when the patient is not the subscriber, 2000E dependent; the 2200 claim
 * loop (TRN, REF, AMT, DTP) sits under the patient's level.
 */
function build276(
  q: ClaimStatusInquiry,
  createdAt: Date,
  s: Separators = DEFAULT_SEPARATORS,
): SegmentData[] {
  if (!/^\d{10}$/.test(q.provider.npi))
    throw new X12WriteError('the provider NPI must be 10 digits');
  const name = (value: string, max: number) => x12Text(value, max, s).toUpperCase();
  const dependent = q.patient !== null;
  const dmg = (p: StatusPerson): SegmentData => ['DMG', 'D8', d8(p.dob), sexCode(p.sex)];
  const segments: SegmentData[] = [
    bht('0010', '13', q.traceNumber, createdAt),
    ['HL', '1', '', '20', '1'],
    organisationNm1('PR', name(q.payer.name, 60), 'PI', q.payer.id),
    ['HL', '2', '1', '21', '1'],
    organisationNm1('41', name(q.receiver.name, 60), '46', q.receiver.id),
    ['HL', '3', '2', '19', '1'],
    organisationNm1('1P', name(q.provider.organizationName, 60), 'XX', q.provider.npi),
    ['HL', '4', '3', '22', dependent ? '1' : '0'],
  ];
  if (!dependent) segments.push(dmg(q.subscriber));
  segments.push(
    nm1Segment(
      'IL',
      '1',
      name(q.subscriber.lastName, 60),
      name(q.subscriber.firstName, 35),
      'MI',
      x12Text(q.subscriber.memberId, 80, s),
    ),
  );
  if (q.patient) {
    segments.push(['HL', '5', '4', '23'], dmg(q.patient), [
      'NM1',
      'QC',
      '1',
      name(q.patient.lastName, 60),
      name(q.patient.firstName, 35),
    ]);
  }
  segments.push(['TRN', '1', q.traceNumber]);
  if (q.payerClaimNumber) segments.push(['REF', '1K', x12Text(q.payerClaimNumber, 50, s)]);
  segments.push(
    ['REF', 'EJ', x12Text(q.claimCode, 50, s)],
    ['AMT', 'T3', x12Amount(q.totalCharge)],
    ['DTP', '472', 'RD8', `${d8(q.serviceFrom)}-${d8(q.serviceTo)}`],
  );
  return segments;
}

/** A whole 276 interchange: one group (`HR`), one transaction set. */
export const write276 = singleTransactionWriter(
  { type: '276', functionalId: 'HR', version: '005010X212' },
  build276,
);
