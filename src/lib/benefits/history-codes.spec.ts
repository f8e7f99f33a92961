import { HISTORY_BENEFIT_CODES, historyBenefitOf, historyBenefitOfCodes } from './history-codes';

/** docs/api.md, Next eligible dates: which claimed procedure uses up which benefit. */
describe('history benefit codes', () => {
  it.each([
    ['92002', 'exam.routine'],
    ['92014', 'exam.routine'],
    ['92015', 'exam.routine'],
    ['s0620', 'exam.routine'],
    ['S0621', 'exam.routine'],
    ['V2020', 'materials.frames'],
    ['v2025', 'materials.frames'],
    ['V2100', 'materials.spectacle_lenses.single_vision'],
    ['V2203', 'materials.spectacle_lenses.bifocal'],
    ['V2300', 'materials.spectacle_lenses.trifocal'],
    ['V2410', 'materials.spectacle_lenses'],
    ['V2499', 'materials.spectacle_lenses'],
    ['V2500', 'materials.contact_lenses'],
    ['V2599', 'materials.contact_lenses'],
  ])('%s uses up %s', (code, benefit) => {
    expect(historyBenefitOf(code)).toBe(benefit);
  });

  it.each([
    '92001',
    '92016',
    '92310',
    'V2021',
    'V2024',
    'V2099',
    'V2600',
    'V2750',
    'V2781',
    'S0500',
    '',
    'X',
  ])('%s uses up no benefit', (code) => {
    expect(historyBenefitOf(code)).toBeNull();
  });

  it('every benefit a code uses up is one a staff entry may name', () => {
    const codes = ['92004', '92015', 'V2020', 'V2100', 'V2200', 'V2300', 'V2400', 'V2520'];
    for (const code of codes) expect(HISTORY_BENEFIT_CODES).toContain(historyBenefitOf(code));
  });

  it('a service line counts as the first of its codes that uses one up', () => {
    expect(historyBenefitOfCodes(['V2750', 'v2020'])).toEqual({
      code: 'V2020',
      benefit: 'materials.frames',
    });
    expect(historyBenefitOfCodes(['92310'])).toBeNull();
  });
});
