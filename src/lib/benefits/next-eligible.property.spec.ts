import fc from 'fast-check';
import { addMonths, compareDates } from './calendar';
import { availableOn, nextEligible } from './next-eligible';
import {
  type FrequencyRule,
  type NextEligibleInput,
  PERIOD_KINDS,
  SERVICE_SOURCES,
  type ServiceRecord,
} from './next-eligible.types';

/**
 * The rules of docs/api.md, Next eligible dates over generated rules and histories. Fixed seeds:
 * CI is never red by chance, and a failure found here becomes a worked example.
 */

const DAY = 86_400_000;
/** A real calendar day of 2000–2040. */
const anyDate = fc
  .integer({ min: Date.UTC(2000, 0, 1) / DAY, max: Date.UTC(2040, 11, 31) / DAY })
  .map((day) => new Date(day * DAY).toISOString().slice(0, 10));
const isLeap = (y: number) => y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0);
const yearOf = (date: string) => Number(date.slice(0, 4));

const FRAMES = 'materials.frames';
const LENSES = 'materials.spectacle_lenses';
const CONTACTS = 'materials.contact_lenses';
const EXAM = 'exam.routine';
const CODES = [FRAMES, LENSES, `${LENSES}.single_vision`, CONTACTS, EXAM];

const period = fc.oneof(
  fc.record({ kind: fc.constant('rolling' as const), months: fc.integer({ min: 1, max: 48 }) }),
  fc.record({
    kind: fc.constantFrom('calendar_year' as const, 'plan_year' as const),
    months: fc.option(fc.constantFrom(12, 24, 36), { nil: undefined }),
  }),
);
const rule = (code: string) =>
  fc.record({
    benefit_code: fc.constant(code),
    frequency: fc.record({
      count: fc.integer({ min: 1, max: 3 }),
      period,
      shared_with: fc.subarray(
        [FRAMES, LENSES, CONTACTS, EXAM].filter((c) => c !== code),
        { maxLength: 2 },
      ),
    }),
    payer_next_eligible_date: fc.option(anyDate, { nil: undefined }),
  });
const rules = fc
  .subarray([FRAMES, LENSES, CONTACTS, EXAM], { minLength: 1 })
  .chain((codes) => fc.tuple(...codes.map(rule)));
const history = fc.array(
  fc.record({
    benefit_code: fc.constantFrom(...CODES),
    date: anyDate,
    source: fc.constantFrom(...SERVICE_SOURCES),
  }),
  { maxLength: 12 },
);
const plan = fc.option(
  fc.tuple(anyDate, fc.integer({ min: 1, max: 3_000 })).map(([begin, days]) => ({
    begin_date: begin,
    end_date: new Date(Date.parse(begin) + days * DAY).toISOString().slice(0, 10),
  })),
  { nil: undefined },
);
const input: fc.Arbitrary<NextEligibleInput> = fc.record({
  as_of: anyDate,
  rules: rules,
  history,
  plan,
});

const only = (i: NextEligibleInput) => nextEligible(i)[0];
const once = (
  kind: (typeof PERIOD_KINDS)[number],
  months?: number,
): FrequencyRule['frequency'] => ({
  count: 1,
  period: { kind, months },
});

