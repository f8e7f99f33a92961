import { MAY, R, WHEN, leaf, dmg, hl, nm1, n4, prv, seg, type LoopRule } from './x837.rules';
import { LOOP_2300 } from './x837.claim-loops';

const SUBSCRIBER_IS_PATIENT =
  'required when the patient is the subscriber (SBR02 18); otherwise not sent';

/** The 837P's loops and segments (005010X222A1), from BHT to the last 2400. */
export const TRANSACTION: LoopRule = {
  id: 'header',
  name: 'Transaction set header',
  usage: R,
  max: 1,
  segments: [
    seg('BHT', 'Beginning of hierarchical transaction', R, 1, undefined, (s) =>
      s.el(1) === '0019' && ['00', '18'].includes(s.el(2)) && s.el(6) === 'CH'
        ? null
        : 'BHT01 must be 0019, BHT02 00 or 18, BHT06 CH',
    ),
  ],
  children: [
    leaf('1000A', 'Submitter', R, 1, [
      nm1('41', 'Submitter name', null, '46'),
      seg('PER', 'Submitter contact', R, 2, ['IC']),
    ]),
    leaf('1000B', 'Receiver', R, 1, [nm1('40', 'Receiver name', '2', '46')]),
    {
      id: '2000A',
      name: 'Billing provider level',
      usage: R,
      max: 1000,
      segments: [
        hl('20', true),
        prv(
          'BI',
          'Billing provider specialty',
          MAY(
            'required when the payer needs the taxonomy to adjudicate; docs/api.md, Claims sends it',
          ),
        ),
        seg('CUR', 'Foreign currency', MAY('when not US dollars')),
      ],
      children: [
        leaf('2010AA', 'Billing provider', R, 1, [
          nm1('85', 'Billing provider name', null, 'XX'),
          seg('N3', 'Billing provider address', R),
          n4(R, true),
          seg('REF', 'Billing provider tax id', R, 1, ['EI', 'SY'], (s) =>
            s.el(1) === 'EI' && !/^\d{9}$/.test(s.el(2)) ? 'REF02 must be the 9-digit EIN' : null,
          ),
          seg('REF', 'Billing provider UPIN/license', MAY('payer-assigned ids'), 2, ['0B', '1G']),
          seg('PER', 'Billing provider contact', MAY('when the submitter is not the contact'), 2),
        ]),
        leaf(
          '2010AB',
          'Pay-to address',
          MAY('required when the pay-to address differs from the billing address'),
          1,
          [seg('NM1', 'Pay-to address name', R, 1, ['87']), seg('N3', 'Address', R), n4(R)],
        ),
        {
          id: '2000B',
          name: 'Subscriber level',
          usage: R,
          max: 1000,
          segments: [
            hl('22', false),
            seg('SBR', 'Subscriber information', R, 1, undefined, (s) =>
              !['P', 'S', 'T'].includes(s.el(1))
                ? 'SBR01 must be P, S or T'
                : !['', '18'].includes(s.el(2))
                  ? 'SBR02 is 18 or empty'
                  : s.el(9) === ''
                    ? 'SBR09 (the claim filing indicator) is required'
                    : null,
            ),
            seg(
              'PAT',
              'Patient information',
              WHEN(
                'sent only when the patient is the subscriber and deceased or pregnant',
                () => false,
                false,
              ),
            ),
          ],
          children: [
            leaf('2010BA', 'Subscriber', R, 1, [
              nm1('IL', 'Subscriber name', null, 'MI'),
              seg(
                'N3',
                'Subscriber address',
                WHEN(SUBSCRIBER_IS_PATIENT, (f) => f.patientIsSubscriber),
              ),
              n4(WHEN(SUBSCRIBER_IS_PATIENT, (f) => f.patientIsSubscriber)),
              dmg(WHEN(SUBSCRIBER_IS_PATIENT, (f) => f.patientIsSubscriber)),
              seg(
                'REF',
                'Subscriber secondary id',
                MAY('SSN or property and casualty claim number'),
                2,
                ['SY', 'Y4'],
              ),
              seg('PER', 'Property and casualty contact', MAY('property and casualty claims')),
            ]),
            leaf('2010BB', 'Payer', R, 1, [
              nm1('PR', 'Payer name', '2', 'PI'),
              seg('N3', 'Payer address', MAY('when the payer wants it')),
              n4(MAY('when the payer wants it')),
              seg('REF', 'Payer secondary id', MAY('payer-assigned ids'), 4),
            ]),
            LOOP_2300(
              WHEN(
                'required when the patient is the subscriber; otherwise the claim goes under 2000C',
                (f) => f.patientIsSubscriber,
              ),
            ),
            {
              id: '2000C',
              name: 'Patient level',
              usage: WHEN(
                'required when the patient is not the subscriber; not sent when SBR02 is 18',
                (f) => !f.patientIsSubscriber,
              ),
              max: 1000,
              segments: [
                hl('23', false),
                seg('PAT', 'Patient information', R, 1, undefined, (s) =>
                  ['01', '19', '20', '21', '39', '40', '53', 'G8'].includes(s.el(1))
                    ? null
                    : 'PAT01 is not an individual relationship code of the guide',
                ),
              ],
              children: [
                leaf('2010CA', 'Patient', R, 1, [
                  nm1('QC', 'Patient name', '1', null),
                  seg('N3', 'Patient address', R),
                  n4(R),
                  dmg(R),
                  seg(
                    'REF',
                    'Property and casualty claim number',
                    MAY('property and casualty claims'),
                  ),
                  seg('PER', 'Property and casualty contact', MAY('property and casualty claims')),
                ]),
                LOOP_2300(R),
              ],
            },
          ],
        },
      ],
    },
  ],
};
