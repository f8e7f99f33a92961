import type { Estimate, EstimateLine } from '../domain/estimate.types';
import { estimateForPeople } from './estimate-words';

const line = (index: number, benefit: string | null, notes: string[]): EstimateLine =>
  ({ index, codes: ['V2100'], benefit_code: benefit, notes }) as unknown as EstimateLine;

const SINGLE = 'materials.spectacle_lenses.single_vision';
const AR = 'materials.spectacle_lenses.single_vision.options.anti_reflective';

describe('the estimate as the page says it', () => {
  const estimate = {
    network: 'oon',
    groups: [{ benefit_code: 'exam' }],
    lines: [
      line(0, 'exam', ['oon copayment $10.00 on exam, once per group']),
      line(1, SINGLE, ['allowance shared with line 1, 3: $20.00 left for this line']),
      line(2, AR, [`estimated on ${AR}, with the lenses of line 1`]),
      line(4, null, ['V2750 maps to materials.spectacle_lenses.options.anti_reflective']),
      line(3, null, [
        `benefits under it with an allowance: ${SINGLE}, ${AR} (estimate on one with benefit_code)`,
      ]),
    ],
  } as unknown as Estimate;

  it('counts lines from 1 and names benefits in words, keeping the codes as data', () => {
    const shown = estimateForPeople(estimate, [SINGLE]);
    expect(shown.lines.map((l) => [l.index, l.number, l.benefit_code])).toEqual([
      [0, 1, 'exam'],
      [1, 2, SINGLE],
      [2, 3, AR],
      [4, 5, null],
      [3, 4, null],
    ]);
    expect(shown.lines.map((l) => l.notes)).toEqual([
      ['oon copayment $10.00 on eye exam, once per group'],
      ['allowance shared with line 2, 4: $20.00 left for this line'],
      ['estimated on anti-reflective coating, with the lenses of line 2'],
      ['V2750 maps to anti-reflective coating'],
      [
        'benefits under it with an allowance: single vision, anti-reflective coating (estimate on one by choosing it as the line’s benefit)',
      ],
    ]);
  });

  it('leaves the API answer it was given as it was', () => {
    estimateForPeople(estimate, [SINGLE]);
    expect(estimate.lines[1].notes).toEqual([
      'allowance shared with line 1, 3: $20.00 left for this line',
    ]);
  });
});
