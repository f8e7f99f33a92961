import { claimToAnswer, reuseWords, spanWords } from './task-clocks';

const MIN = 60_000;
const at = (iso: string) => new Date(iso);

describe("the Verifications page's words for a task's clocks", () => {
  it('says a span in minutes, then hours, then days', () => {
    expect(spanWords(20 * 1000)).toBe('less than a minute');
    expect(spanWords(MIN)).toBe('1 min');
    expect(spanWords(42 * MIN)).toBe('42 min');
    expect(spanWords(59 * MIN + 40_000)).toBe('1 hour');
    expect(spanWords(60 * MIN)).toBe('1 hour');
    expect(spanWords(200 * MIN)).toBe('3 hours 20 min');
    expect(spanWords(24 * 60 * MIN)).toBe('1 day');
    expect(spanWords((49 * 60 + 30) * MIN)).toBe('2 days 1 hour');
    expect(spanWords((3 * 24 + 5) * 60 * MIN)).toBe('3 days 5 hours');
  });

  it('says how long from the first claim to the answer, and nothing without both', () => {
    expect(claimToAnswer(at('2026-11-21T13:00:00Z'), at('2026-11-21T13:42:10Z'))).toBe(
      'answered 42 min after it was claimed',
    );
    expect(claimToAnswer(null, at('2026-11-21T13:42:00Z'))).toBeNull();
    expect(claimToAnswer(at('2026-11-21T13:00:00Z'), null)).toBeNull();
  });

  it('says how many later searches reused the answer and when last, nothing when none', () => {
    expect(reuseWords(3, at('2026-11-21T13:51:16Z'))).toBe(
      'reused for 3 later searches, last on 2026-11-21 13:51 UTC',
    );
    expect(reuseWords(1, at('2026-11-21T13:51:16Z'))).toBe(
      'reused for 1 later search, last on 2026-11-21 13:51 UTC',
    );
    expect(reuseWords(0, null)).toBeNull();
  });
});
