import type { InsurerPlanResult } from '@/modules/insurers/domain/insurer-connector';
import { retryDelayMs } from '@/platform/kernel/retry';
import {
  decideNext,
  InsurerOutcome,
  isSettled,
  MAX_RETRY_AFTER_MS,
  MAX_SEARCH_ATTEMPTS,
  searchRetries,
  settledByCode,
} from './search-outcome';

const plan = (name: string) => ({ planName: name }) as InsurerPlanResult;
const found = (code: string, ...names: string[]): InsurerOutcome => ({
  code,
  kind: 'found',
  plans: names.map(plan),
});
const deferred = (code: string, retryAfterMs: number): InsurerOutcome => ({
  code,
  kind: 'deferred',
  retryAfterMs,
});
const down = (code: string, retryable = true): InsurerOutcome => ({
  code,
  kind: 'unavailable',
  error: 'down',
  retryable,
});
const broken = (code: string): InsurerOutcome => ({ code, kind: 'failed', error: 'bug' });
const rejected = (code: string): InsurerOutcome => ({ code, kind: 'rejected', error: 'no NPI' });
const throttled = (code: string, retryAfterMs: number): InsurerOutcome => ({
  code,
  kind: 'unavailable',
  error: 'HTTP 429',
  retryable: true,
  retryAfterMs,
});

/**
 * The decisions expected: defer, retry (after a Retry-After when one is given), fail with an error
 * code, or complete with [insurer, plan name] pairs.
 */
const defer = (delayMs: number) => ({ next: 'defer', delayMs });
const retry = (attempt: number, retryAfterMs?: number) =>
  retryAfterMs === undefined
    ? { next: 'retry', attempt }
    : { next: 'retry', attempt, retryAfterMs };
const fail = (errorCode: string) => ({ next: 'fail', errorCode });
const complete = (...found: [code: string, planName: string][]) => ({
  next: 'complete',
  found: found.map(([code, name]) => ({ code, plan: plan(name) })),
});

describe('decideNext', () => {
  it('completes with every plan found, in the insurers order', () => {
    expect(decideNext([found('a', 'A1', 'A2'), found('b', 'B1')], 1)).toEqual(
      complete(['a', 'A1'], ['a', 'A2'], ['b', 'B1']),
    );
  });

  it('completes with no results when the insurer found nobody (not_found)', () => {
    expect(decideNext([found('a')], 1)).toEqual(complete());
  });

  it('defers by the longest wait any insurer asked for, before anything else', () => {
    expect(decideNext([deferred('a', 500), found('b', 'B'), deferred('c', 9_000)], 1)).toEqual(
      defer(9_000),
    );
    expect(decideNext([deferred('a', 500), down('b')], MAX_SEARCH_ATTEMPTS)).toEqual(defer(500));
  });

  it('retries a transient outage while attempts remain, even when another insurer answered', () => {
    for (let attempt = 1; attempt < MAX_SEARCH_ATTEMPTS; attempt++) {
      expect(decideNext([found('a', 'A'), down('b')], attempt)).toEqual(retry(attempt));
    }
  });

  it('after the last attempt completes with what was found, the outage notwithstanding', () => {
    expect(decideNext([found('a', 'A'), down('b')], MAX_SEARCH_ATTEMPTS)).toEqual(
      complete(['a', 'A']),
    );
  });

  it('fails insurer_problem when no insurer could be reached, at once when no retry can help', () => {
    expect(decideNext([down('a', false), down('b', false)], 1)).toEqual(fail('insurer_problem'));
    expect(decideNext([down('a')], MAX_SEARCH_ATTEMPTS)).toEqual(fail('insurer_problem'));
  });

  it('fails unexpected_error when a connector broke and nothing was found', () => {
    expect(decideNext([broken('a')], 1)).toEqual(fail('unexpected_error'));
    expect(decideNext([broken('a'), down('b', false)], 1)).toEqual(fail('unexpected_error'));
  });

  it('a broken connector does not hide a plan another insurer found', () => {
    expect(decideNext([broken('a'), found('b', 'B')], 1)).toEqual(complete(['b', 'B']));
  });
});

describe('decideNext with the outcomes of real insurers', () => {
  it('fails insurer_problem at once when the insurer rejected the practice setup', () => {
    expect(decideNext([rejected('a')], 1)).toEqual(fail('insurer_problem'));
    expect(decideNext([rejected('a'), down('b', false)], 1)).toEqual(fail('insurer_problem'));
  });

  it('a rejection does not hide what another insurer found, and is settled', () => {
    expect(decideNext([found('a', 'A'), rejected('b')], 1)).toEqual(complete(['a', 'A']));
    expect(isSettled(rejected('b'))).toBe(true);
  });

  it('retries no sooner than the longest Retry-After, capped', () => {
    expect(decideNext([throttled('a', 3_000), throttled('b', 7_000)], 1)).toEqual(retry(1, 7_000));
    expect(decideNext([throttled('a', 10 * MAX_RETRY_AFTER_MS)], 2)).toEqual(
      retry(2, MAX_RETRY_AFTER_MS),
    );
  });

  it('an unexpected answer ends unexpected_error after the others are settled', () => {
    expect(decideNext([broken('a'), rejected('b')], 1)).toEqual(fail('unexpected_error'));
  });
});

describe('settled outcomes', () => {
  it('keeps answers and final failures, asks again the unavailable and the deferred', () => {
    expect(isSettled(found('a'))).toBe(true);
    expect(isSettled(broken('a'))).toBe(true);
    expect(isSettled(down('a', false))).toBe(true);
    expect(isSettled(down('a', true))).toBe(false);
    expect(isSettled(deferred('a', 10))).toBe(false);
    expect(
      Object.keys(settledByCode([found('a'), down('b'), deferred('c', 1), broken('d')])),
    ).toEqual(['a', 'd']);
  });

  it('spaces retries base × 1, 2, 4, none after the fourth attempt', () => {
    const policy = searchRetries(1000);
    expect([1, 2, 3, 4].map((n) => retryDelayMs(policy, n))).toEqual([1000, 2000, 4000, null]);
  });
});
