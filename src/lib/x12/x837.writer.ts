import { multiplyDecimal, sumDecimals, toMinor } from '@/platform/kernel/decimal';
import { isValidNpi } from '../npi';
import { X12WriteError } from './x12.errors';
import { DEFAULT_SEPARATORS, Separators } from './x12.segment';
import { SegmentData, nm1Segment, organisationNm1, singleTransactionWriter } from './x12.writer';
import { x12BasicText, x12Text } from './x12.text';
import {
  address,
  bht,
  d8,
  diagnosisPointers,
  procedureComposite,
  sexCode,
  x12Amount,
} from './x837.parts';
import type { ProfessionalClaim } from './x837.parts';

export type {
  ProfessionalClaim,
  X837Address,
  X837IndividualProvider,
  X837Person,
  X837Service,
} from './x837.parts';
export { d8, diagnosisPointers, relationshipCode, x12Amount } from './x837.parts';

const TAXONOMY = /^[0-9A-Z]{9}X$/;

/**
 * The 837P transaction set (005010X222A1, docs/api.md, Claim lifecycle and Claims): 1000A submitter, 1000B receiver,
 * 2000A billing provider (PRV*BI) with 2010AA (NM1*85, N3, N4 ZIP+4, REF*EI), 2000B subscriber
 * (2010BA: N3/N4/DMG only when the patient is the subscriber) and 2010BB payer, 2000C/2010CA
 * patient only when the patient is a dependent (N3/N4/DMG required), 2300 (CLM, AMT*F5 when the
 * patient paid, HI), 2310B rendering provider (NM1*82*1, PRV*PE), one 2400 (LX, SV1, DTP*472) per
 * service. Names and addresses are transliterated to the X12 basic character set. What the guide
 * requires and the claim lacks is an X12WriteError: the submitter routes such claims to paper
 * before they get here.
 */
