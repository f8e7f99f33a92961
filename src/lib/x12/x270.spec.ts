import { readInterchange } from './x12.envelope';
import { X12ParseError, X12WriteError } from './x12.errors';
import { x12Text } from './x12.text';
import { writeInterchange, writeSegment } from './x12.writer';
import { read270 } from '../../../test/x12/x270.reader';
import { EligibilityInquiry, EnvelopeSettings, write270 } from './x270.writer';

const inquiry: EligibilityInquiry = {
  payer: { id: 'QKZWY', name: 'Davis Vision' },
  provider: { npi: '1234567893', organizationName: 'Bright Eyes Optometry', taxId: '741234567' },
  subscriber: { firstName: 'Jane', lastName: 'Doe', dob: '1980-01-15', memberId: 'DV1234567' },
  serviceTypes: ['30'],
  traceNumber: 'A1B2C3D4E5F6',
  traceOriginator: '1741234567',
  date: '2026-03-15',
};
const envelope: EnvelopeSettings = {
  senderId: 'VISIONELIG',
  receiverId: 'CLEARINGHOUSE',
  usage: 'T',
  controlNumber: 4711,
  createdAt: new Date('2026-03-15T12:30:45Z'),
};

// The 270 of docs/api.md, Real insurers, written by hand from the 005010X279A1 segment definitions.
const EXPECTED = [
  'ISA*00*          *00*          *ZZ*VISIONELIG     *ZZ*CLEARINGHOUSE  *260315*1230*^*00501*000004711*0*T*:',
  'GS*HS*VISIONELIG*CLEARINGHOUSE*20260315*1230*4711*X*005010X279A1',
  'ST*270*4711*005010X279A1',
  'BHT*0022*13*A1B2C3D4E5F6*20260315*1230',
  'HL*1**20*1',
  'NM1*PR*2*DAVIS VISION*****PI*QKZWY',
  'HL*2*1*21*1',
  'NM1*1P*2*BRIGHT EYES OPTOMETRY*****XX*1234567893',
  'REF*TJ*741234567',
  'HL*3*2*22*0',
  'TRN*1*A1B2C3D4E5F6*1741234567',
  'NM1*IL*1*DOE*JANE****MI*DV1234567',
  'DMG*D8*19800115',
  'DTP*291*D8*20260315',
  'EQ*30',
  'SE*14*4711',
  'GE*1*4711',
  'IEA*1*000004711',
];

