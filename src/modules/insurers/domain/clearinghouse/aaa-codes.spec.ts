import { aaa271, jane271, transaction271 } from '../../../../../test/x12/fixtures';
import { answer271, janePlan } from '../../../../../test/x12/mapped271';
import { read271 } from '@/lib/x12/x271.reader';
import { classifyAaa } from './aaa-codes';
import { benefitValidationNotes } from './x271-result.mapper';

describe('AAA codes decide the outcome (docs/api.md, Real insurers)', () => {
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
    const answer = answer271(aaa271(loop, reason, followUp));
    expect(answer).toMatchObject({ kind, aaaCodes: [reason] });
  });

  it('says where and why in words', () => {
    expect(answer271(aaa271('2100C', '75', 'C'))).toEqual({
      kind: 'not_found',
      aaaCodes: ['75'],
      reason: 'the payer answered AAA 75 (subscriber/insured not found) in 2100C',
    });
  });

  it('an AAA in a 2110C loop concerns that line only: the plan stays, the words become a comment (docs/api.md, Real insurers)', () => {
    // A payer asked for 30^AL^AN^AM answers the frames line with 53 and the rest normally.
    const lines = [
      'EB*1*IND*30^AL**VISION PLUS~',
      'EB*B*IND*AN***27*10*****Y~',
      'EB*1*IND*AM~',
      'AAA*N**53*C~',
      'EB*F*IND*AO***23*100*****Y~',
    ];
    // janePlan fails the test unless the answer is found.
    const plan = janePlan(lines);
    expect(plan).toMatchObject({ status: 'active', planName: 'VISION PLUS' });
    const tree = plan.persons[0].plan;
    expect(tree.comment).toBe(
      '53 (inquired benefit inconsistent with provider type) (service type AM)',
    );
    expect(tree.items.map((i) => i.benefit_code)).toEqual(['exam', 'materials']);
    expect(tree.items[1].items?.map((i) => i.benefit_code)).toEqual(['materials.spectacle_lenses']);
    expect(benefitValidationNotes(read271(jane271(lines)))).toEqual([
      'AAA 53 (inquired benefit inconsistent with provider type) in 2110C: that benefit line is left out',
    ]);
  });

  it('an AAA in 2110C does not decide the outcome even when it is a retry reason', () => {
    const answer = answer271(jane271(['EB*1*IND*30~', 'EB*1*IND*AL~', 'AAA*Y**42*R~']));
    expect(answer.kind).toBe('found');
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
    expect(answer271(text)).toEqual({
      kind: 'unexpected',
      aaaCodes: [],
      reason: 'the 271 has no subscriber and no AAA reason',
    });
  });
});