function build837(
  claim: ProfessionalClaim,
  createdAt: Date,
  s: Separators = DEFAULT_SEPARATORS,
): SegmentData[] {
  const text = (value: string, max: number, what: string) => {
    const out = x12BasicText(value, max, s);
    if (out === '') throw new X12WriteError(`the ${what} is blank once made X12-safe`);
    return out;
  };
  /** NM103 and NM104 of a person, named `who` in the error when one is blank. */
  const names = (p: { lastName: string; firstName: string }, who: string) =>
    [text(p.lastName, 60, `${who} last name`), text(p.firstName, 35, `${who} first name`)] as const;
  const bp = claim.billingProvider;
  const rp = claim.renderingProvider;
  if (!/^\d{10}$/.test(bp.npi))
    throw new X12WriteError(`the billing provider NPI must be 10 digits`);
  if (!/^\d{9}$/.test(bp.taxId))
    throw new X12WriteError('the billing provider tax id must be 9 digits');
  if (!isValidNpi(rp.npi)) throw new X12WriteError('the rendering provider NPI is not valid');
  if (rp.npi === bp.npi)
    throw new X12WriteError('the rendering provider must be an individual, not the billing NPI');
  for (const [who, code] of [
    ['billing', bp.taxonomyCode],
    ['rendering', rp.taxonomyCode],
  ])
    if (!TAXONOMY.test(code)) throw new X12WriteError(`the ${who} provider taxonomy is not valid`);
  if (claim.services.length === 0 || claim.services.length > 50)
    throw new X12WriteError('an 837P claim has 1 to 50 service lines');
  const { codes, pointers } = diagnosisPointers(claim.services);
  const charges = claim.services.map((line) => multiplyDecimal(line.cost, line.quantity));
  const total = sumDecimals(charges);
  if (toMinor(total) <= 0n) throw new X12WriteError('the total charge must be above zero');
  const self = claim.patient === null;
  const sub = claim.subscriber;
  if (self && (!sub.address || sexCode(sub.sex) === 'U'))
    throw new X12WriteError('the subscriber (the patient) needs an address and a sex');
  if (claim.patient && !claim.patient.address)
    throw new X12WriteError("the patient's address is missing");

  const segments: SegmentData[] = [
    bht('0019', '00', text(claim.claimCode, 50, 'claim code'), createdAt, 'CH'),
    organisationNm1(
      '41',
      text(claim.submitter.name, 60, 'submitter name'),
      '46',
      claim.submitter.id,
    ),
    [
      'PER',
      'IC',
      text(claim.submitter.name, 60, 'submitter contact'),
      'EM',
      x12Text(claim.submitter.contactEmail, 256, s),
    ],
    organisationNm1('40', text(claim.receiver.name, 60, 'receiver name'), '46', claim.receiver.id),
    ['HL', '1', '', '20', '1'],
    ['PRV', 'BI', 'PXC', bp.taxonomyCode],
    organisationNm1('85', text(bp.organizationName, 60, 'organisation name'), 'XX', bp.npi),
    ...address(bp.address, s, 'billing provider'),
    ['REF', 'EI', bp.taxId],
  ];
  if (segments.some((seg) => seg[0] === 'N4' && (seg[3] as string).length !== 9))
    throw new X12WriteError("the billing provider's ZIP code needs its ZIP+4");
  segments.push(
    ['HL', '2', '1', '22', self ? '0' : '1'],
    ['SBR', 'P', self ? '18' : '', x12Text(sub.groupNumber ?? '', 50, s), '', '', '', '', '', 'CI'],
    nm1Segment('IL', '1', ...names(sub, 'subscriber'), 'MI', text(sub.memberId, 80, 'member id')),
    // 2010BA N3/N4/DMG: required when the patient is the subscriber, otherwise not sent.
    ...(self
      ? [
          ...address(sub.address!, s, 'subscriber'),
          ['DMG', 'D8', d8(sub.dob), sexCode(sub.sex)] as SegmentData,
        ]
      : []),
    organisationNm1('PR', text(claim.payer.name, 60, 'payer name'), 'PI', claim.payer.id),
  );
  if (claim.patient) {
    const p = claim.patient;
    segments.push(
      ['HL', '3', '2', '23', '0'],
      ['PAT', p.relationship],
      ['NM1', 'QC', '1', ...names(p, 'patient')],
      ...address(p.address!, s, 'patient'),
      ['DMG', 'D8', d8(p.dob), sexCode(p.sex)],
    );
  }
  const assigned = claim.acceptAssignment;
  segments.push([
    'CLM',
    text(claim.claimCode, 38, 'claim code'),
    x12Amount(total),
    '',
    '',
    ['11', 'B', '1'],
    'Y',
    assigned ? 'A' : 'C',
    assigned ? 'Y' : 'N',
    'Y',
  ]);
  if (toMinor(claim.paidAmount) > 0n) segments.push(['AMT', 'F5', x12Amount(claim.paidAmount)]);
  segments.push(
    ['HI', ...codes.map((code, i) => [i === 0 ? 'ABK' : 'ABF', code])],
    nm1Segment('82', '1', ...names(rp, 'rendering provider'), 'XX', rp.npi),
    ['PRV', 'PE', 'PXC', rp.taxonomyCode],
  );
  claim.services.forEach((line, i) => {
    const procedure = procedureComposite(line.codes);
    if (typeof procedure === 'string') throw new X12WriteError(`service ${i + 1}: ${procedure}`);
    if (!Number.isInteger(line.quantity) || line.quantity < 1)
      throw new X12WriteError(`service ${i + 1}: the quantity must be a whole number of units`);
    segments.push(
      ['LX', String(i + 1)],
      [
        'SV1',
        procedure,
        x12Amount(charges[i]),
        'UN',
        String(line.quantity),
        '',
        '',
        pointers[i].map(String),
      ],
      ['DTP', '472', 'D8', d8(line.date)],
    );
  });
  return segments;
}

/** A whole 837P interchange: one group (`HC`), one transaction set. */
export const write837 = singleTransactionWriter(
  { type: '837', functionalId: 'HC', version: '005010X222A1' },
  build837,
);
