import { sumDecimals } from '@/platform/kernel/decimal';
import { X12WriteError } from './x12.errors';
import { tokenize } from './x12.tokenizer';
import { read837 } from '../../../test/x12/x837.reader';
import { ProfessionalClaim, write837, x12Amount } from './x837.writer';
import type { EnvelopeSettings } from './x12.writer';
import { check837Structure } from '../../../test/x12/x837.structure';
import { VARIANT_ENVELOPE, variantClaim, X837_VARIANTS } from '../../../test/x12/x837.variants';

const envelope = VARIANT_ENVELOPE;
const claim = variantClaim;

/** Every 837P a test writes passes the guide's loop and segment usage check (docs/api.md, Claims). */
const write = (c: ProfessionalClaim, env: EnvelopeSettings = envelope): string => {
  const text = write837(c, env);
  expect(check837Structure(text, { patientPaid: Number(c.paidAmount) > 0 })).toEqual([]);
  return text;
};

describe('837P writer (005010X222A1)', () => {
  it('writes the segments in the order of the guide and counts them in SE01', () => {
    const read = read837(write(claim()));
    expect(read.segmentIds).toEqual([
      'ST',
      'BHT',
      'NM1',
      'PER',
      'NM1',
      'HL',
      'PRV',
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
      'NM1',
      'PRV',
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
    const read = read837(write(claim()));
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
    const read = read837(write(claim()));
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
    const read = read837(write(claim()));
    expect(read.patient).toBeNull();
    expect(read.subscriberRelationship).toBe('18');
    expect(read.segmentIds).not.toContain('PAT');
  });

  it('writes the patient loop, with the claim under it, when the patient is not the subscriber', () => {
    const text = write(X837_VARIANTS['dependent patient']);
    const read = read837(text);
    expect(read.subscriberRelationship).toBe('');
    expect(read.patient).toEqual({
      relationship: '19',
      name: expect.objectContaining({ entity: 'QC', lastName: 'GONZALEZ', firstName: 'LUCIA' }),
      demographics: { dob: '2016-02-03', sex: 'F' },
    });
    expect(text).toContain('HL*2*1*22*1~');
    // 2010BA carries no N3/N4/DMG for a dependent's claim; 2010CA takes the primary member's address.
    expect(text).toContain(
      'NM1*IL*1*GONZALEZ*MARIA****MI*VSP104882211~NM1*PR*2*VSP VISION CARE*****PI*VSP01~',
    );
    expect(text).toContain(
      'HL*3*2*23*0~PAT*19~NM1*QC*1*GONZALEZ*LUCIA~N3*1208 CONGRESS AVE*APT 4B~N4*AUSTIN*TX*78701~DMG*D8*20160203*F~CLM*',
    );
    expect(read.services).toHaveLength(3);
  });

  it('lists each diagnosis once (principal ABK, then ABF) and points lines at theirs', () => {
    const read = read837(write(claim()));
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
    const text = write(claim());
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
    const read = read837(write(claim(), { ...envelope, separators }));
    expect(read.totalCharge).toBe('1401.25');
    expect(read.services[1].pointers).toEqual([1, 2]);
  });

  it('marks assigned benefits in CLM07 and CLM08', () => {
    const text = write(claim({ acceptAssignment: true }));
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

  it('writes 2010AA with the street address, ZIP+4, the tax id and the taxonomy (PRV*BI)', () => {
    const text = write(claim());
    expect(text).toContain(
      'HL*1**20*1~PRV*BI*PXC*152W00000X~NM1*85*2*CLEAR SIGHT OPTOMETRY*****XX*1234567893~N3*500 W 2ND ST~N4*AUSTIN*TX*787011234~REF*EI*741234567~HL*2*1*22*0~',
    );
  });

  it('names the rendering provider in 2310B (NM1*82*1, PRV*PE) after the diagnoses', () => {
    const text = write(X837_VARIANTS['rendering provider per claim']);
    expect(text).toContain("~NM1*82*1*O'BRIEN*OWEN****XX*1003000126~PRV*PE*PXC*152WC0802X~LX*1~");
  });

  it('bills every code of a line: the procedure and up to four modifiers', () => {
    const read = read837(write(X837_VARIANTS['6 lines with modifiers and diagnosis pointers']));
    expect(read.services.map((s) => s.procedure)).toEqual([
      ['HC', '92014'],
      ['HC', '92015', 'GY'],
      ['HC', 'V2100', 'RT', 'LT'],
      ['HC', 'V2781', 'RT'],
      ['HC', 'V2781', 'LT'],
      ['HC', 'V2020', 'NU', 'GA', 'RT', 'LT'],
    ]);
    expect(read.diagnoses).toEqual(['H5213', 'H524']);
    expect(read.services.map((s) => s.pointers)).toEqual([[1, 2], [2], [1], [2, 1], [2], [1]]);
  });

  it('carries 12 diagnoses in one HI, each line pointing to its own four', () => {
    const read = read837(write(X837_VARIANTS['12 diagnoses']));
    expect(read.diagnoses).toHaveLength(12);
    expect(read.diagnosisQualifiers).toEqual(['ABK', ...Array<string>(11).fill('ABF')]);
    expect(read.services.map((s) => s.pointers)).toEqual([
      [1, 2, 3, 4],
      [5, 6, 7, 8],
      [9, 10, 11, 12],
    ]);
  });

  it('sends AMT*F5 with what the patient paid, only when above zero', () => {
    expect(write(X837_VARIANTS['paid amount above zero'])).toContain('~AMT*F5*1200.75~HI*');
    expect(write(X837_VARIANTS['paid amount zero'])).not.toContain('AMT*');
  });

  it('makes a patient with a member id of their own the subscriber: no 2000C loop', () => {
    const text = write(X837_VARIANTS['dependent with their own member id (the subscriber)']);
    const read = read837(text);
    expect(read.patient).toBeNull();
    expect(read.subscriber).toMatchObject({ firstName: 'LUCIA', id: 'VSP55501' });
    expect(text).toContain('SBR*P*18*GRP-1******CI~');
    expect(read.subscriberDemographics).toEqual({ dob: '2016-02-03', sex: 'F' });
  });

  it('transliterates names and addresses to the X12 basic character set', () => {
    const text = write(X837_VARIANTS['transliterated names']);
    expect(text).toContain('NM1*85*2*OPTICA PENA & SON*****XX*1234567893~N3*500 NANDU BLVD~');
    expect(text).toContain('N4*ESPANOLA*NM*875322611~');
    expect(text).toContain('NM1*IL*1*NUNEZ-OSTER*JOSE ANGEL****MI*EM55501234~');
    expect(text).toContain('N3*CALLE SENORA HOSS 12*PISO 3O~N4*SAN JOSE*CA*951124401~');
    const body = text.slice(text.indexOf('~ST*') + 1);
    // Outside the ISA, only the basic set, the separators and the contact e-mail's `@`.
    expect(body.replace('claims@clearsight.test', '')).toMatch(/^[A-Z0-9 !"&'()*+,\-./:;?=~^]*$/);
  });

  it('refuses what the guide requires and a claim lacks (the submitter sends those on paper)', () => {
    const base = claim();
    const cases: [Partial<ProfessionalClaim>, RegExp][] = [
      [{ billingProvider: { ...base.billingProvider, taxId: '' } }, /tax id/],
      [
        {
          billingProvider: {
            ...base.billingProvider,
            address: { ...base.billingProvider.address, zipcode: '78701' },
          },
        },
        /ZIP\+4/,
      ],
      [{ renderingProvider: { ...base.renderingProvider, npi: '1234567893' } }, /individual/],
      [{ subscriber: { ...base.subscriber, address: null } }, /address and a sex/],
      [{ subscriber: { ...base.subscriber, sex: null } }, /address and a sex/],
      [{ services: [{ ...base.services[0], cost: '0' }] }, /above zero/],
      [
        { services: [{ ...base.services[0], codes: ['92014', '92015'] }] },
        /One procedure code per service line/,
      ],
    ];
    for (const [over, message] of cases)
      expect(() => write837(claim(over), envelope)).toThrow(message);
  });
});
