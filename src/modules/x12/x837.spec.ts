import { sumDecimals } from '@/common/decimal';
import { X12WriteError } from './x12.errors';
import { tokenize } from './x12.tokenizer';
import { read837 } from './x837.reader';
import { ProfessionalClaim, write837, x12Amount } from './x837.writer';
import type { EnvelopeSettings } from './x270.writer';

const envelope: EnvelopeSettings = {
  senderId: 'VISIONELIG',
  receiverId: 'CLEARINGHOUSE',
  usage: 'T',
  controlNumber: 5150,
  createdAt: new Date('2026-11-16T09:05:00Z'),
};

const maria = {
  firstName: 'Maria',
  lastName: 'Gonzalez',
  dob: '1986-04-12',
  sex: 'female',
  address: {
    line1: '1208 Congress Ave',
    line2: 'Apt 4B',
    city: 'Austin',
    state: 'TX',
    zipcode: '78701',
  },
};

const claim = (over: Partial<ProfessionalClaim> = {}): ProfessionalClaim => ({
  submitter: {
    id: 'VISIONELIG',
    name: 'Clear Sight Optometry',
    contactEmail: 'claims@clearsight.test',
  },
  receiver: { id: 'CLEARINGHOUSE', name: 'Clearinghouse' },
  billingProvider: {
    npi: '1234567893',
    organizationName: 'Clear Sight Optometry',
    taxId: '741234567',
    address: { line1: '500 W 2nd St', city: 'Austin', state: 'TX', zipcode: '78701-1234' },
  },
  subscriber: { ...maria, memberId: 'VSP104882211' },
  patient: null,
  payer: { id: 'VSP01', name: 'VSP Vision Care' },
  claimCode: 'CLM8D3K6TQW',
  acceptAssignment: false,
  services: [
    {
      codes: ['92014'],
      date: '2026-11-14',
      quantity: 1,
      cost: '145.0000',
      diagnosisCodes: ['H52.13'],
    },
    {
      codes: ['V2100', 'RT'],
      date: '2026-11-14',
      quantity: 2,
      cost: '90.5000',
      diagnosisCodes: ['H52.13', 'H52.4'],
    },
    { codes: ['V2020'], date: '2026-11-15', quantity: 1, cost: '1075.2500', diagnosisCodes: [] },
  ],
  ...over,
});

