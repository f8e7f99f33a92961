import {
  findItem as find,
  janePlan as plan,
  janeTree as tree,
} from '../../../../../test/x12/mapped271';
import { planJsonBothWays } from '../../../../../test/support/serialize-plan';
import type { BenefitItem } from '@/lib/benefits/benefit.types';
import { subtractDecimal } from './benefit-tree';

/**
 * docs/api.md, Real insurers, one rule per test, on 271s shaped like the implementation guide's examples and
 * the vision plan designs payers send (12/12/24 months, contacts in lieu of glasses, calendar-year
 * plans, vision carved out of a medical plan).
 */

/** The item `code` of Jane's tree from a coverage line (EB*1 on 30) and these lines. */
const itemOf = (code: string, lines: string[]) =>
  find(tree(['EB*1*IND*30~', ...lines]).items, code);

describe('271 → result: the mapping of docs/api.md, Real insurers', () => {
  const inn = (value: string, comment: string) => ({ flags: ['inn' as const], comment, value });

  it.each(['S0620', 'S0621', '92015'])('%s keys an exam copay to exam.routine', (code) => {
    const item = itemOf('exam.routine', [`EB*B*IND*AL***27*10*****Y*HC:${code}~`]);
    expect(item?.copayment).toEqual([inn('10', 'per visit')]);
  });

  it.each(['S0500', 'S0516', 'S0580', 'S0581'])('%s is a spectacle lens option', (code) => {
    const item = itemOf('materials.spectacle_lenses.options', [
      `EB*B*IND*AO***27*25*****Y*HC:${code}~`,
    ]);
    expect(item?.copayment).toEqual([inn('25', 'per visit')]);
  });

  it('an S-code outside the ranges maps nowhere and the line falls back to its EB03', () => {
    const items = tree(['EB*1*IND*30~', 'EB*B*IND*AO***27*25*****Y*HC:S0517~']).items;
    expect(find(items, 'materials.spectacle_lenses')?.copayment).toEqual([inn('25', 'per visit')]);
    expect(find(items, 'materials.spectacle_lenses.options')).toBeUndefined();
  });

  it.each<{ title: string; code: string; lines: string[]; lists: Partial<BenefitItem> }>([
    {
      title: 'an EB13 that maps nowhere falls back to its EB03 (frames keyed to a retail code)',
      code: 'materials.frames',
      lines: ['EB*F*IND*AM***23*150*****Y*HC:99070~'],
      lists: { allowance: [inn('150', 'per calendar year')] },
    },
    {
      title: 'EB06 24 (year to date) amounts are allowance used, not allowance',
      code: 'materials.frames',
      lines: ['EB*F*IND*AM***23*150*****Y~', 'EB*F*IND*AM***24*150*****Y~'],
      lists: {
        allowance: [inn('150', 'per calendar year')],
        allowance_accepted: [inn('150', 'year to date')],
      },
    },
    {
      title: 'EB06 29 remaining with a stated maximum: allowance used = maximum − remaining',
      code: 'materials.frames',
      lines: ['EB*F*IND*AM***29*40.5*****Y~', 'EB*F*IND*AM***23*150*****Y~'],
      lists: {
        allowance: [inn('150', 'per calendar year')],
        allowance_accepted: [{ flags: ['inn'], value: '109.5' }],
      },
    },
    {
      title: 'EB06 33 lifetime remaining is treated the same way',
      code: 'materials.spectacle_lenses',
      lines: ['EB*F*IND*AO***32*300*****Y~', 'EB*F*IND*AO***33*100*****Y~'],
      lists: { allowance_accepted: [{ flags: ['inn'], value: '200' }] },
    },
    {
      title: 'EB06 29 remaining visits (VS) with a stated maximum → quantity used',
      code: 'exam.routine',
      lines: ['EB*F*IND*AN******VS*2~', 'HSD*VS*2***23~', 'EB*F*IND*AN***29***VS*0~'],
      lists: {
        quantity: [{ comment: '2 per calendar year', value: 2 }],
        quantity_accepted: [{ value: 2 }],
      },
    },
    {
      title: 'EB06 24 visits used this year → quantity used',
      code: 'exam.routine',
      lines: ['EB*F*IND*AN***24***VS*1~'],
      lists: { quantity_accepted: [{ comment: 'year to date', value: 1 }] },
    },
    {
      title: 'EB01 C is a deductible on the item',
      code: 'materials.spectacle_lenses',
      lines: ['EB*C*IND*AO***23*25*****N~'],
      lists: { deductible: [{ flags: ['oon'], comment: 'per calendar year', value: '25' }] },
    },
    {
      title: 'DTP 304 is the last service, DTP 348 the next eligible date',
      code: 'exam.routine',
      lines: [
        'EB*F*IND*AN******VS*1~',
        'HSD*VS*1***34*12~',
        'DTP*304*D8*20250612~',
        'DTP*348*D8*20260701~',
      ],
      lists: { last_service_date: '2025-06-12', next_eligible_date: '2026-07-01' },
    },
    {
      title:
        'a frequency with a last service gives the next eligible date (frames every 24 months)',
      code: 'materials.frames',
      lines: ['EB*F*IND*AM******VS*1~', 'HSD*VS*1***34*24~', 'DTP*304*D8*20250831~'],
      lists: { last_service_date: '2025-08-31', next_eligible_date: '2027-08-31' },
    },
  ])('$title', ({ code, lines, lists }) => {
    const item = itemOf(code, lines);
    const keys = Object.keys(lists) as (keyof BenefitItem)[];
    expect(Object.fromEntries(keys.map((key) => [key, item?.[key]]))).toEqual(lists);
  });

  it('EB06 29 remaining without a maximum stays a "remaining" allowance, nothing invented', () => {
    const exam = find(tree(['EB*1*IND*30~', 'EB*F*IND*AN***29*45*****N~']).items, 'exam.routine');
    expect(exam?.allowance).toEqual([{ flags: ['oon'], comment: 'remaining', value: '45' }]);
    expect(exam).not.toHaveProperty('allowance_accepted');
  });

  it('EB01 I is the item with flag not_covered and no values (contacts in lieu of glasses)', () => {
    const items = tree([
      'EB*1*IND*30~',
      'EB*I*IND*AM~',
      'MSG*FRAMES NOT COVERED WHEN CONTACTS ARE CHOSEN~',
    ]).items;
    expect(find(items, 'materials.frames')).toEqual({
      benefit_code: 'materials.frames',
      refresh_date: '2027-03-15',
      flags: ['not_covered'],
      comment: 'FRAMES NOT COVERED WHEN CONTACTS ARE CHOSEN',
      items: [],
    });
  });

  it('EB01 U with a 2120 loop: vision carved out to another administrator', () => {
    const result = plan([
      'EB*1*IND*30**MEDICAL PPO~',
      'EB*U*IND*AL~',
      'MSG*VISION BENEFITS ADMINISTERED BY EYEMED~',
      'LS*2120~',
      'NM1*PR*2*EYEMED VISION CARE*****PI*EYEMD~',
      'PER*IC**TE*8665550100~',
      'LE*2120~',
    ]);
    expect(result.persons[0].plan.carve_out).toEqual({
      name: 'EYEMED VISION CARE',
      payer_id: 'EYEMD',
      phone: '8665550100',
    });
    expect(result.persons[0].plan.items).toEqual([]);
  });

  it('EB01 R: other payers with their payer id and the member id there', () => {
    const result = plan([
      'EB*1*IND*30~',
      'EB*R*IND*30*MB*MEDICARE PART B~',
      'REF*IG*1EG4TE5MK73~',
      'LS*2120~',
      'NM1*PR*2*MEDICARE*****PI*CMS~',
      'LE*2120~',
      'EB*R*IND*30~',
      'LS*2120~',
      'NM1*PRP*2*BLUE CROSS MEDICAL*****PI*00590~',
      'NM1*IL*1*DOE*JANE****MI*XYZ123~',
      'LE*2120~',
    ]);
    expect(result.persons[0].plan.other_payers).toEqual([
      { name: 'MEDICARE', payer_id: 'CMS', member_id: '1EG4TE5MK73' },
      { name: 'BLUE CROSS MEDICAL', payer_id: '00590', member_id: 'XYZ123' },
    ]);
    // An EB*R's EB05 names the other payer's plan, not this one.
    expect(result.planName).toBe('DAVIS VISION');
  });

  it('REF*1L or REF*IG is the plan group id when there is no 6P', () => {
    expect(plan(['REF*1L*GRP-778~', 'EB*1*IND*30~'])).toMatchObject({
      planGroupId: 'GRP-778',
      planGroup: '',
    });
    expect(plan(['REF*IG*POL-1~', 'EB*1*IND*30~'])).toMatchObject({ planGroupId: 'POL-1' });
    expect(plan(['REF*1L*GRP-778~', 'REF*6P*G-1*ACME~', 'EB*1*IND*30~'])).toMatchObject({
      planGroupId: 'G-1',
      planGroup: 'ACME',
    });
  });

  it('an EB 1–8 on AL/30 decides the status over other service types', () => {
    expect(plan(['EB*6*IND*30~', 'EB*1*IND*AM~'])).toMatchObject({
      status: 'inactive',
      planIsActive: false,
    });
    expect(plan(['EB*1*IND*AL~', 'EB*6*IND*AN~'])).toMatchObject({ status: 'active' });
  });

  it('the plan name comes from the vision line, not the medical plan line', () => {
    expect(
      plan(['EB*1*IND*30**MEDICAL PPO 500~', 'EB*1*IND*AL**VISION ESSENTIALS~']).planName,
    ).toBe('VISION ESSENTIALS');
  });

  it('a DTP*307 RD8 is the inquiry date, not the plan dates; 346/347 still are', () => {
    expect(plan(['DTP*307*RD8*20260315-20260315~', 'EB*1*IND*30~'])).toMatchObject({
      planBeginDate: '2026-03-15',
      planEndDate: null,
    });
    expect(
      plan(['DTP*346*D8*20260101~', 'DTP*307*RD8*20260315-20260315~', 'EB*1*IND*30~']),
    ).toMatchObject({ planBeginDate: '2026-01-01', planEndDate: null });
  });

  it('the V2 additions serialise the same through both serializers', () => {
    const p = tree([
      'EB*1*IND*30~',
      'EB*C*IND*30***23*50~',
      'EB*I*IND*AM~',
      'EB*F*IND*AN******VS*1~',
      'DTP*304*D8*20250612~',
      'EB*U*IND*AL~',
      'LS*2120~',
      'NM1*PR*2*EYEMED*****PI*EYEMD~',
      'LE*2120~',
      'EB*R*IND*30~',
      'LS*2120~',
      'NM1*PR*2*MEDICARE*****PI*CMS~',
      'LE*2120~',
    ]);
    const json = planJsonBothWays(p);
    expect(JSON.parse(json)).toMatchObject({
      deductible: [{ comment: 'per calendar year', value: '50.0000' }],
      carve_out: { name: 'EYEMED', payer_id: 'EYEMD', phone: null },
      other_payers: [{ name: 'MEDICARE', payer_id: 'CMS', member_id: null }],
    });
  });

  it('subtracts decimal strings exactly', () => {
    expect(subtractDecimal('150', '40.5')).toBe('109.5');
    expect(subtractDecimal('0.3', '0.1')).toBe('0.2');
    expect(subtractDecimal('100.00', '100')).toBe('0');
    expect(subtractDecimal('10', '20')).toBeNull();
  });
});
