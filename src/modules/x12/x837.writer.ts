import { multiplyDecimal, sumDecimals } from '@/common/decimal';
import { X12WriteError } from './x12.errors';
import { DEFAULT_SEPARATORS, Separators } from './x12.segment';
import {
  EnvelopeSettings,
  SegmentData,
  TransactionSetInput,
  writeSingleTransaction,
  x12Text,
} from './x12.writer';
import { address, d8, diagnosisPointers, sexCode, x12Amount } from './x837.parts';
import type { ProfessionalClaim } from './x837.parts';

export type { ProfessionalClaim, X837Address, X837Person, X837Service } from './x837.parts';
export { d8, diagnosisPointers, relationshipCode, x12Amount } from './x837.parts';

export const X222_IMPLEMENTATION = '005010X222A1';

export function build837(
  claim: ProfessionalClaim,
  controlNumber: string,
  createdAt: Date,
  s: Separators = DEFAULT_SEPARATORS,
): TransactionSetInput {
  const text = (value: string, max: number, what: string) => {
    const out = x12Text(value, max, s).toUpperCase();
    if (out === '') throw new X12WriteError(`the ${what} is blank once made X12-safe`);
    return out;
  };
  if (!/^\d{10}$/.test(claim.billingProvider.npi))
    throw new X12WriteError(`the billing provider NPI must be 10 digits`);
  if (claim.services.length === 0 || claim.services.length > 50)
    throw new X12WriteError('an 837P claim has 1 to 50 service lines');
  const { codes, pointers } = diagnosisPointers(claim.services);
  const charges = claim.services.map((line) => multiplyDecimal(line.cost, line.quantity));
  const total = sumDecimals(charges);
  const stamp = createdAt.toISOString();
  const self = claim.patient === null;

  const segments: SegmentData[] = [
    [
      'BHT',
      '0019',
      '00',
      claim.claimCode,
      d8(stamp.slice(0, 10)),
      stamp.slice(11, 16).replace(':', ''),
      'CH',
    ],
    [
      'NM1',
      '41',
      '2',
      text(claim.submitter.name, 60, 'submitter name'),
      '',
      '',
      '',
      '',
      '46',
      claim.submitter.id,
    ],
    [
      'PER',
      'IC',
      text(claim.submitter.name, 60, 'submitter contact'),
      'EM',
      x12Text(claim.submitter.contactEmail, 256, s),
    ],
    [
      'NM1',
      '40',
      '2',
      text(claim.receiver.name, 60, 'receiver name'),
      '',
      '',
      '',
      '',
      '46',
      claim.receiver.id,
    ],
    ['HL', '1', '', '20', '1'],
    [
      'NM1',
      '85',
      '2',
      text(claim.billingProvider.organizationName, 60, 'organisation name'),
      '',
      '',
      '',
      '',
      'XX',
      claim.billingProvider.npi,
    ],
    ...address(claim.billingProvider.address, s),
  ];
  if (claim.billingProvider.taxId) segments.push(['REF', 'EI', claim.billingProvider.taxId]);
  segments.push(
    ['HL', '2', '1', '22', self ? '0' : '1'],
    [
      'SBR',
      'P',
      self ? '18' : '',
      x12Text(claim.subscriber.groupNumber ?? '', 50, s),
      '',
      '',
      '',
      '',
      '',
      'CI',
    ],
    [
      'NM1',
      'IL',
      '1',
      text(claim.subscriber.lastName, 60, 'subscriber last name'),
      text(claim.subscriber.firstName, 35, 'subscriber first name'),
      '',
      '',
      '',
      'MI',
      text(claim.subscriber.memberId, 80, 'member id'),
    ],
    ...address(claim.subscriber.address, s),
    ['DMG', 'D8', d8(claim.subscriber.dob), sexCode(claim.subscriber.sex)],
    [
      'NM1',
      'PR',
      '2',
      text(claim.payer.name, 60, 'payer name'),
      '',
      '',
      '',
      '',
      'PI',
      claim.payer.id,
    ],
  );
  if (claim.patient) {
    const p = claim.patient;
    segments.push(
      ['HL', '3', '2', '23', '0'],
      ['PAT', p.relationship],
      [
        'NM1',
        'QC',
        '1',
        text(p.lastName, 60, 'patient last name'),
        text(p.firstName, 35, 'patient first name'),
      ],
      ...address(p.address, s),
      ['DMG', 'D8', d8(p.dob), sexCode(p.sex)],
    );
  }
  const assigned = claim.acceptAssignment;
  segments.push(
    [
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
    ],
    ['HI', ...codes.map((code, i) => [i === 0 ? 'ABK' : 'ABF', code])],
  );
  claim.services.forEach((line, i) => {
    const [procedure, ...rest] = line.codes.map((c) => c.trim().toUpperCase());
    const modifiers = rest.filter((c) => /^[A-Z0-9]{2}$/.test(c)).slice(0, 4);
    if (!procedure || !/^[A-Z0-9]{5}$/.test(procedure))
      throw new X12WriteError(
        `service ${i + 1}: ${JSON.stringify(procedure ?? '')} is not a CPT/HCPCS code`,
      );
    if (!Number.isInteger(line.quantity) || line.quantity < 1)
      throw new X12WriteError(`service ${i + 1}: the quantity must be a whole number of units`);
    segments.push(
      ['LX', String(i + 1)],
      [
        'SV1',
        ['HC', procedure, ...modifiers],
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
  return { type: '837', controlNumber, implementationReference: X222_IMPLEMENTATION, segments };
}

/** A whole 837P interchange: one group (`HC`), one transaction set. */
export function write837(claim: ProfessionalClaim, envelope: EnvelopeSettings): string {
  return writeSingleTransaction(
    envelope,
    { functionalId: 'HC', version: X222_IMPLEMENTATION },
    (control, at, sep) => build837(claim, control, at, sep),
  );
}
