import fc from 'fast-check';
import { buildPlan, PLAN_VARIANTS, type PlanShape } from '@/modules/insurers/domain/demo/demo-plan';
import { serializePlan } from '../../../test/support/serialize-plan';
import { serializePlanJson } from './benefit.serializer';
import type { BenefitFlag, BenefitItem, FlagEntry, Plan } from './benefit.types';

/**
 * serializePlanJson writes what JSON.stringify(serializePlan(plan)) writes, byte for byte: the
 * stored V2 bodies must not change with the faster writer.
 */

const dates = { begin: '2026-01-01', end: '2026-12-31', refresh: '2027-01-01' };

const texts = [
  'plain',
  '',
  'quote " and \\ backslash',
  'line\nbreak\ttab',
  'ünïcödé',
  '😀',
  '\ud800 lone',
  '\u2028\u2029',
  '\u0001control',
  '</script>',
];
const decimals = [
  '0',
  '10',
  '12.5',
  '-3',
  '0012.50',
  '7.1234',
  '99999999.9',
  '-0',
  '0.0001',
  '1000',
];

/** An entry of a list, with or without flags and a comment. */
const entry = <T>(value: fc.Arbitrary<T>) =>
  fc.record(
    {
      flags: fc.constantFrom<BenefitFlag[]>([], ['inn'], ['oon', 'required']),
      comment: fc.constantFrom(...texts),
      value,
    },
    { requiredKeys: ['value'] },
  ) as fc.Arbitrary<FlagEntry<T>>;

const list = <T>(value: fc.Arbitrary<T>) => fc.array(entry(value), { maxLength: 2 });
const decimalList = list(fc.constantFrom(...decimals));

/** Items three levels deep at most, any key but the code and refresh date may be missing. */
const { item } = fc.letrec<{ item: BenefitItem }>((tie) => ({
  item: fc.record(
    {
      benefit_code: fc.constantFrom('exam', 'frames.standard', 'lenses "odd"', '😀'),
      refresh_date: fc.constantFrom('2027-01-01', undefined as unknown as string),
      flags: fc.constantFrom<BenefitFlag[]>([], ['exclusive-use']),
      comment: fc.constantFrom(...texts),
      copayment: list(fc.constantFrom(...decimals, null as unknown as string)),
      allowance: decimalList,
      quantity: list(fc.constantFrom(0, 1, 2, undefined as unknown as number)),
      is_authorization_required: list(fc.boolean()),
      items: fc.oneof(
        { maxDepth: 2, depthIdentifier: 'item' },
        fc.constant([]),
        fc.array(tie('item'), { maxLength: 2 }),
      ),
      end_date: fc.constantFrom('2026-12-31', '', null as unknown as string),
      deductible: decimalList,
      last_service_date: fc.constantFrom('2025-06-01', undefined as unknown as string),
      next_eligible_date: fc.constantFrom('2026-06-01', ''),
    },
    { requiredKeys: ['benefit_code', 'refresh_date'] },
  ) as fc.Arbitrary<BenefitItem>,
}));

const randomPlan = fc.record(
  {
    insurer_state: fc.constantFrom('inn' as const, 'oon' as const),
    items: fc.array(item, { minLength: 1, maxLength: 2 }),
    refresh_date: fc.constantFrom('2027-01-01', null, undefined as unknown as null),
    begin_date: fc.constantFrom('2026-01-01', null),
    end_date: fc.constantFrom('2026-12-31', null),
    flags: fc.constantFrom([], ['oon'], undefined as unknown as string[]),
    discount: decimalList,
    deductible: decimalList,
    is_authorization_required: list(fc.boolean()),
    comment: fc.constantFrom(...texts),
    carve_out: fc.record({
      name: fc.constantFrom(...texts),
      payer_id: fc.constantFrom('EYEMED', null),
      phone: fc.constantFrom('8005551212', null, undefined as unknown as null),
    }),
    other_payers: fc.array(
      fc.record({
        name: fc.constantFrom(...texts),
        payer_id: fc.constantFrom('60054', null),
        member_id: fc.constantFrom('W123', null, undefined as unknown as null),
      }),
      { maxLength: 2 },
    ),
  },
  {
    requiredKeys: ['insurer_state', 'items', 'refresh_date', 'begin_date', 'end_date', 'flags'],
  },
) as fc.Arbitrary<Plan>;

describe('serializePlanJson', () => {
  it('writes the sandbox plans as JSON.stringify(serializePlan(plan)) does', () => {
    const shapes: PlanShape[] = [];
    for (const detail of ['summary', 'full'] as const)
      for (const markUsed of [false, true])
        for (const noOon of [false, true])
          shapes.push({ detail, markUsed, examUsed: markUsed, noOon, noInn: false });
    for (const variant of PLAN_VARIANTS)
      for (const shape of shapes) {
        const plan = buildPlan(variant, dates, shape);
        expect(serializePlanJson(plan)).toBe(JSON.stringify(serializePlan(plan)));
      }
  });

  it('writes 2,000 random plans with odd text, decimals and missing keys the same way', () => {
    fc.assert(
      fc.property(randomPlan, (plan) => {
        expect(serializePlanJson(plan)).toBe(JSON.stringify(serializePlan(plan)));
      }),
      { seed: 15, numRuns: 2000 },
    );
  });

  it('writes a plan read back from its stored JSON the same way', () => {
    const plan = buildPlan(PLAN_VARIANTS[1], dates, {
      detail: 'full',
      markUsed: true,
      examUsed: true,
      noOon: false,
      noInn: false,
    });
    const stored = JSON.parse(JSON.stringify(plan)) as Plan;
    expect(serializePlanJson(stored)).toBe(JSON.stringify(serializePlan(stored)));
    expect(JSON.parse(serializePlanJson(stored))).toEqual(serializePlan(plan));
  });
});
