import { found271 } from '../../../../test/x12/fixtures';
import { plans271 } from '../../../../test/x12/mapped271';
import { serializePlan } from '@/modules/benefits/benefit.serializer';
import type { Plan } from '@/modules/benefits/benefit.types';

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

  it('maps the subscriber (2100C) field by field', () => {
    const { plan: _plan, ...fields } = subscriber;
    expect(fields).toEqual({
      firstName: 'JANE',
      lastName: 'DOE',
      dob: '1980-01-15',
      sex: 'female',
      memberId: 'DV1234567',
      ssnLastFour: '6789',
      type: 'self',
      address: {
        line1: '100 MAIN STREET',
        line2: 'APT 4',
        city: 'AUSTIN',
        zipcode: '78701-0000',
        state: 'TX',
      },
      email: null,
      phone: '',
      isActive: true,
    });
  });

  it('maps the dependent (2100D): relationship from INS02, member id inherited', () => {
    const { plan: _plan, ...fields } = dependent;
    expect(fields).toEqual({
      firstName: 'TIMMY',
      lastName: 'DOE',
      dob: '2015-06-10',
      sex: 'male',
      memberId: 'DV1234567',
      ssnLastFour: null,
      type: 'child',
      address: {
        line1: '100 MAIN STREET',
        line2: null,
        city: 'AUSTIN',
        zipcode: '78701',
        state: 'TX',
      },
      email: null,
      phone: '',
      isActive: true,
    });
  });

  it("builds the subscriber's benefit tree from every EB line it states", () => {
    const expected: Plan = {
      insurer_state: 'oon',
      items: [
        {
          benefit_code: 'exam',
          refresh_date: R,
          items: [
            {
              benefit_code: 'exam.routine',
              refresh_date: R,
              items: [],
              copayment: [
                { flags: ['inn'], comment: 'per visit; COPAY APPLIES PER VISIT', value: '10' },
              ],
              allowance: [{ flags: ['oon'], comment: 'per visit', value: '45' }],
              quantity: [{ comment: '1 every 12 months', value: 1 }],
              coinsurance: [{ flags: ['oon'], value: '20' }],
            },
            {
              benefit_code: 'exam.contact_lens_fitting',
              refresh_date: R,
              items: [],
              copayment: [{ flags: ['inn'], comment: 'per visit', value: '40' }],
              is_authorization_required: [{ flags: ['inn'], value: true }],
            },
          ],
        },
        {
          benefit_code: 'materials',
          refresh_date: R,
          copayment: [{ flags: ['inn'], comment: 'per visit', value: '20' }],
          items: [
            {
              benefit_code: 'materials.frames',
              refresh_date: R,
              items: [],
              allowance: [
                {
                  flags: ['inn'],
                  comment: 'per calendar year; ALLOWANCE TOWARD FRAME RETAIL PRICE',
                  value: '150',
                },
                { flags: ['oon'], comment: 'per calendar year', value: '70' },
              ],
              quantity: [
                {
                  flags: ['inn'],
                  comment: '1 every 24 months; ALLOWANCE TOWARD FRAME RETAIL PRICE',
                  value: 1,
                },
              ],
            },
            {
              benefit_code: 'materials.spectacle_lenses',
              refresh_date: R,
              copayment: [{ flags: ['inn'], comment: 'per visit', value: '25' }],
              quantity_accepted: [{ flags: ['inn'], value: 1 }],
              items: [
                {
                  benefit_code: 'materials.spectacle_lenses.single_vision',
                  refresh_date: R,
                  items: [],
                  allowance: [{ flags: ['oon'], comment: 'per calendar year', value: '30' }],
                },
                {
                  benefit_code: 'materials.spectacle_lenses.bifocal',
                  refresh_date: R,
                  items: [],
                  allowance: [{ flags: ['oon'], comment: 'per calendar year', value: '50' }],
                },
                {
                  benefit_code: 'materials.spectacle_lenses.trifocal',
                  refresh_date: R,
                  items: [],
                  allowance: [{ flags: ['oon'], comment: 'per calendar year', value: '65' }],
                },
              ],
            },
            {
              benefit_code: 'materials.contact_lenses',
              refresh_date: R,
              end_date: '2026-12-31',
              items: [],
              allowance: [{ flags: ['inn'], comment: 'per calendar year', value: '150' }],
            },
          ],
        },
      ],
      refresh_date: null,
      begin_date: '2026-01-01',
      end_date: '2026-12-31',
      flags: [],
      copayment: [{ comment: 'per visit', value: '5' }],
      // EB*C on 30: the plan's deductible (docs/api.md, Real insurers).
      deductible: [{ flags: ['inn'], comment: 'per calendar year', value: '50' }],
    };
    expect(subscriber.plan).toEqual(expected);
  });

  it("builds the dependent's tree from the 2110D lines, in-network only", () => {
    expect(dependent.plan).toEqual({
      insurer_state: 'inn',
      items: [
        {
          benefit_code: 'exam',
          refresh_date: R,
          items: [
            {
              benefit_code: 'exam.routine',
              refresh_date: R,
              items: [],
              copayment: [
                { flags: ['inn'], comment: 'per visit; NO EXAM COPAY UNDER AGE 19', value: '0' },
              ],
              quantity: [{ comment: '1 per calendar year', value: 1 }],
            },
          ],
        },
      ],
      refresh_date: null,
      begin_date: '2026-01-01',
      end_date: '2026-12-31',
      flags: [],
    });
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
