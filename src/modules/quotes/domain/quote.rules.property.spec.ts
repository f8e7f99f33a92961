import fc from 'fast-check';
import {
  CONTACT_LENS_ENTRIES,
  CONTACT_LENS_KINDS,
  FITTING_KINDS,
  IN_LIEU_SIDES,
  type InLieuPair,
  type InLieuSide,
  LENS_OPTIONS,
  LENS_TYPES,
  type MaterialsList,
  type MaterialsRule,
} from '@/lib/benefits';
import { toMinor } from '@/platform/kernel/decimal';
import { priceOrder } from './quote.rules';
import type { QuoteInput, QuoteOrder } from './quote.types';

/**
 * The counter's rules (docs/api.md, The counter) over generated price lists and orders. Fixed
 * seeds: CI is never red by chance, and a failure found here becomes a worked example.
 */

const RUNS = { seed: 29, numRuns: 400 };

/** Whole cents mostly, now and then four decimals. */
const amount = fc.oneof(
  { weight: 4, arbitrary: fc.integer({ min: 0, max: 60_000 }).map((c) => centsText(c)) },
  { weight: 1, arbitrary: fc.integer({ min: 0, max: 6_000_000 }).map((m) => minorText(m)) },
);
const percent = fc.oneof(
  fc.integer({ min: 0, max: 100 }).map(String),
  fc.integer({ min: 0, max: 10_000 }).map((h) => centsText(h)),
);
const rule: fc.Arbitrary<MaterialsRule> = fc.record(
  {
    copayment: amount,
    allowance: amount,
    discount_percent: percent,
    discount_on: fc.constantFrom('overage' as const, 'retail' as const),
    price: amount,
    max_age: fc.integer({ min: 0, max: 30 }),
    code: fc.constantFrom('V2020', 'V2750', 'V2784'),
  },
  { requiredKeys: [] },
);
const TIERS = ['1', '2', '3', '4'];
const lensEntry = fc.oneof(
  rule,
  fc
    .subarray(TIERS, { minLength: 1 })
    .chain((keys) =>
      fc
        .tuple(...keys.map(() => rule))
        .map((rules) => ({ tiers: Object.fromEntries(keys.map((k, i) => [k, rules[i]])) })),
    ),
);
const someOf = <K extends string, V>(keys: readonly K[], value: fc.Arbitrary<V>) =>
  fc
    .subarray([...keys])
    .chain((chosen) =>
      fc
        .tuple(...chosen.map(() => value))
        .map((values) => Object.fromEntries(chosen.map((k, i) => [k, values[i]]))),
    ) as fc.Arbitrary<Partial<Record<K, V>>>;

const PAIRS: InLieuPair[] = [
  ['contact_lenses', 'frame'],
  ['contact_lenses', 'lenses'],
  ['frame', 'lenses'],
];
const list: fc.Arbitrary<MaterialsList> = fc.record(
  {
    network: fc.constant('inn' as const),
    frame: rule,
    lenses: someOf(LENS_TYPES, lensEntry),
    lens_options: someOf(LENS_OPTIONS, rule),
    contact_lenses: someOf(CONTACT_LENS_ENTRIES, rule),
    in_lieu_of: fc.subarray(PAIRS),
  },
  { requiredKeys: ['network'] },
);
const retail = amount;
const order: fc.Arbitrary<QuoteOrder> = fc.record(
  {
    frame: fc.record({ retail }),
    lenses: fc.record(
      {
        type: fc.constantFrom(...LENS_TYPES),
        tier: fc.constantFrom('1', '2', '3', '4', '5', 3),
        retail,
      },
      { requiredKeys: ['type', 'retail'] },
    ),
    lens_options: fc.array(fc.record({ option: fc.constantFrom(...LENS_OPTIONS), retail }), {
      maxLength: 3,
    }),
    contact_lenses: fc.record({ kind: fc.constantFrom(...CONTACT_LENS_KINDS), retail }),
    fitting: fc.record({ kind: fc.constantFrom(...FITTING_KINDS), retail }),
    in_lieu_keep: fc.constantFrom(...IN_LIEU_SIDES),
  },
  { requiredKeys: [] },
);
const benefit = fc.record({
  available: fc.boolean(),
  until: fc.option(fc.constantFrom('2027-03-15', '2026-12-31'), { nil: null }),
});
const input: fc.Arbitrary<QuoteInput> = fc.record({
  materials: list,
  order,
  patientAge: fc.option(fc.integer({ min: 0, max: 90 }), { nil: null }),
  availability: fc.record({
    frames: benefit,
    spectacle_lenses: benefit,
    contact_lenses: benefit,
  }),
});

