import fc from 'fast-check';
import { X12ParseError } from './x12.errors';
import { countSegments, MAX_SEGMENTS, tokenize } from './x12.tokenizer';

const ISA =
  'ISA*00*          *00*          *ZZ*VISIONPAYER    *ZZ*EYEPRACTICE    *260201*0900*^*00501*000000301*0*P*:~';

/** An interchange with `terminator` as its segment terminator and `body` after the header. */
const interchange = (terminator: string, body: string) => ISA.slice(0, -1) + terminator + body;

const TOO_MANY = /^X12: the interchange has more than [\d,]+ segments, the most one interchange/;

/** What tokenize does with the text: its segment count, or the error it refuses with. */
function outcome(text: string, cap: number): number | string {
  try {
    return tokenize(text, cap).segments.length;
  } catch (e) {
    if (!(e instanceof X12ParseError)) throw e;
    return e.message;
  }
}

/**
 * Every segment once became an object before any check, so a few MB of `AB~` took the
 * process's whole heap. The segment count is now capped before the first segment is read.
 */
describe('tokenize: the segment cap', () => {
  // Text of segment-like pieces: ids, separators, line breaks, empty segments, junk.
  const body = (terminator: string) =>
    fc
      .array(
        fc.constantFrom('AB', 'ST*835*1', 'N1*PR*X', '*', ':', '^', '\r\n', ' ', 'x', terminator),
        { maxLength: 200 },
      )
      .map((parts) => parts.join(''));
  const terminator = fc.constantFrom('~', '\n', '|');

  it('never reads more segments than the cap, whatever the text', () => {
    fc.assert(
      fc.property(
        terminator.chain((t) => fc.tuple(fc.constant(t), body(t))),
        fc.integer({ min: 1, max: 60 }),
        ([t, rest], cap) => {
          const text = interchange(t, rest);
          const result = outcome(text, cap);
          const terminators = text.split(t).length - 1;
          if (typeof result === 'number') expect(result).toBeLessThanOrEqual(cap);
          // More terminators than the cap: refused for that, before any segment is looked at
          // (an empty or id-less segment among them would otherwise be the error).
          if (terminators > cap) expect(result).toMatch(TOO_MANY);
          else expect(String(result)).not.toMatch(TOO_MANY);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('counts terminators exactly up to one past the cap, and no further', () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom('~', 'A', '*', '\n'), { maxLength: 300 }),
        fc.integer({ min: 0, max: 100 }),
        (chars, cap) => {
          const text = chars.join('');
          const all = chars.filter((c) => c === '~').length;
          expect(countSegments(text, '~', cap)).toBe(Math.min(all, cap + 1));
        },
      ),
    );
  });

  it('refuses a flood of empty segments by their number, at the default cap', () => {
    const text = interchange('~', 'AB~'.repeat(MAX_SEGMENTS));
    expect(outcome(text, MAX_SEGMENTS)).toBe(
      'X12: the interchange has more than 100,000 segments, the most one interchange may have; split it',
    );
    // One fewer (ISA is a segment too) is read.
    expect(outcome(interchange('~', 'AB~'.repeat(MAX_SEGMENTS - 1)), MAX_SEGMENTS)).toBe(
      MAX_SEGMENTS,
    );
  });

  it('still names the segment of a malformed interchange under the cap', () => {
    expect(outcome(interchange('~', 'AB~~'), 10)).toBe(
      'X12: segment 3 is empty (two segment terminators "~" in a row)',
    );
    expect(outcome(interchange('~', 'AB~CD*1'), 10)).toBe(
      'X12: truncated interchange: the text ends inside segment 3 "CD*1", which has no segment terminator "~" (the last complete segment is segment 2 (AB))',
    );
  });
});