describe('837P writer (005010X222A1)', () => {
  it('writes the segments in the order of the guide and counts them in SE01', () => {
    const read = read837(write837(claim(), envelope));
    expect(read.segmentIds).toEqual([
      'ST',
      'BHT',
      'NM1',
      'PER',
      'NM1',
      'HL',
      'NM1',
      'N3',
      'N4',
      'REF',
      'HL',
      'SBR',
      'NM1',
      'N3',
      'N4',
      'DMG',
      'NM1',
      'CLM',
      'HI',
      'LX',
      'SV1',
      'DTP',
      'LX',
      'SV1',
      'DTP',
      'LX',
      'SV1',
      'DTP',
      'SE',
    ]);
    expect(read.segmentCount).toBe(read.segmentIds.length);
    expect(read.implementationReference).toBe('005010X222A1');
    expect(read.group).toMatchObject({ functionalId: 'HC', version: '005010X222A1' });
  });

  it('charges each line cost × quantity and the claim the sum of the lines', () => {
    const read = read837(write837(claim(), envelope));
    expect(read.services.map((s) => [s.charge, s.quantity, s.unit])).toEqual([
      ['145', '1', 'UN'],
      ['181', '2', 'UN'],
      ['1075.25', '1', 'UN'],
    ]);
    expect(read.totalCharge).toBe('1401.25');
    expect(x12Amount(sumDecimals(read.services.map((s) => s.charge)))).toBe(read.totalCharge);
    expect(read.patientControlNumber).toBe('CLM8D3K6TQW');
    expect(read.reference).toBe('CLM8D3K6TQW');
  });

  it('names the billing provider, subscriber and payer with their ids', () => {
    const read = read837(write837(claim(), envelope));
    expect(read.billingProvider).toMatchObject({
      entity: '85',
      lastName: 'CLEAR SIGHT OPTOMETRY',
      idQualifier: 'XX',
      id: '1234567893',
    });
    expect(read.billingProviderReferences).toEqual([
      { qualifier: 'EI', value: '741234567', description: '' },
    ]);
    expect(read.subscriber).toMatchObject({
      lastName: 'GONZALEZ',
      firstName: 'MARIA',
      idQualifier: 'MI',
      id: 'VSP104882211',
    });
    expect(read.subscriberDemographics).toEqual({ dob: '1986-04-12', sex: 'F' });
    expect(read.payer).toMatchObject({ entity: 'PR', idQualifier: 'PI', id: 'VSP01' });
    expect(read.submitter).toMatchObject({ idQualifier: '46', id: 'VISIONELIG' });
  });

  it('leaves the patient loop out when the patient is the subscriber (SBR02 18)', () => {
    const read = read837(write837(claim(), envelope));
    expect(read.patient).toBeNull();
    expect(read.subscriberRelationship).toBe('18');
    expect(read.segmentIds).not.toContain('PAT');
  });

  it('writes the patient loop, with the claim under it, when the patient is not the subscriber', () => {
    const child = {
      firstName: 'Lucia',
      lastName: 'Gonzalez',
      dob: '2016-02-03',
      sex: 'female',
      address: null,
    };
    const text = write837(claim({ patient: { ...child, relationship: '19' } }), envelope);
    const read = read837(text);
    expect(read.subscriberRelationship).toBe('');
    expect(read.patient).toEqual({
      relationship: '19',
      name: expect.objectContaining({ entity: 'QC', lastName: 'GONZALEZ', firstName: 'LUCIA' }),
      demographics: { dob: '2016-02-03', sex: 'F' },
    });
    expect(text).toContain('HL*2*1*22*1~');
    expect(text).toContain('HL*3*2*23*0~PAT*19~NM1*QC*1*GONZALEZ*LUCIA~DMG*D8*20160203*F~CLM*');
    expect(read.services).toHaveLength(3);
  });

  it('lists each diagnosis once (principal ABK, then ABF) and points lines at theirs', () => {
    const read = read837(write837(claim(), envelope));
    expect(read.diagnoses).toEqual(['H5213', 'H524']);
    expect(read.diagnosisQualifiers).toEqual(['ABK', 'ABF']);
    // The frame has no diagnosis of its own: it points to the principal one.
    expect(read.services.map((s) => s.pointers)).toEqual([[1], [1, 2], [1]]);
    expect(read.services[1].procedure).toEqual(['HC', 'V2100', 'RT']);
    expect(read.services.map((s) => s.dates[0])).toEqual([
      { qualifier: '472', format: 'D8', from: '2026-11-14', to: '2026-11-14' },
      { qualifier: '472', format: 'D8', from: '2026-11-14', to: '2026-11-14' },
      { qualifier: '472', format: 'D8', from: '2026-11-15', to: '2026-11-15' },
    ]);
  });

  it('writes the envelope with the declared separators and matching control numbers', () => {
    const text = write837(claim(), envelope);
    const { separators } = tokenize(text);
    expect(separators).toEqual({ element: '*', component: ':', repetition: '^', segment: '~' });
    expect(
      text.startsWith(
        'ISA*00*          *00*          *ZZ*VISIONELIG     *ZZ*CLEARINGHOUSE  *261116*0905*^*00501*000005150*0*T*:~',
      ),
    ).toBe(true);
    expect(text).toContain(
      'GS*HC*VISIONELIG*CLEARINGHOUSE*20261116*0905*5150*X*005010X222A1~ST*837*5150*005010X222A1~',
    );
    expect(text.endsWith('GE*1*5150~IEA*1*000005150~')).toBe(true);
    expect(text).toContain('CLM*CLM8D3K6TQW*1401.25***11:B:1*Y*C*N*Y~');
    expect(text).toContain('SV1*HC:V2100:RT*181*UN*2***1:2~');
  });

  it('writes with other separators and reads back the same claim', () => {
    const separators = { element: '|', component: '>', repetition: '!', segment: '\n' };
    const read = read837(write837(claim(), { ...envelope, separators }));
    expect(read.totalCharge).toBe('1401.25');
    expect(read.services[1].pointers).toEqual([1, 2]);
  });

  it('marks assigned benefits in CLM07 and CLM08', () => {
    const text = write837(claim({ acceptAssignment: true }), envelope);
    expect(text).toContain('*11:B:1*Y*A*Y*Y~');
  });

  it('refuses a claim without a diagnosis, a bad NPI or a bad procedure code', () => {
    const noDx = claim({
      services: [
        { codes: ['92014'], date: '2026-11-14', quantity: 1, cost: '1', diagnosisCodes: [] },
      ],
    });
    expect(() => write837(noDx, envelope)).toThrow(X12WriteError);
    const badNpi = claim({ billingProvider: { ...claim().billingProvider, npi: '12345' } });
    expect(() => write837(badNpi, envelope)).toThrow(/NPI/);
    const badCode = claim({
      services: [
        {
          codes: ['9*014'],
          date: '2026-11-14',
          quantity: 1,
          cost: '1',
          diagnosisCodes: ['H52.13'],
        },
      ],
    });
    expect(() => write837(badCode, envelope)).toThrow(/CPT/);
  });
});