describe('270 writer', () => {
  it('writes the inquiry of docs/api.md, Real insurers segment by segment', () => {
    expect(write270(inquiry, envelope)).toBe(EXPECTED.map((s) => `${s}~`).join(''));
  });

  it('asks about a dependent (docs/api.md, Real insurers): the subscriber in 2000C, the patient in 2000D with TRN, DMG, DTP, EQ', () => {
    const text = write270(
      {
        ...inquiry,
        dependent: { firstName: 'Timmy', lastName: 'Doe', dob: '2015-06-10' },
      },
      envelope,
    );
    const body = text.split('~').slice(9, -3);
    expect(body).toEqual([
      'HL*3*2*22*1',
      'NM1*IL*1*DOE*JANE****MI*DV1234567',
      'DMG*D8*19800115',
      'HL*4*3*23*0',
      'TRN*1*A1B2C3D4E5F6*1741234567',
      'NM1*03*1*DOE*TIMMY',
      'DMG*D8*20150610',
      'DTP*291*D8*20260315',
      'EQ*30',
      'SE*17*4711',
    ]);
    const read = read270(text);
    expect(read.subscriber.traces).toEqual([]);
    expect(read.subscriber.name).toMatchObject({ entity: 'IL', id: 'DV1234567' });
    expect(read.dependent).toMatchObject({
      traces: [{ type: '1', trace: 'A1B2C3D4E5F6' }],
      name: { entity: '03', lastName: 'DOE', firstName: 'TIMMY' },
      demographics: { dob: '2015-06-10' },
      serviceTypes: [['30']],
    });
  });

  it('a 270 without a dependent reads back with dependent null', () => {
    expect(read270(write270(inquiry, envelope)).dependent).toBeNull();
  });

  it('reads back what it wrote: payer id, NPI, names, DOB, member id, EQ, counts', () => {
    const read = read270(write270({ ...inquiry, serviceTypes: ['AL', 'AN', 'AM'] }, envelope));
    expect(read.isa).toMatchObject({
      senderId: 'VISIONELIG',
      receiverId: 'CLEARINGHOUSE',
      usage: 'T',
    });
    expect(read.group).toMatchObject({ functionalId: 'HS', version: '005010X279A1' });
    expect(read).toMatchObject({
      implementationReference: '005010X279A1',
      structure: '0022',
      purpose: '13',
      reference: 'A1B2C3D4E5F6',
      segmentCount: 14,
    });
    expect(read.payer).toMatchObject({ entity: 'PR', idQualifier: 'PI', id: 'QKZWY' });
    expect(read.provider).toMatchObject({
      entity: '1P',
      entityType: '2',
      lastName: 'BRIGHT EYES OPTOMETRY',
      idQualifier: 'XX',
      id: '1234567893',
    });
    expect(read.providerReferences).toEqual([
      { qualifier: 'TJ', value: '741234567', description: '' },
    ]);
    expect(read.subscriber.traces).toEqual([
      { type: '1', trace: 'A1B2C3D4E5F6', originator: '1741234567', secondary: '' },
    ]);
    expect(read.subscriber.name).toMatchObject({
      entity: 'IL',
      lastName: 'DOE',
      firstName: 'JANE',
      idQualifier: 'MI',
      id: 'DV1234567',
    });
    expect(read.subscriber.demographics).toEqual({ dob: '1980-01-15', sex: '' });
    expect(read.subscriber.dates).toEqual([
      { qualifier: '291', format: 'D8', from: '2026-03-15', to: '2026-03-15' },
    ]);
    expect(read.subscriber.serviceTypes).toEqual([['AL', 'AN', 'AM']]);
  });

  it('leaves the member id out when none is known, and the tax id when none is set', () => {
    const text = write270(
      {
        ...inquiry,
        provider: { ...inquiry.provider, taxId: null },
        subscriber: { ...inquiry.subscriber, memberId: null },
      },
      envelope,
    );
    expect(text).toContain('~NM1*IL*1*DOE*JANE~');
    expect(text).not.toContain('REF*TJ');
    expect(text).toContain('~SE*13*4711~');
    expect(read270(text).subscriber.name.id).toBe('');
  });

  it('writes with other separators and line breaks, and reads them back', () => {
    const text = write270(
      { ...inquiry, serviceTypes: ['30', 'AL'] },
      {
        ...envelope,
        separators: { element: '|', component: '>', repetition: '^', segment: '~' },
        lineBreaks: true,
      },
    );
    expect(text.split('\n')[0]).toBe(`${EXPECTED[0].replaceAll('*', '|').replace(/:$/, '>')}~`);
    expect(text).toContain('\nEQ|30^AL~\n');
    expect(text.endsWith('IEA|1|000004711~\n')).toBe(true);
    const read = read270(text);
    expect(read.subscriber.serviceTypes).toEqual([['30', 'AL']]);
    expect(read.subscriber.name.firstName).toBe('JANE');
  });

  it('makes names X12-safe: separators and control characters become spaces', () => {
    const text = write270(
      {
        ...inquiry,
        subscriber: {
          ...inquiry.subscriber,
          lastName: "O'Brien*Smith~",
          firstName: ' Ann\tMarie ',
        },
      },
      envelope,
    );
    expect(text).toContain("~NM1*IL*1*O'BRIEN SMITH*ANN MARIE****MI*DV1234567~");
    expect(x12Text('a'.repeat(50), 35)).toHaveLength(35);
  });

  it('refuses what it cannot write', () => {
    expect(() =>
      write270({ ...inquiry, provider: { ...inquiry.provider, npi: '12345' } }, envelope),
    ).toThrow(new X12WriteError('the provider NPI must be 10 digits (got "12345")'));
    expect(() => write270({ ...inquiry, serviceTypes: [] }, envelope)).toThrow(
      'EQ01 needs at least one service type',
    );
    expect(() => write270({ ...inquiry, serviceTypes: ['30*'] }, envelope)).toThrow(
      'EQ01: "30*" is not a service type code',
    );
    expect(() => write270({ ...inquiry, payer: { id: 'QK*WY', name: 'x' } }, envelope)).toThrow(
      'NM109: the value holds the element separator "*"',
    );
    expect(() =>
      write270({ ...inquiry, subscriber: { ...inquiry.subscriber, lastName: '~*~' } }, envelope),
    ).toThrow('the last name is blank once made X12-safe');
    expect(() => write270(inquiry, { ...envelope, senderId: 'A'.repeat(16) })).toThrow(
      'ISA06: "AAAAAAAAAAAAAAAA" is longer than 15 characters',
    );
    expect(() => write270(inquiry, { ...envelope, controlNumber: 0 })).toThrow(
      'ISA13 must be an integer from 1 to 999999999 (got 0)',
    );
  });

  it('refuses to read a 270 whose hierarchy is broken', () => {
    const text = write270(inquiry, envelope).replace('HL*3*2*22*0', 'HL*3*1*22*0');
    expect(() => read270(text)).toThrow(
      new X12ParseError(
        'X12 segment 10 (HL): HL02 1 is not an earlier HL of level 21, which a level 22 HL belongs to',
      ),
    );
  });
});

