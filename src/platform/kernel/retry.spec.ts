import fc from 'fast-check';
import { retryDelayMs, type RetryPolicy } from './retry';

describe('retryDelayMs', () => {
  it('doubles the base after each attempt, and stops at the last', () => {
    const policy: RetryPolicy = { doublingFromMs: 1000, maxAttempts: 4 };
    expect([1, 2, 3, 4].map((n) => retryDelayMs(policy, n))).toEqual([1000, 2000, 4000, null]);
  });

  it('reads a schedule: its n-th delay after attempt n, none after the last', () => {
    const policy: RetryPolicy = { delaysMs: [60_000, 300_000] };
    expect([1, 2, 3].map((n) => retryDelayMs(policy, n))).toEqual([60_000, 300_000, null]);
    expect(retryDelayMs({ delaysMs: [] }, 1)).toBeNull();
  });

  it('never waits less than the Retry-After it was given', () => {
    const policy: RetryPolicy = { doublingFromMs: 100, maxAttempts: 10 };
    expect(retryDelayMs(policy, 2, 5_000)).toBe(5_000);
    expect(retryDelayMs(policy, 2, 50)).toBe(200);
    expect(retryDelayMs({ delaysMs: [1000] }, 1, 3_000)).toBe(3_000);
  });

  it('grows with the attempt and answers null exactly past the last', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 60_000 }),
        fc.integer({ min: 1, max: 30 }),
        fc.integer({ min: 1, max: 30 }),
        (base, maxAttempts, attempt) => {
          const policy = { doublingFromMs: base, maxAttempts };
          const delay = retryDelayMs(policy, attempt);
          if (attempt >= maxAttempts) expect(delay).toBeNull();
          else expect(delay).toBe(base * 2 ** (attempt - 1));
        },
      ),
    );
  });
});
