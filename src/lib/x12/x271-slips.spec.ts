import { FOUND_SEGMENTS, found271, interchange271 } from '../../../test/x12/fixtures';
import { readInterchange } from './x12.envelope';
import { X12ParseError } from './x12.errors';
import { read271 } from './x271.reader';

/** The found 271 with one envelope segment changed. */
function withEnvelope(change: (text: string) => string): string {
  return change(found271());
}

describe('271 reader: envelope slips payers send are tolerated and recorded (docs/api.md, Real insurers)', () => {
  it('a clean 271 has no slips', () => {
    expect(read271(found271()).slips).toEqual([]);
  });

  it('an SE01 that miscounts the segments', () => {
    const segments = FOUND_SEGMENTS.filter((s) => !s.startsWith('MSG*NO EXAM'));
    const answer = read271(interchange271(segments));
    expect(answer.slips).toEqual([
      'segment 58 (SE): wrong count: SE01 says 57 segments from ST to SE, there are 56',
    ]);
    expect(answer.responses[0].sources[0].receivers[0].subscribers[0].dependents).toHaveLength(1);
  });

  it('an SE02 that is not ST02', () => {
    const answer = read271(withEnvelope((t) => t.replace('SE*57*0001~', 'SE*57*0002~')));
    expect(answer.slips).toEqual([
      'segment 59 (SE): mismatched control numbers: SE02 is "0002", ST02 is "0001"',
    ]);
    expect(answer.responses).toHaveLength(1);
  });

  it('a GE02 that is not GS06', () => {
    const answer = read271(withEnvelope((t) => t.replace('GE*1*101~', 'GE*1*102~')));
    expect(answer.slips).toEqual([
      'segment 60 (GE): mismatched control numbers: GE02 is "102", GS06 is "101"',
    ]);
  });

  it('an IEA02 that is not ISA13', () => {
    const answer = read271(withEnvelope((t) => t.replace('IEA*1*000000101~', 'IEA*1*000000999~')));
    expect(answer.slips).toEqual([
      'segment 61 (IEA): mismatched control numbers: IEA02 is "000000999", ISA13 is "000000101"',
    ]);
  });

  it('a TA1 between ISA and GS', () => {
    const text = withEnvelope((t) =>
      t.replace('~GS*HB*', '~TA1*000000101*260315*1230*A*000~GS*HB*'),
    );
    const answer = read271(text);
    expect(answer.slips).toEqual(['segment 2 (TA1): a TA1 between ISA and GS, read past']);
    expect(answer.responses[0].sources[0].receivers[0].subscribers).toHaveLength(1);
  });

  it('several slips together, each recorded', () => {
    const text = withEnvelope((t) =>
      t
        .replace('SE*57*0001~', 'SE*12*1~')
        .replace('GE*1*101~', 'GE*1*7~')
        .replace('IEA*1*000000101~', 'IEA*1*000000007~'),
    );
    expect(read271(text).slips).toHaveLength(3);
  });

  it('other readers stay strict: the same slips refuse the interchange', () => {
    const text = withEnvelope((t) => t.replace('SE*57*0001~', 'SE*57*0002~'));
    expect(() => readInterchange(text)).toThrow(X12ParseError);
    const ta1 = withEnvelope((t) =>
      t.replace('~GS*HB*', '~TA1*000000101*260315*1230*A*000~GS*HB*'),
    );
    expect(() => readInterchange(ta1)).toThrow('expected GS (a functional group) or IEA');
  });

  it('what is not a slip still refuses the 271: a missing SE, a GE01 that miscounts', () => {
    expect(() => read271(withEnvelope((t) => t.replace('SE*57*0001~', '')))).toThrow(X12ParseError);
    expect(() => read271(withEnvelope((t) => t.replace('GE*1*101~', 'GE*2*101~')))).toThrow(
      'wrong count: GE01 says 2 transaction sets, there are 1',
    );
  });
});