const FOUR = /^\d+\.\d{4}$/;

describe('priceOrder over generated lists and orders', () => {
  it('charges each line between 0 and its retail, the plan covering the rest', () => {
    fc.assert(
      fc.property(input, (given) => {
        for (const line of priceOrder(given).lines) {
          for (const v of [line.retail, line.plan_covers, line.patient_pays])
            expect(v).toMatch(FOUR);
          const [r, covers, pays] = [line.retail, line.plan_covers, line.patient_pays].map(toMinor);
          expect(pays >= 0n && pays <= r).toBe(true);
          expect(covers + pays).toBe(r);
          expect(line.reason.length).toBeGreaterThan(0);
        }
      }),
      RUNS,
    );
  });

  it('totals the lines alone, every ordered item once in the lines or not estimable', () => {
    fc.assert(
      fc.property(input, (given) => {
        const answer = priceOrder(given);
        const sum = (key: 'retail' | 'plan_covers' | 'patient_pays') =>
          answer.lines.reduce((acc, line) => acc + toMinor(line[key]), 0n);
        expect(toMinor(answer.retail)).toBe(sum('retail'));
        expect(toMinor(answer.plan_covers)).toBe(sum('plan_covers'));
        expect(toMinor(answer.patient_pays)).toBe(sum('patient_pays'));
        const o = given.order;
        const ordered = [
          ...(o.frame ? ['frame'] : []),
          ...(o.lenses ? ['lenses'] : []),
          ...(o.lens_options ?? []).map((x) => x.option),
          ...(o.contact_lenses ? ['contact_lenses'] : []),
          ...(o.fitting ? ['fitting'] : []),
        ];
        const answered = [...answer.lines, ...answer.not_estimable].map((l) => l.item);
        expect([...answered].sort()).toEqual([...ordered].sort());
      }),
      RUNS,
    );
  });

  it('gives the same answer to the same input, and never changes its input', () => {
    fc.assert(
      fc.property(input, (given) => {
        const copy = structuredClone(given);
        const first = priceOrder(given);
        expect(given).toEqual(copy);
        expect(priceOrder(copy)).toEqual(first);
      }),
      RUNS,
    );
  });

  it('rounds to the cent whenever the retail is in cents', () => {
    fc.assert(
      fc.property(input, (given) => {
        for (const line of priceOrder(given).lines)
          if (toMinor(line.retail) % 100n === 0n)
            expect(toMinor(line.patient_pays) % 100n).toBe(0n);
      }),
      RUNS,
    );
  });

  it('covers nothing of a benefit not available, nor of both sides of an in_lieu_of pair', () => {
    fc.assert(
      fc.property(input, (given) => {
        const answer = priceOrder(given);
        const sideOf = (item: string): InLieuSide =>
          item === 'frame'
            ? 'frame'
            : item === 'contact_lenses' || item === 'fitting'
              ? 'contact_lenses'
              : 'lenses';
        const benefitOf = (side: InLieuSide) =>
          side === 'frame' ? 'frames' : side === 'lenses' ? 'spectacle_lenses' : 'contact_lenses';
        const covered = new Set<InLieuSide>();
        for (const line of answer.lines) {
          const side = sideOf(line.item);
          if (toMinor(line.plan_covers) === 0n) continue;
          expect(given.availability[benefitOf(side)].available).toBe(true);
          covered.add(side);
        }
        for (const [a, b] of given.materials.in_lieu_of ?? [])
          expect(covered.has(a) && covered.has(b)).toBe(false);
      }),
      RUNS,
    );
  });

  it('prices a lone frame by the one rule, as an independent reading of it computes', () => {
    const frameOnly = fc.record({
      rule,
      retail,
      age: fc.option(fc.integer({ min: 0, max: 40 }), { nil: null }),
    });
    fc.assert(
      fc.property(frameOnly, ({ rule: frame, retail: r, age }) => {
        const answer = priceOrder({
          materials: { network: 'inn', frame },
          order: { frame: { retail: r } },
          patientAge: age,
          availability: {
            frames: { available: true, until: null },
            spectacle_lenses: { available: true, until: null },
            contact_lenses: { available: true, until: null },
          },
        });
        const expected = oracle(frame, r, age);
        if (expected === null) {
          expect(answer.lines).toEqual([]);
          expect(answer.not_estimable).toHaveLength(1);
        } else {
          expect(answer.not_estimable).toEqual([]);
          expect(answer.lines[0].patient_pays).toBe(expected);
        }
      }),
      RUNS,
    );
  });
});