describe('next eligible dates over generated rules and histories', () => {
  it('are never before the last service, nor before a service that counts against them', () => {
    let dated = 0;
    fc.assert(
      fc.property(input, (i) => {
        // Booleans, not expect(): thousands of cases, and fast-check shrinks a false one.
        return nextEligible(i).every((r) => {
          const { date, basis, explanation } = r.next_eligible;
          if (explanation.length === 0 || !explanation.every((s) => /^[A-Z0-9].*[.]$/.test(s)))
            return false;
          if (date === null) return basis === 'unknown';
          dated += 1;
          const own = i.history.filter(
            (h) =>
              h.benefit_code === r.benefit_code || h.benefit_code.startsWith(`${r.benefit_code}.`),
          );
          return (
            (r.last_service === null || compareDates(date, r.last_service.date) >= 0) &&
            own.every((h) => compareDates(date, h.date) >= 0) &&
            (basis !== 'computed' || compareDates(date, i.as_of) >= 0)
          );
        });
      }),
      { seed: 2424, numRuns: 3000 },
    );
    expect(dated).toBeGreaterThan(3000);
  });

  it('clamp month ends: a rolling rule after the last day of a month lands on a real day', () => {
    fc.assert(
      fc.property(anyDate, fc.integer({ min: 1, max: 60 }), (date, months) => {
        const last = new Date(Date.UTC(yearOf(date), Number(date.slice(5, 7)), 0))
          .toISOString()
          .slice(0, 10);
        const r = only({
          as_of: last,
          rules: [{ benefit_code: EXAM, frequency: once('rolling', months) }],
          history: [{ benefit_code: EXAM, date: last }],
        });
        const next = r.next_eligible.date!;
        expect(next).toBe(addMonths(last, months));
        // The last day of the target month, or the same day number when that month is long enough.
        const [y, m, d] = next.split('-').map(Number);
        const target = new Date(Date.UTC(y, m, 0)).getUTCDate();
        expect(d).toBe(Math.min(Number(last.slice(8)), target));
        expect(availableOn(r, next)).toBe(true);
        const dayBefore = new Date(Date.parse(next) - DAY).toISOString().slice(0, 10);
        expect(availableOn(r, dayBefore)).toBe(false);
      }),
      { seed: 2425, numRuns: 1500 },
    );
  });

  it('keep leap days: 29 February + 12·k months is 29 February in leap years, else the 28th', () => {
    const leapYears = fc
      .integer({ min: 500, max: 510 })
      .map((q) => q * 4)
      .filter(isLeap);
    fc.assert(
      fc.property(leapYears, fc.integer({ min: 1, max: 20 }), (year, k) => {
        const day = `${year}-02-29`;
        const r = only({
          as_of: day,
          rules: [{ benefit_code: EXAM, frequency: once('rolling', 12 * k) }],
          history: [{ benefit_code: EXAM, date: day }],
        });
        expect(r.next_eligible.date).toBe(`${year + k}-02-${isLeap(year + k) ? 29 : 28}`);
      }),
      { seed: 2426, numRuns: 500 },
    );
  });

  it('reset calendar years on 1 January', () => {
    fc.assert(
      fc.property(anyDate, (date) => {
        const r = only({
          as_of: date,
          rules: [{ benefit_code: LENSES, frequency: once('calendar_year') }],
          history: [{ benefit_code: LENSES, date }],
        });
        expect(r.next_eligible.date).toBe(`${yearOf(date) + 1}-01-01`);
        expect(availableOn(r, `${yearOf(date)}-12-31`)).toBe(false);
        expect(availableOn(r, `${yearOf(date) + 1}-01-01`)).toBe(true);
      }),
      { seed: 2427, numRuns: 1000 },
    );
  });

  it('start plan years on the anniversary of the plan begin date', () => {
    fc.assert(
      fc.property(anyDate, fc.integer({ min: 0, max: 4_000 }), (begin, days) => {
        const service = new Date(Date.parse(begin) + days * DAY).toISOString().slice(0, 10);
        const r = only({
          as_of: service,
          rules: [{ benefit_code: EXAM, frequency: once('plan_year') }],
          history: [{ benefit_code: EXAM, date: service }],
          plan: { begin_date: begin },
        });
        const next = r.next_eligible.date!;
        // The first anniversary after the service: the month and day of the begin date (a
        // 29 February begin date clamped to the 28th in other years), one plan year on.
        const k = yearOf(next) - yearOf(begin);
        expect(next).toBe(addMonths(begin, 12 * k));
        expect(compareDates(next, service)).toBeGreaterThan(0);
        expect(compareDates(addMonths(begin, 12 * (k - 1)), service)).toBeLessThanOrEqual(0);
      }),
      { seed: 2428, numRuns: 1500 },
    );
  });

  it('with count 2 allow a second service in the period, and a third only when the oldest ages out', () => {
    fc.assert(
      fc.property(
        anyDate,
        // A day apart at least: one benefit's entries of one day are one service.
        fc.integer({ min: 1, max: 400 }),
        fc.integer({ min: 1, max: 24 }),
        (d1, gap, months) => {
          const d2 = new Date(Date.parse(d1) + gap * DAY).toISOString().slice(0, 10);
          const frequency = { count: 2, period: { kind: 'rolling' as const, months } };
          const rules = [{ benefit_code: CONTACTS, frequency }];
          const first = only({ as_of: d1, rules, history: [{ benefit_code: CONTACTS, date: d1 }] });
          expect(availableOn(first, d1)).toBe(true);
          const history: ServiceRecord[] = [
            { benefit_code: CONTACTS, date: d1 },
            { benefit_code: CONTACTS, date: d2 },
          ];
          const both = only({ as_of: d2, rules, history });
          const agesOut = addMonths(d1, months);
          const expected = compareDates(agesOut, d2) > 0 ? agesOut : d2;
          expect(both.next_eligible.date).toBe(expected);
        },
      ),
      { seed: 2429, numRuns: 1500 },
    );
  });

  it('leave frames unavailable within the shared period after contact lenses, whichever rule names the sharing', () => {
    fc.assert(
      fc.property(
        anyDate,
        fc.integer({ min: 0, max: 800 }),
        fc.boolean(),
        (bought, later, framesName) => {
          const shared = { count: 1, period: { kind: 'rolling' as const, months: 24 } };
          const rules: FrequencyRule[] = [
            {
              benefit_code: FRAMES,
              frequency: { ...shared, shared_with: framesName ? [CONTACTS] : [] },
            },
            {
              benefit_code: CONTACTS,
              frequency: { ...once('rolling', 12)!, shared_with: framesName ? [] : [FRAMES] },
            },
          ];
          const [frames] = nextEligible({
            as_of: bought,
            rules,
            history: [{ benefit_code: CONTACTS, date: bought, source: 'claim' }],
          });
          const day = new Date(Date.parse(bought) + later * DAY).toISOString().slice(0, 10);
          const end = addMonths(bought, 24);
          expect(frames.next_eligible.date).toBe(end);
          expect(availableOn(frames, day)).toBe(compareDates(day, end) >= 0);
        },
      ),
      { seed: 2430, numRuns: 1500 },
    );
  });

  it('let a payer-stated date win, naming the computed date too when they disagree', () => {
    fc.assert(
      fc.property(input, (i) => {
        const stripped = {
          ...i,
          rules: i.rules.map((r) => ({ ...r, payer_next_eligible_date: undefined })),
        };
        const computed = nextEligible(stripped);
        nextEligible(i).forEach((r, n) => {
          const payer = i.rules[n].payer_next_eligible_date;
          if (!payer || r.next_eligible.basis !== 'payer_stated') {
            // Only a payer date older than a service that counts is set aside.
            if (payer)
              expect(r.next_eligible.explanation[0]).toMatch(/^The payer states .*, but a service/);
            return;
          }
          expect(r.next_eligible.date).toBe(payer);
          const other = computed[n].next_eligible.date;
          if (other !== null && other !== payer) {
            expect(r.next_eligible.explanation.join(' ')).toContain(other);
            expect(r.next_eligible.explanation.join(' ')).toContain(payer);
          }
        });
      }),
      { seed: 2431, numRuns: 2000 },
    );
  });
});
