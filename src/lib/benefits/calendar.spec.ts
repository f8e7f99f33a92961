import fc from 'fast-check';
import {
  addMonths,
  anniversary,
  compareDates,
  januaryFirst,
  latest,
  planYearIndex,
} from './calendar';

/** A real calendar day of 1900–2199, as `YYYY-MM-DD`. */
const anyDate = fc
  .integer({ min: Date.UTC(1900, 0, 1) / 86_400_000, max: Date.UTC(2199, 11, 31) / 86_400_000 })
  .map((day) => new Date(day * 86_400_000).toISOString().slice(0, 10));

/** The last day of a month, by the engine's own calendar (a reference independent of calendar.ts). */
const lastDay = (year: number, month: number) => new Date(Date.UTC(year, month, 0)).getUTCDate();

describe('date-only arithmetic', () => {
  it('clamps month ends: 31 January + 1 month is the last day of February', () => {
    expect(addMonths('2025-01-31', 1)).toBe('2025-02-28');
    expect(addMonths('2024-01-31', 1)).toBe('2024-02-29');
    expect(addMonths('2025-03-31', 1)).toBe('2025-04-30');
    expect(addMonths('2025-08-31', -6)).toBe('2025-02-28');
    expect(addMonths('2025-12-15', 1)).toBe('2026-01-15');
    expect(addMonths('2026-01-15', -1)).toBe('2025-12-15');
  });

  it('keeps leap days: 29 February 2024 + 12 months → 28 February 2025, + 48 → 29 February 2028', () => {
    expect(addMonths('2024-02-29', 12)).toBe('2025-02-28');
    expect(addMonths('2024-02-29', 48)).toBe('2028-02-29');
    expect(addMonths('2024-02-29', 24 * 12)).toBe('2048-02-29');
    // 2100 is not a leap year (divisible by 100, not by 400); 2000 was.
    expect(addMonths('2096-02-29', 48)).toBe('2100-02-28');
    expect(addMonths('1996-02-29', 48)).toBe('2000-02-29');
  });

  it('adds months as the calendar does, the day clamped to the month it lands in', () => {
    fc.assert(
      fc.property(anyDate, fc.integer({ min: -1200, max: 1200 }), (date, months) => {
        const [y, m, d] = date.split('-').map(Number);
        const target = new Date(Date.UTC(y, m - 1 + months, 1));
        const ty = target.getUTCFullYear();
        const tm = target.getUTCMonth() + 1;
        const expected = `${String(ty).padStart(4, '0')}-${String(tm).padStart(2, '0')}-${String(
          Math.min(d, lastDay(ty, tm)),
        ).padStart(2, '0')}`;
        expect(addMonths(date, months)).toBe(expected);
      }),
      { seed: 2401, numRuns: 3000 },
    );
  });

  it('is monotone: a later day never lands before an earlier one', () => {
    fc.assert(
      fc.property(anyDate, anyDate, fc.integer({ min: 0, max: 600 }), (a, b, months) => {
        const [early, late] = compareDates(a, b) <= 0 ? [a, b] : [b, a];
        expect(compareDates(addMonths(early, months), addMonths(late, months))).toBeLessThanOrEqual(
          0,
        );
      }),
      { seed: 2402, numRuns: 2000 },
    );
  });

  it('compares and picks dates, years of any width', () => {
    expect(compareDates('2025-01-02', '2025-01-01')).toBeGreaterThan(0);
    expect(compareDates('9999-12-31', '10000-01-01')).toBeLessThan(0);
    expect(latest(null, '2025-01-01', undefined, '2024-12-31')).toBe('2025-01-01');
    expect(latest()).toBeNull();
    expect(januaryFirst('2025-07-14')).toBe('2025-01-01');
    expect(januaryFirst('2025-07-14', 2)).toBe('2027-01-01');
  });

  it('finds the plan year of a day: the last anniversary of the begin date on or before it', () => {
    expect(planYearIndex('2024-07-01', '2025-06-30')).toBe(0);
    expect(planYearIndex('2024-07-01', '2025-07-01')).toBe(1);
    expect(planYearIndex('2024-07-01', '2024-06-30')).toBe(-1);
    expect(anniversary('2024-02-29', 1)).toBe('2025-02-28');
    expect(anniversary('2024-02-29', 4)).toBe('2028-02-29');
    fc.assert(
      fc.property(anyDate, anyDate, (begin, date) => {
        const k = planYearIndex(begin, date);
        expect(compareDates(anniversary(begin, k), date)).toBeLessThanOrEqual(0);
        expect(compareDates(anniversary(begin, k + 1), date)).toBeGreaterThan(0);
      }),
      { seed: 2403, numRuns: 2000 },
    );
  });
});
