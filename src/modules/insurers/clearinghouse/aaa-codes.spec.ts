import { aaa271, HEADER_TO_SUBSCRIBER, transaction271 } from '../../../../test/x12/fixtures';
import { read271 } from '@/modules/x12/x271.reader';
import { classifyAaa } from './aaa-codes';
import { Answer271, map271 } from './x271-result.mapper';

const options = { inquiryDate: '2026-03-15', queryDob: '1980-01-15' };

function map(text: string): Answer271 {
  return map271(read271(text), options);
}

/** A 271 for Jane Doe with the given 2100C/2110C segments after her NM1. */
function jane(segments: string[]): string {
  return transaction271([
    ...HEADER_TO_SUBSCRIBER,
    'NM1*IL*1*DOE*JANE****MI*DV1234567~',
    'DMG*D8*19800115*F~',
    ...segments,
  ]);
}

describe('AAA codes decide the outcome (CONTRACT §10)', () => {
  it.each([
    ['2100C', '75', 'not_found', 'C'],
    ['2100C', '72', 'not_found', 'C'],
    ['2100C', '58', 'not_found', 'C'],
    ['2100A', '42', 'retryable', 'R'],
    ['2100A', '80', 'retryable', 'R'],
    ['2100B', '43', 'rejected', 'N'],
    ['2100B', '79', 'rejected', 'N'],
    ['2100B', '41', 'rejected', 'N'],
    ['2100C', '15', 'unexpected', 'C'],
    ['2100C', '77', 'unexpected', 'C'],
  ] as const)('AAA in %s with reason %s → %s', (loop, reason, kind, followUp) => {
    const answer = map(aaa271(loop, reason, followUp));
    expect(answer).toMatchObject({ kind, aaaCodes: [reason] });
  });

  it('says where and why in words', () => {
    expect(map(aaa271('2100C', '75', 'C'))).toEqual({
      kind: 'not_found',
      aaaCodes: ['75'],
      reason: 'the payer answered AAA 75 (subscriber/insured not found) in 2100C',
    });
  });

  it('an AAA in a 2110C loop counts too, even beside benefits', () => {
    const answer = map(jane(['EB*1*IND*30~', 'EB*1*IND*AL~', 'AAA*Y**42*R~']));
    expect(answer).toMatchObject({ kind: 'retryable', aaaCodes: ['42'] });
    expect(answer.kind !== 'found' && answer.reason).toBe(
      'the payer answered AAA 42 (unable to respond at current time) in 2110C',
    );
  });

  it('a setup problem wins over the rest, an unknown reason over retry and not-found', () => {
    expect(classifyAaa(['42', '43', '75'])).toBe('rejected');
    expect(classifyAaa(['42', '15'])).toBe('unexpected');
    expect(classifyAaa(['75', '42'])).toBe('retryable');
    expect(classifyAaa(['75', '73'])).toBe('not_found');
    expect(classifyAaa([])).toBeNull();
  });

  it('a 271 with neither a subscriber nor an AAA is unexpected', () => {
    const text = transaction271([
      'BHT*0022*11*TRACE0001*20260315*1230~',
      'HL*1**20*1~',
      'NM1*PR*2*DAVIS VISION*****PI*QKZWY~',
    ]);
    expect(map(text)).toEqual({
      kind: 'unexpected',
      aaaCodes: [],
      reason: 'the 271 has no subscriber and no AAA reason',
    });
  });
});
