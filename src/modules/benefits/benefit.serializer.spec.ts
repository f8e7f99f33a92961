import { buildPlan, PLAN_VARIANTS, type PlanShape } from '@/modules/insurers/demo/demo-plan';
import { serializePlan, serializePlanJson } from './benefit.serializer';
import type { BenefitItem, FlagEntry, Plan } from './benefit.types';

/**
 * serializePlanJson writes what JSON.stringify(serializePlan(plan)) writes, byte for byte: the
 * stored V2 bodies must not change with the faster writer.
 */

const dates = { begin: '2026-01-01', end: '2026-12-31', refresh: '2027-01-01' };

/** Deterministic choice (mulberry32), so a failure can be replayed. */
function chooser(seed: number) {
  let state = seed >>> 0;
  return <T>(values: readonly T[]): T => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    const r = ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    return values[Math.floor(r * values.length)];
  };
}

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

function randomPlan(pick: ReturnType<typeof chooser>, depth = 0): Plan {
  const entry = <T>(value: () => T): FlagEntry<T> => {
    const e: FlagEntry<T> = { value: value() };
    const flags = pick([undefined, [], ['inn'], ['oon', 'required']] as const);
    if (flags !== undefined) e.flags = [...flags];
    const comment = pick([undefined, undefined, ...texts]);
    if (comment !== undefined) e.comment = comment;
    return e;
  };
  const list = <T>(value: () => T) =>
    pick([undefined, undefined, [], [entry(value)], [entry(value), entry(value)]]);
  const item = (level: number): BenefitItem => {
    const out: BenefitItem = {
      benefit_code: pick(['exam', 'frames.standard', 'lenses "odd"', '😀']),
      refresh_date: pick(['2027-01-01', undefined as unknown as string]),
    };
    const flags = pick([undefined, [], ['exclusive-use']] as const);
    if (flags !== undefined) out.flags = [...flags];
    const comment = pick([undefined, undefined, ...texts]);
    if (comment !== undefined) out.comment = comment;
    const copayment = list(() => pick([...decimals, null as unknown as string]));
    if (copayment) out.copayment = copayment;
    const allowance = list(() => pick(decimals));
    if (allowance) out.allowance = allowance;
    const quantity = list(() => pick([0, 1, 2, undefined as unknown as number]));
    if (quantity) out.quantity = quantity;
    const auth = list(() => pick([true, false]));
    if (auth) out.is_authorization_required = auth;
    if (level < 2 && pick([true, false])) out.items = [item(level + 1), item(level + 1)];
    const end = pick([undefined, undefined, '2026-12-31', '', null as unknown as string]);
    if (end !== undefined) out.end_date = end;
    return out;
  };
  const plan: Plan = {
    insurer_state: pick(['inn', 'oon'] as const),
    items: [item(depth), item(depth)],
    refresh_date: pick(['2027-01-01', null, undefined as unknown as null]),
    begin_date: pick(['2026-01-01', null]),
    end_date: pick(['2026-12-31', null]),
    flags: pick([[], ['oon'], undefined as unknown as string[]]),
  };
  const discount = list(() => pick(decimals));
  if (discount) plan.discount = discount;
  const auth = list(() => pick([true, false]));
  if (auth) plan.is_authorization_required = auth;
  return plan;
}

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
    const pick = chooser(15);
    for (let i = 0; i < 2000; i++) {
      const plan = randomPlan(pick);
      const expected = JSON.stringify(serializePlan(plan));
      expect({ i, json: serializePlanJson(plan) }).toEqual({ i, json: expected });
    }
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