/**
 * The contract's steps read afresh, in exact fractions of a dollar (numerator over 10^8): null
 * for not estimable, else what the patient pays with four decimals.
 */
function oracle(rule: MaterialsRule, retailText: string, age: number | null): string | null {
  const SCALE = 100_000_000n;
  const dollars = (text: string | undefined) =>
    text === undefined ? undefined : toMinor(text) * 10_000n;
  const r = dollars(retailText)!;
  if (rule.max_age !== undefined) {
    if (age === null) return null;
    if (age <= rule.max_age) return '0.0000';
  }
  const half = (value: bigint) => {
    // value in 10^-8 dollars; cents are 10^6 of them.
    if (value >= r) return r;
    const cents = (value + 500_000n) / 1_000_000n;
    const rounded = cents * 1_000_000n;
    return rounded > r ? r : rounded;
  };
  const out = (value: bigint) => {
    const whole = value / SCALE;
    const frac = (value % SCALE).toString().padStart(8, '0').slice(0, 4);
    return `${whole}.${frac}`;
  };
  const price = dollars(rule.price);
  if (price !== undefined) return out(half(price < r ? price : r));
  const [c0, a0] = [dollars(rule.copayment), dollars(rule.allowance)];
  const d0 = rule.discount_percent === undefined ? undefined : toMinor(rule.discount_percent);
  if (c0 === undefined && a0 === undefined && d0 === undefined)
    return rule.max_age !== undefined ? out(r) : null;
  const [c, a, d] = [c0 ?? 0n, a0 ?? 0n, d0 ?? 0n];
  if (a0 === undefined && d0 === undefined) return out(half(c < r ? c : r));
  // d is in ten-thousandths of a percent: (1 − d/100) = (1_000_000 − d) / 1_000_000. The
  // rounding needs the fraction exact, so scale everything by 1_000_000 before dividing.
  const P = 1_000_000n;
  const pos = (x: bigint) => (x > 0n ? x : 0n);
  const patient =
    rule.discount_on === 'retail'
      ? c * P + pos(r * (P - d) - a * P)
      : c * P + pos(r - c - a) * (P - d);
  if (patient >= r * P) return out(r);
  // Half up to the cent, on the exact fraction.
  const cents = (patient + 500_000n * P) / (1_000_000n * P);
  const rounded = cents * 1_000_000n;
  return out(rounded > r ? r : rounded);
}

function centsText(cents: number): string {
  return `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
}

function minorText(minor: number): string {
  return `${Math.floor(minor / 10_000)}.${String(minor % 10_000).padStart(4, '0')}`;
}
