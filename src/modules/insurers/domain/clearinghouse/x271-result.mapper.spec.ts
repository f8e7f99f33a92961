import { found271 } from '../../../../../test/x12/fixtures';
import { plans271 } from '../../../../../test/x12/mapped271';
import { serializePlan } from '../../../../../test/support/serialize-plan';
import type { BenefitItem, Network, Plan } from '@/lib/benefits/benefit.types';

const R = '2027-01-01';

describe('271 → result mapper: a found subscriber with a dependent', () => {
  const [plan] = plans271(found271());
  const [subscriber, dependent] = plan.persons;

  it('makes one plan from the subscriber loop', () => {
    expect(plans271(found271())).toHaveLength(1);
    const { persons: _persons, ...fields } = plan;
    expect(fields).toEqual({
      status: 'active',
      planName: 'VISION CHOICE PLAN',
      planGroup: 'ACME MANUFACTURING',
      planGroupId: 'G-4455',
      planBeginDate: '2026-01-01',
      planEndDate: '2026-12-31',
      planRefreshDate: null,
      planIsActive: true,
    });
  });

  // What the 2100C and 2100D loops share: the family name, the member id, the street and city.
  const household = {
    lastName: 'DOE',
    memberId: 'DV1234567',
    email: null,
    phone: '',
    isActive: true,
  };
  const street = { line1: '100 MAIN STREET', city: 'AUSTIN', state: 'TX' };

  it.each([
    {
      title: 'maps the subscriber (2100C) field by field',
      person: subscriber,
      fields: {
        ...household,
        firstName: 'JANE',
        dob: '1980-01-15',
        sex: 'female',
        ssnLastFour: '6789',
        type: 'self',
        address: { ...street, line2: 'APT 4', zipcode: '78701-0000' },
      },
    },
    {
      title: 'maps the dependent (2100D): relationship from INS02, member id inherited',
      person: dependent,
      fields: {
        ...household,
        firstName: 'TIMMY',
        dob: '2015-06-10',
        sex: 'male',
        ssnLastFour: null,
        type: 'child',
        address: { ...street, line2: null, zipcode: '78701' },
      },
    },
  ])('$title', ({ person, fields }) => {
    const { plan: _plan, ...mapped } = person;
    expect(mapped).toEqual(fields);
  });

  type Lists = Omit<BenefitItem, 'benefit_code' | 'refresh_date' | 'items'>;
  /** A benefit item refreshed on R: its lists, then its children. */
  const node = (benefit_code: string, lists: Lists, items: BenefitItem[] = []): BenefitItem => ({
    benefit_code,
    refresh_date: R,
    items,
    ...lists,
  });
  /** Both trees open with the routine exam. */
  const exam = (routine: Lists, ...others: BenefitItem[]) =>
    node('exam', {}, [node('exam.routine', routine), ...others]);
  const perVisit = (value: string, comment = 'per visit') => ({
    flags: ['inn' as const],
    comment,
    value,
  });
  const perYear = (flag: Network, value: string, comment = 'per calendar year') => ({
    flags: [flag],
    comment,
    value,
  });
  /**
   * An HSD frequency with no last visit stated: available on the day asked about (docs/api.md,
   * Next eligible dates), said in the rule's words.
   */
  const frequent = (rule: string, kind: 'rolling' | 'calendar_year', months: number): Lists => ({
    frequency: { count: 1, period: { kind, months }, shared_with: [] },
    next_eligible: {
      date: '2026-03-15',
      basis: 'computed',
      explanation: [
        rule,
        'No service that counts against it is on record, so it is available on 2026-03-15.',
      ],
    },
    next_eligible_date: '2026-03-15',
  });
  /** Both persons' plans run through 2026, with no refresh date and no flags. */
  const plan2026 = (insurer_state: Network, items: BenefitItem[], lists: Lists = {}): Plan => ({
    insurer_state,
    items,
    refresh_date: null,
    begin_date: '2026-01-01',
    end_date: '2026-12-31',
    flags: [],
    ...lists,
  });

  it.each([
    {
      title: "builds the subscriber's benefit tree from every EB line it states",
      person: subscriber,
      expected: plan2026(
        'oon',
        [
          exam(
            {
              copayment: [perVisit('10', 'per visit; COPAY APPLIES PER VISIT')],
              allowance: [{ flags: ['oon'], comment: 'per visit', value: '45' }],
              quantity: [{ comment: '1 every 12 months', value: 1 }],
              coinsurance: [{ flags: ['oon'], value: '20' }],
              ...frequent(
                'Routine exam: once every 12 months, counted from the last service.',
                'rolling',
                12,
              ),
            },
            node('exam.contact_lens_fitting', {
              copayment: [perVisit('40')],
              is_authorization_required: [{ flags: ['inn'], value: true }],
            }),
          ),
          node('materials', { copayment: [perVisit('20')] }, [
            node('materials.frames', {
              allowance: [
                perYear('inn', '150', 'per calendar year; ALLOWANCE TOWARD FRAME RETAIL PRICE'),
                perYear('oon', '70'),
              ],
              quantity: [
                {
                  flags: ['inn'],
                  comment: '1 every 24 months; ALLOWANCE TOWARD FRAME RETAIL PRICE',
                  value: 1,
                },
              ],
              ...frequent(
                'Frames: once every 24 months, counted from the last service.',
                'rolling',
                24,
              ),
            }),
            node(
              'materials.spectacle_lenses',
              { copayment: [perVisit('25')], quantity_accepted: [{ flags: ['inn'], value: 1 }] },
              (
                [
                  ['single_vision', '30'],
                  ['bifocal', '50'],
                  ['trifocal', '65'],
                ] as const
              ).map(([kind, allowance]) =>
                node(`materials.spectacle_lenses.${kind}`, {
                  allowance: [perYear('oon', allowance)],
                }),
              ),
            ),
            node('materials.contact_lenses', {
              end_date: '2026-12-31',
              allowance: [perYear('inn', '150')],
            }),
          ]),
        ],
        {
          copayment: [{ comment: 'per visit', value: '5' }],
          // EB*C on 30: the plan's deductible (docs/api.md, Real insurers).
          deductible: [perYear('inn', '50')],
        },
      ),
    },
    {
      title: "builds the dependent's tree from the 2110D lines, in-network only",
      person: dependent,
      expected: plan2026('inn', [
        exam({
          copayment: [perVisit('0', 'per visit; NO EXAM COPAY UNDER AGE 19')],
          quantity: [{ comment: '1 per calendar year', value: 1 }],
          ...frequent(
            'Routine exam: once per calendar year; the count starts again each 1 January.',
            'calendar_year',
            12,
          ),
        }),
      ]),
    },
  ])('$title', ({ person, expected }) => {
    expect(person.plan).toEqual(expected);
  });

  it('renders through the V2 plan serializer like the sandbox plans', () => {
    const body = serializePlan(subscriber.plan) as {
      copayment: unknown[];
      items: { items: { copayment?: unknown[]; quantity?: unknown[] }[] }[];
    };
    expect(body.copayment).toEqual([{ comment: 'per visit', value: '5.0000' }]);
    expect(body.items[0].items[0].copayment).toEqual([
      { flags: ['inn'], comment: 'per visit; COPAY APPLIES PER VISIT', value: '10.0000' },
    ]);
    expect(body.items[0].items[0].quantity).toEqual([{ comment: '1 every 12 months', value: 1 }]);
  });
});