describe('generic envelope writer', () => {
  it('writes several groups and transaction sets of any type with the right counts', () => {
    const text = writeInterchange(
      {
        senderId: 'SUBMITTER',
        receiverId: 'RECEIVER',
        controlNumber: 12,
        usage: 'P',
        createdAt: new Date('2026-01-02T03:04:00Z'),
        groups: [
          {
            functionalId: 'HC',
            version: '005010X222A1',
            controlNumber: '7',
            transactions: [
              {
                type: '837',
                controlNumber: '0001',
                implementationReference: '005010X222A1',
                segments: [
                  ['BHT', '0019', '00', 'CLM1', '20260102', '0304', 'CH'],
                  ['SV1', ['HC', 'V2020', 'RT'], '120', 'UN', '1', '', '', '1'],
                  [
                    'HI',
                    {
                      repeat: [
                        ['ABK', 'H5213'],
                        ['ABF', 'H524'],
                      ],
                    },
                  ],
                ],
              },
              {
                type: '837',
                controlNumber: '0002',
                implementationReference: '005010X222A1',
                segments: [['BHT', '0019', '00', 'CLM2', '', '', '']],
              },
            ],
          },
          { functionalId: 'HS', version: '005010X279A1', controlNumber: '8', transactions: [] },
        ],
      },
      { lineBreaks: true },
    );
    const lines = text.trimEnd().split('\n');
    expect(lines.slice(1)).toEqual([
      'GS*HC*SUBMITTER*RECEIVER*20260102*0304*7*X*005010X222A1~',
      'ST*837*0001*005010X222A1~',
      'BHT*0019*00*CLM1*20260102*0304*CH~',
      'SV1*HC:V2020:RT*120*UN*1***1~',
      'HI*ABK:H5213^ABF:H524~',
      'SE*5*0001~',
      'ST*837*0002*005010X222A1~',
      'BHT*0019*00*CLM2~',
      'SE*3*0002~',
      'GE*2*7~',
      'GS*HS*SUBMITTER*RECEIVER*20260102*0304*8*X*005010X279A1~',
      'GE*0*8~',
      'IEA*2*000000012~',
    ]);
    const read = readInterchange(text);
    expect(read.isa.usage).toBe('P');
    expect(read.groups.map((g) => g.transactions.length)).toEqual([2, 0]);
    expect(read.groups[0].transactions[0].segments[1].components(1)).toEqual(['HC', 'V2020', 'RT']);
  });

  it('drops trailing empty elements and components', () => {
    expect(writeSegment(['NM1', 'IL', '1', 'DOE', '', '', ''])).toBe('NM1*IL*1*DOE');
    expect(writeSegment(['EB', '1', '', ['HC', 'V2020', '', '']])).toBe('EB*1**HC:V2020');
  });
});
