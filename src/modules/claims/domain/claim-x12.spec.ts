import { write837 } from '@/lib/x12/x837.writer';
import { check837Structure } from '../../../../test/x12/x837.structure';
import { read837 } from '../../../../test/x12/x837.reader';
import { VARIANT_ENVELOPE, variantClaim } from '../../../../test/x12/x837.variants';
import type { BillingProvider } from './claim-billing-provider';
import type { ClaimServiceLine } from '../store/claim-service-line.entity';
import { professionalClaimOf, x12RouteGaps } from './claim-x12';
import type { Claim, ClaimPerson } from '../store/claim.entity';
import { MARIA_EXAMPLE } from '../api/claim.examples';

/** Maria of the OpenAPI examples, without her SSN, e-mail, phone or apartment. */
const maria: ClaimPerson = {
  ...MARIA_EXAMPLE,
  ssn_last_four: null,
  email: null,
  phone: null,
  address: { ...MARIA_EXAMPLE.address, line2: null },
};
const lucia: ClaimPerson = {
  ...maria,
  first_name: 'Lucia',
  dob: '2016-02-03',
  type: 'child',
  member_id: null,
  address: null,
};

/** The practice of the 837P variants, as a location gives it. */
const provider: BillingProvider = {
  ...variantClaim().billingProvider,
  renderingProvider: variantClaim().renderingProvider,
  locationCode: 'LOC7K2M9QXA',
};

const claim = (over: Partial<Claim> = {}): Claim =>
  ({
    code: 'CLM8D3K6TQW',
    insurerCode: 'insurer:vision:vsp',
    patient: maria,
    primaryMember: maria,
    paidAmount: '0.0000',
    acceptAssignment: false,
    renderingProvider: null,
    ...over,
  }) as Claim;

const line = (over: Partial<ClaimServiceLine> = {}): ClaimServiceLine =>
  ({
    position: 0,
    codes: ['92014'],
    serviceDate: '2026-11-14',
    quantity: 1,
    cost: '145.0000',
    diagnosisCodes: ['H52.13'],
    ...over,
  }) as ClaimServiceLine;

const ids = { submitterId: 'VISIONELIG', receiverId: 'CLEARINGHOUSE', contactEmail: 'a@b.test' };
const written = (c: Claim, lines: ClaimServiceLine[]) => {
  const text = write837(professionalClaimOf(c, lines, provider, 'VSP01', ids), VARIANT_ENVELOPE);
  expect(check837Structure(text)).toEqual([]);
  return text;
};

describe('the X12 route of a claim (docs/api.md, Claims)', () => {
  it('finds nothing missing for a complete claim, and writes it', () => {
    expect(x12RouteGaps(claim(), [line()], provider)).toEqual([]);
    expect(read837(written(claim(), [line()])).subscriberRelationship).toBe('18');
  });

  it('names every gap of the location in one sentence', () => {
    const bare = {
      ...provider,
      taxId: null,
      address: { ...provider.address!, zipcode: '78701' },
      renderingProvider: null,
    };
    expect(x12RouteGaps(claim(), [line()], bare)).toEqual([
      'The location LOC7K2M9QXA has no tax id, no ZIP+4 in its address.',
      'No rendering provider (the individual NPI who gave the care) on the claim or the location LOC7K2M9QXA.',
    ]);
    // The claim's own rendering provider is enough.
    const own = claim({
      renderingProvider: {
        npi: '1003000126',
        first_name: 'O',
        last_name: 'B',
        taxonomy_code: null,
      },
    });
    expect(x12RouteGaps(own, [line()], { ...provider, renderingProvider: null })).toEqual([]);
  });

  it('needs the address and sex of a subscriber who is the patient, not of a dependent’s subscriber', () => {
    const noSex = { ...maria, sex: null, address: null };
    expect(
      x12RouteGaps(claim({ patient: noSex, primaryMember: noSex }), [line()], provider),
    ).toEqual(['The subscriber (the patient) has no address and no sex on the claim.']);
    // A dependent: the subscriber's sex is not sent; the patient takes the member's address.
    const dependent = claim({ patient: lucia, primaryMember: { ...maria, sex: null } });
    expect(x12RouteGaps(dependent, [line()], provider)).toEqual([]);
    expect(written(dependent, [line()])).toContain(
      'NM1*QC*1*GONZALEZ*LUCIA~N3*1208 CONGRESS AVE~N4*AUSTIN*TX*78701~',
    );
    const homeless = claim({ patient: lucia, primaryMember: { ...maria, address: null } });
    expect(x12RouteGaps(homeless, [line()], provider)).toEqual([
      'The patient and the primary member have no address.',
    ]);
  });

  it('makes a dependent with a member id of their own the subscriber', () => {
    const own = claim({ patient: { ...lucia, member_id: 'VSP55501' } });
    const read = read837(written(own, [line()]));
    expect(read.patient).toBeNull();
    expect(read.subscriber).toMatchObject({ firstName: 'LUCIA', id: 'VSP55501' });
  });

  it('bills `V2100-RT` as a code with its modifier, and sends a second procedure code on paper', () => {
    const lines = [line(), line({ position: 1, codes: ['V2100-RT', 'LT'], cost: '90.5' })];
    expect(x12RouteGaps(claim(), lines, provider)).toEqual([]);
    expect(written(claim(), lines)).toContain('~SV1*HC:V2100:RT:LT*90.5*UN*1***1~');
    expect(x12RouteGaps(claim(), [line({ codes: ['92014', 'V2100'] })], provider)).toEqual([
      'One procedure code per service line is needed to file electronically. Service 1 has 92014 and V2100.',
    ]);
  });

  it('sends a zero total and a member known only by SSN on paper', () => {
    expect(x12RouteGaps(claim(), [line({ cost: '0.0000' })], provider)).toEqual([
      'The total charge is zero.',
    ]);
    const ssn = { ...maria, member_id: null, ssn_last_four: '6789' };
    expect(x12RouteGaps(claim({ patient: ssn, primaryMember: ssn }), [line()], provider)).toEqual([
      "The primary member has no member id (the payer's card).",
    ]);
  });
});
