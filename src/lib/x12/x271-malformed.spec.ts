import { FOUND_SEGMENTS, found271, interchange271 } from '../../../test/x12/fixtures';
import { x12Refusal } from '../../../test/x12/refusal';
import { read271 } from './x271.reader';

const parseError = (text: string) => x12Refusal(read271, text);

describe('271 reader: malformed files', () => {
  describe('refuses malformed 271s', () => {
    it('a truncated file', () => {
      const text = found271();
      expect(parseError(text.slice(0, text.indexOf('HL*4*3*23*0~') + 5))).toMatch(
        /^X12: truncated interchange: the text ends inside segment 46 "HL\*4\*", which has no segment terminator "~"/,
      );
    });

    it('another transaction set than a 271', () => {
      const segments = FOUND_SEGMENTS.map((s) => s.replace('ST*271*', 'ST*270*'));
      expect(parseError(interchange271(segments))).toBe(
        'X12 segment 3 (ST): transaction set 270: expected a 271 eligibility response',
      );
    });

    it('a date that does not exist', () => {
      const segments = FOUND_SEGMENTS.map((s) =>
        s.replace('DMG*D8*19800115*F', 'DMG*D8*19800231*F'),
      );
      expect(parseError(interchange271(segments))).toBe(
        'X12 segment 17 (DMG): DMG02 "19800231" is not a CCYYMMDD date',
      );
    });

    it('a broken hierarchy', () => {
      const segments = FOUND_SEGMENTS.map((s) => s.replace('HL*4*3*23*0', 'HL*4*2*23*0'));
      expect(parseError(interchange271(segments))).toBe(
        'X12 segment 46 (HL): HL02 2 is not an earlier HL of level 22, which a level 23 HL belongs to',
      );
      const noName = FOUND_SEGMENTS.filter((s) => !s.startsWith('NM1*03')).map((s) =>
        s.startsWith('SE*') ? 'SE*56*0001~' : s,
      );
      expect(parseError(interchange271(noName))).toBe(
        'X12 segment 53 (EB): EB before the NM1 of HL 4',
      );
    });
  });

  describe('a benefit loop that does not read is skipped, the rest kept (docs/api.md, Real insurers)', () => {
    function skipped(segments: string[]) {
      const answer = read271(interchange271(segments));
      const subscriber = answer.responses[0].sources[0].receivers[0].subscribers[0];
      return { answer, subscriber };
    }

    it('an RD8 range that ends before it begins', () => {
      const { answer, subscriber } = skipped(
        FOUND_SEGMENTS.map((s) =>
          s.replace('DTP*292*RD8*20260101-20261231', 'DTP*292*RD8*20261231-20260101'),
        ),
      );
      expect(answer.skipped).toEqual([
        'X12 segment 40 (DTP): DTP03 "20261231-20260101" ends before it begins: the benefit loop of segment 39 (EB) is skipped',
      ]);
      // 17 EB loops in 2110C, one left out; the dependent is untouched.
      expect(subscriber.benefits).toHaveLength(16);
      expect(subscriber.benefits.some((b) => b.eb.procedure?.code === 'V2500')).toBe(false);
      expect(subscriber.dependents[0].benefits).toHaveLength(3);
    });

    it('an amount that is not a number', () => {
      const { answer, subscriber } = skipped(
        FOUND_SEGMENTS.map((s) => s.replace('EB*B*IND*AN***27*10*', 'EB*B*IND*AN***27*1O*')),
      );
      expect(answer.skipped).toEqual([
        'X12 segment 24 (EB): EB07 "1O" is not a number: the benefit loop of segment 24 (EB) is skipped',
      ]);
      expect(subscriber.benefits).toHaveLength(16);
    });

    it('an LS without its LE', () => {
      const { answer } = skipped(
        FOUND_SEGMENTS.filter((s) => s !== 'LE*2120~').map((s) =>
          s.startsWith('SE*') ? 'SE*56*0001~' : s,
        ),
      );
      expect(answer.skipped).toEqual([
        'X12 segment 42 (EB): its LS (2120 loop) has no LE: the benefit loop of segment 42 (EB) is skipped',
      ]);
    });

    it('a clean 271 skips nothing', () => {
      expect(read271(found271()).skipped).toEqual([]);
    });
  });
});
