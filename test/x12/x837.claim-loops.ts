import { MAY, R, WHEN, leaf, nm1, n4, prv, seg, type LoopRule, type Usage } from './x837.rules';

/** The 837P's claim loops (2300 and its 2310A-D, 2320 and 2400), used under 2000B and 2000C. */

const LOOP_2400: LoopRule = leaf('2400', 'Service line', R, 50, [
  seg('LX', 'Service line number', R),
  seg('SV1', 'Professional service', R, 1, undefined, (s) => {
    const parts = s.components(1);
    if (parts[0] !== 'HC' || !/^[A-Z0-9]{5}$/.test(parts[1] ?? ''))
      return 'SV101 must be HC and a CPT/HCPCS code';
    if (parts.length > 6 || parts.slice(2).some((m) => !/^[A-Z0-9]{2}$/.test(m)))
      return 'SV101-3 to SV101-6 are two-character modifiers';
    if (!['UN', 'MJ'].includes(s.el(3))) return 'SV103 must be UN or MJ';
    if (s.components(7).length < 1 || s.components(7).length > 4)
      return 'SV107 points to 1 to 4 diagnoses';
    return null;
  }),
  seg('SV5', 'Durable medical equipment service', MAY('required for DME rentals')),
  seg('PWK', 'Line supplemental information', MAY('when attachments are sent'), 10),
  seg('CR1', 'Ambulance transport information', MAY('ambulance services')),
  seg('CR3', 'Durable medical equipment certification', MAY('DME')),
  seg('CRC', 'Condition indicators', MAY('vision replacement and others'), 3),
  seg('DTP', 'Date - service date', R, 1, ['472'], (s) =>
    s.el(2) === 'D8' || s.el(2) === 'RD8' ? null : 'DTP02 must be D8 or RD8',
  ),
  seg('DTP', 'Other line dates', MAY('other dates of the line'), 10, [
    '471',
    '607',
    '463',
    '461',
    '304',
    '738',
    '739',
    '011',
    '455',
    '454',
    '453',
    '012',
    '478',
    '151',
  ]),
  seg('QTY', 'Quantities', MAY('ambulance or anesthesia'), 2),
  seg('MEA', 'Test result', MAY('test results'), 5),
  seg('CN1', 'Contract information', MAY('contracted services')),
  seg('REF', 'Line references', MAY('line identifiers'), 10),
  seg('AMT', 'Line amounts', MAY('sales tax or postage'), 2),
  seg('K3', 'File information', MAY('regulatory data'), 10),
  seg('NTE', 'Line note', MAY('when a note is needed'), 2),
  seg('PS1', 'Purchased service information', MAY('purchased services')),
  seg('HCP', 'Line pricing', MAY('repricers')),
]);

export const LOOP_2300 = (usage: Usage): LoopRule => ({
  id: '2300',
  name: 'Claim information',
  usage,
  max: 100,
  segments: [
    seg('CLM', 'Claim information', R, 1, undefined, (s) =>
      s.el(1) === '' || !/^\d+(\.\d+)?$/.test(s.el(2))
        ? 'CLM01 and CLM02 (the total charge) are required'
        : s.components(5)[1] !== 'B'
          ? 'CLM05-2 must be B'
          : null,
    ),
    seg('DTP', 'Claim dates', MAY('onset, accident, last seen and other dates'), 20),
    seg('PWK', 'Claim supplemental information', MAY('when attachments are sent'), 10),
    seg('CN1', 'Contract information', MAY('contracted claims')),
    seg(
      'AMT',
      'Patient amount paid',
      WHEN(
        'required when the patient has paid any amount; otherwise not sent',
        (f) => f.patientPaid,
      ),
      1,
      ['F5'],
      (s) =>
        /^\d+(\.\d+)?$/.test(s.el(2)) && Number(s.el(2)) > 0 ? null : 'AMT02 must be above zero',
    ),
    seg('REF', 'Claim references', MAY('prior authorisation, original reference and others'), 14),
    seg('K3', 'File information', MAY('regulatory data'), 10),
    seg('NTE', 'Claim note', MAY('when a note is needed')),
    seg('CR1', 'Ambulance transport', MAY('ambulance claims')),
    seg('CR2', 'Spinal manipulation', MAY('chiropractic claims')),
    seg('CRC', 'Condition information', MAY('EPSDT, vision and homebound conditions'), 8),
    seg('HI', 'Health care diagnosis code', R, 1, undefined, (s) => {
      const codes = s.elements.slice(1).filter((e) => e !== '');
      if (codes.length > 12) return 'HI carries at most 12 diagnoses';
      return s.components(1)[0] === 'ABK' &&
        codes.slice(1).every((_, i) => s.components(i + 2)[0] === 'ABF')
        ? null
        : 'HI01-1 must be ABK and the others ABF';
    }),
    seg('HI', 'Anesthesia related procedure', MAY('anesthesia claims'), 1, ['BP']),
    seg('HI', 'Condition information', MAY('condition codes'), 2, ['BG']),
    seg('HCP', 'Claim pricing', MAY('repricers')),
  ],
  children: [
    leaf('2310A', 'Referring provider', MAY('when the claim involves a referral'), 2, [
      nm1('DN', 'Referring provider name', '1', 'XX'),
      seg('REF', 'Secondary id', MAY('payer-assigned ids'), 3),
    ]),
    {
      id: '2310B',
      name: 'Rendering provider',
      // The billing provider is an organisation, so the individual who rendered is named.
      usage: WHEN(
        'required when the rendering provider is not the billing provider (always when the billing provider is an organisation)',
        (f) => f.billingProviderIsOrganisation,
        true,
      ),
      max: 1,
      segments: [
        nm1('82', 'Rendering provider name', '1', 'XX'),
        prv(
          'PE',
          'Rendering provider specialty',
          MAY('required when the payer needs the taxonomy; docs/api.md, Claims sends it'),
        ),
        seg('REF', 'Secondary id', MAY('payer-assigned ids'), 4),
      ],
      children: [],
    },
    leaf(
      '2310C',
      'Service facility location',
      MAY('when the service was rendered elsewhere than the billing address'),
      1,
      [
        seg('NM1', 'Service facility name', R, 1, ['77']),
        seg('N3', 'Address', R),
        n4(R),
        seg('REF', 'Secondary id', MAY('payer-assigned ids'), 3),
        seg('PER', 'Contact', MAY('ambulance claims')),
      ],
    ),
    leaf('2310D', 'Supervising provider', MAY('when the rendering provider is supervised'), 1, [
      nm1('DQ', 'Supervising provider name', '1', 'XX'),
      seg('REF', 'Secondary id', MAY('ids'), 4),
    ]),
    leaf('2320', 'Other subscriber information', MAY('required when other payers are known'), 10, [
      seg('SBR', 'Other subscriber information', R),
    ]),
    LOOP_2400,
  ],
});
