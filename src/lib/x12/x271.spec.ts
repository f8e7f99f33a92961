import { aaa271, found271 } from '../../../test/x12/fixtures';
import { read271 } from './x271.reader';

describe('271 reader', () => {
  const [response] = read271(found271({ trace: 'T-42' })).responses;
  const [source] = response.sources;
  const [receiver] = source.receivers;
  const [subscriber] = receiver.subscribers;

  it('reads the header and the payer and provider loops (2000A/2100A, 2000B/2100B)', () => {
    expect(response).toMatchObject({
      controlNumber: '0001',
      reference: 'T-42',
      date: '2026-03-15',
    });
    expect(source.name).toMatchObject({
      entity: 'PR',
      lastName: 'DAVIS VISION',
      idQualifier: 'PI',
      id: 'QKZWY',
    });
    expect(source.validations).toEqual([]);
    expect(receiver.name).toMatchObject({ entity: '1P', idQualifier: 'XX', id: '1234567893' });
    expect(receiver.subscribers).toHaveLength(1);
  });

  it('reads the subscriber loop (2000C/2100C): traces, name, REF, N3/N4, DMG, INS, DTP', () => {
    expect(subscriber.traces).toEqual([
      { type: '2', trace: 'T-42', originator: '9VISIONELG', secondary: '' },
      { type: '1', trace: 'PAYER-77', originator: '1999999999', secondary: '' },
    ]);
    expect(subscriber.member.name).toEqual({
      entity: 'IL',
      entityType: '1',
      lastName: 'DOE',
      firstName: 'JANE',
      middleName: 'Q',
      suffix: '',
      idQualifier: 'MI',
      id: 'DV1234567',
    });
    expect(subscriber.member.references).toEqual([
      { qualifier: '6P', value: 'G-4455', description: 'ACME MANUFACTURING' },
      { qualifier: 'SY', value: '123456789', description: '' },
    ]);
    expect(subscriber.member.address).toEqual({
      line1: '100 MAIN STREET',
      line2: 'APT 4',
      city: 'AUSTIN',
      state: 'TX',
      zip: '787010000',
      country: '',
    });
    expect(subscriber.member.demographics).toEqual({ dob: '1980-01-15', sex: 'F' });
    expect(subscriber.member.relationship).toEqual({ subscriber: true, code: '18' });
    expect(subscriber.member.dates).toEqual([
      { qualifier: '346', format: 'D8', from: '2026-01-01', to: '2026-01-01' },
      { qualifier: '347', format: 'D8', from: '2026-12-31', to: '2026-12-31' },
    ]);
  });

  it('reads every 2110C loop: EB with its HSD, MSG, DTP and the 2120 entity inside LS/LE', () => {
    expect(subscriber.benefits.map((b) => `${b.eb.info}:${b.eb.serviceTypes.join('^')}`)).toEqual([
      '1:AL',
      'B:30',
      'C:30',
      'B:AN',
      'F:AN',
      'F:AN',
      'A:AN',
      'F:AM',
      'F:AM',
      'B:AO',
      'F:AO',
      'F:AO',
      'F:AO',
      'F:AO',
      'F:',
      'B:CP',
      'B:',
    ]);
    const [plan, , , examCopay, examOon, examQuantity, coinsurance] = subscriber.benefits;
    expect(plan.eb).toMatchObject({
      info: '1',
      coverageLevel: 'FAM',
      insuranceType: 'VIS',
      planDescription: 'VISION CHOICE PLAN',
      amount: null,
    });
    expect(examCopay.eb).toMatchObject({
      info: 'B',
      timePeriod: '27',
      amount: '10',
      inPlanNetwork: 'Y',
    });
    expect(examCopay.messages).toEqual(['COPAY APPLIES PER VISIT']);
    expect(examOon.eb).toMatchObject({ amount: '45', inPlanNetwork: 'N' });
    expect(examQuantity.eb).toMatchObject({
      quantityQualifier: 'VS',
      quantity: '1',
      inPlanNetwork: 'W',
    });
    expect(examQuantity.deliveries).toEqual([
      {
        quantityQualifier: 'VS',
        quantity: '1',
        periodQualifier: '34',
        periodCount: '12',
        frequency: '',
        pattern: '',
      },
    ]);
    expect(coinsurance.eb).toMatchObject({
      info: 'A',
      percent: '0.2',
      amount: null,
      inPlanNetwork: 'N',
    });
  });

  it('reads procedure composites, 2110 date ranges, authorisation flags and LS/LE entities', () => {
    const lines = subscriber.benefits;
    expect(lines[10].eb).toMatchObject({
      quantityQualifier: '99',
      quantity: '1',
      inPlanNetwork: 'Y',
    });
    expect(lines[11].eb.procedure).toEqual({ qualifier: 'HC', code: 'V2100', modifiers: [] });
    expect(lines[14].eb).toMatchObject({
      serviceTypes: [],
      amount: '150',
      procedure: { code: 'V2500' },
    });
    expect(lines[14].dates).toEqual([
      { qualifier: '292', format: 'RD8', from: '2026-01-01', to: '2026-12-31' },
    ]);
    expect(lines[16].eb).toMatchObject({
      authorizationRequired: 'Y',
      inPlanNetwork: 'Y',
      amount: '40',
    });
    expect(lines[16].related).toEqual([
      {
        name: {
          entity: 'P3',
          entityType: '1',
          lastName: 'SMITH',
          firstName: 'ALAN',
          middleName: '',
          suffix: '',
          idQualifier: 'XX',
          id: '1234567893',
        },
        address: null,
        phone: null,
      },
    ]);
  });

  it('reads the dependent loop (2000D/2100D/2110D) under its subscriber', () => {
    expect(subscriber.dependents).toHaveLength(1);
    const [timmy] = subscriber.dependents;
    expect(timmy.traces.map((t) => t.trace)).toEqual(['T-42']);
    expect(timmy.member.name).toMatchObject({
      entity: '03',
      lastName: 'DOE',
      firstName: 'TIMMY',
      id: '',
    });
    expect(timmy.member.demographics).toEqual({ dob: '2015-06-10', sex: 'M' });
    expect(timmy.member.relationship).toEqual({ subscriber: false, code: '19' });
    expect(timmy.member.address).toMatchObject({
      line1: '100 MAIN STREET',
      line2: null,
      zip: '78701',
    });
    expect(timmy.member.dates).toEqual([
      { qualifier: '291', format: 'RD8', from: '2026-01-01', to: '2026-12-31' },
    ]);
    expect(timmy.benefits.map((b) => b.eb.info)).toEqual(['1', 'B', 'F']);
    expect(timmy.benefits[1].messages).toEqual(['NO EXAM COPAY UNDER AGE 19']);
    expect(timmy.benefits[2].deliveries[0]).toMatchObject({
      quantity: '1',
      periodQualifier: '23',
      periodCount: null,
    });
  });

  it.each([
    ['2100A', '42', 'R'],
    ['2100B', '43', 'N'],
    ['2100C', '75', 'C'],
  ] as const)('reads an AAA in %s', (loop, reason, followUp) => {
    const [answer] = read271(aaa271(loop, reason, followUp)).responses;
    const validation = { valid: reason === '42', reason, followUp, loop };
    const [payer] = answer.sources;
    if (loop === '2100A') {
      expect(payer.validations).toEqual([validation]);
      expect(payer.receivers).toEqual([]);
    } else if (loop === '2100B') {
      expect(payer.receivers[0].validations).toEqual([validation]);
      expect(payer.receivers[0].subscribers).toEqual([]);
    } else {
      const [jane] = payer.receivers[0].subscribers;
      expect(jane.member.validations).toEqual([validation]);
      expect(jane.member.demographics).toEqual({ dob: '1980-01-15', sex: '' });
      expect(jane.benefits).toEqual([]);
    }
  });

  it.each([
    ['pipes and newlines', { element: '|', repetition: '^', component: '>', segment: '~' }, '\n'],
    [
      'carets as element separators',
      { element: '^', repetition: '{', component: '\\', segment: '~' },
      '',
    ],
    [
      'line feeds as segment terminators',
      { element: '!', repetition: '^', component: ':', segment: '\n' },
      '',
    ],
    [
      'exotic choices with CRLF',
      { element: '+', repetition: '`', component: '<', segment: "'" },
      '\r\n',
    ],
  ])('reads the same 271 written with %s', (_name, separators, newline) => {
    const again = read271(found271({ trace: 'T-42', separators, newline })).responses[0];
    expect(again).toEqual(response);
  });
});
