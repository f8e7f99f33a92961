import fc from 'fast-check';
import { checkPoints, decide, isCheckable, type SchedulePolicy } from './check-schedule';

/**
 * The schedule of appointments' checks (docs/api.md, Appointments) over random visits, policies
 * and times. Fixed seed: a failure found here becomes an example test.
 */
const HOUR = 3_600_000;
const T0 = Date.UTC(2026, 10, 27, 8);
const STATUSES = ['booked', 'arrived', 'fulfilled', 'cancelled', 'noshow'] as const;

const policy: fc.Arbitrary<SchedulePolicy> = fc.record({
  on_booking: fc.boolean(),
  days_before: fc.uniqueArray(fc.integer({ min: 0, max: 30 }), { maxLength: 5 }),
  hours_before: fc.uniqueArray(fc.integer({ min: 1, max: 72 }), { maxLength: 5 }),
  freshness_hours: fc.integer({ min: 1, max: 720 }),
  statuses: fc.subarray([...STATUSES]),
});
const offset = fc.integer({ min: -40 * 24, max: 40 * 24 }).map((h) => h * HOUR);
const input = fc.record({
  startsIn: offset,
  status: fc.constantFrom(...STATUSES),
  lastCheckedAgo: fc.option(
    fc.integer({ min: 0, max: 60 * 24 }).map((h) => h * HOUR),
    { nil: null },
  ),
  forced: fc.boolean(),
});

type Input = { startsIn: number; status: string; lastCheckedAgo: number | null; forced: boolean };

describe('the checks schedule (property)', () => {
  const run = (check: (p: SchedulePolicy, i: Input) => void) =>
    fc.assert(fc.property(policy, input, check), { seed: 44, numRuns: 2_000 });
  const at = (i: {
    startsIn: number;
    status: string;
    lastCheckedAgo: number | null;
    forced: boolean;
  }) => ({
    startsAt: new Date(T0 + i.startsIn),
    status: i.status,
    lastCheckAt: i.lastCheckedAgo === null ? null : new Date(T0 - i.lastCheckedAgo),
    forced: i.forced,
  });
  const now = new Date(T0);

  it('never checks, nor schedules, a visit past, cancelled, noshow or of a status the policy leaves out', () =>
    run((p, i) => {
      const d = decide(at(i), now, p);
      if (!isCheckable(at(i), now, p)) expect(d).toEqual({ due: false, next: null });
      if (i.status === 'cancelled' || i.status === 'noshow' || i.startsIn <= 0)
        expect(d).toEqual({ due: false, next: null });
    }));

  it('the next check is after now, before the visit, and one of the policy points', () =>
    run((p, i) => {
      const { next } = decide(at(i), now, p);
      if (next === null) return;
      expect(next.getTime()).toBeGreaterThan(T0);
      expect(next.getTime()).toBeLessThanOrEqual(T0 + i.startsIn);
      expect(checkPoints(at(i).startsAt, p).map((d) => d.getTime())).toContain(next.getTime());
    }));

  it('a point passed since the last check makes a check due; none passed and a check done: not due unless asked', () =>
    run((p, i) => {
      const input = at(i);
      if (!isCheckable(input, now, p) || input.lastCheckAt === null || i.forced) return;
      const passed = checkPoints(input.startsAt, p).some(
        (x) => x.getTime() <= T0 && x.getTime() > input.lastCheckAt!.getTime(),
      );
      expect(decide(input, now, p).due).toBe(passed);
    }));

  it('a visit never checked is checked on booking when the policy says so; "check now" always', () =>
    run((p, i) => {
      const input = { ...at(i), lastCheckAt: null };
      if (!isCheckable(input, now, p)) return;
      if (p.on_booking || i.forced) expect(decide(input, now, p).due).toBe(true);
    }));

  it('examples: booked the day after tomorrow with the defaults', () => {
    const defaults: SchedulePolicy = {
      on_booking: true,
      days_before: [3],
      hours_before: [24],
      freshness_hours: 48,
      statuses: ['booked', 'arrived'],
    };
    const startsAt = new Date(T0 + 55 * HOUR);
    const booking = { startsAt, status: 'booked', lastCheckAt: null, forced: false };
    expect(decide(booking, now, defaults)).toEqual({
      due: true,
      next: new Date(startsAt.getTime() - 24 * HOUR),
    });
    const checked = { ...booking, lastCheckAt: now };
    expect(decide(checked, new Date(T0 + HOUR), defaults).due).toBe(false);
    expect(decide(checked, new Date(startsAt.getTime() - 24 * HOUR), defaults)).toEqual({
      due: true,
      next: null,
    });
  });
});
