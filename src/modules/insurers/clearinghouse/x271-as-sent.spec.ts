import { jane271 } from '../../../../test/x12/fixtures';
import { plans271 } from '../../../../test/x12/mapped271';
import { serializePlan, serializePlanJson } from '@/modules/benefits/benefit.serializer';
import type { BenefitItem, Plan } from '@/modules/benefits/benefit.types';
import type { InsurerPlanResult } from '@/modules/insurers/insurer-connector';
import { subtractDecimal } from './benefit-tree';

/**
 * docs/api.md, Real insurers, one rule per test, on 271s shaped like the implementation guide's examples and
 * the vision plan designs payers send (12/12/24 months, contacts in lieu of glasses, calendar-year
 * plans, vision carved out of a medical plan).
 */

function plan(segments: string[]): InsurerPlanResult {
  return plans271(jane271(segments))[0];
}

function tree(segments: string[]): Plan {
  return plan(segments).persons[0].plan;
}

function find(items: BenefitItem[], code: string): BenefitItem | undefined {
  for (const item of items) {
    if (item.benefit_code === code) return item;
    const inner = find(item.items ?? [], code);
    if (inner) return inner;
  }
  return undefined;
}

describe('271 → result: the mapping of docs/api.md, Real insurers', () => {
  it.each(['S0620', 'S0621', '92015'])('%s keys an exam copay to exam.routine', (code) => {
    const item = find(
      tree(['EB*1*IND*30~', `EB*B*IND*AL***27*10*****Y*HC:${code}~`]).items,
      'exam.routine',
    );
    expect(item?.copayment).toEqual([{ flags: ['inn'], comment: 'per visit', value: '10' }]);
  });

  it.each(['S0500', 'S0516', 'S0580', 'S0581'])('%s is a spectacle lens option', (code) => {
    const item = find(
      tree(['EB*1*IND*30~', `EB*B*IND*AO***27*25*****Y*HC:${code}~`]).items,
      'materials.spectacle_lenses.options',
    );
    expect(item?.copayment).toEqual([{ flags: ['inn'], comment: 'per visit', value: '25' }]);
  });

  it('an S-code outside the ranges maps nowhere and the line falls back to its EB03', () => {
    const items = tree(['EB*1*IND*30~', 'EB*B*IND*AO***27*25*****Y*HC:S0517~']).items;
    expect(find(items, 'materials.spectacle_lenses')?.copayment).toEqual([
      { flags: ['inn'], comment: 'per visit', value: '25' },
    ]);
    expect(find(items, 'materials.spectacle_lenses.options')).toBeUndefined();
  });

  it('an EB13 that maps nowhere falls back to its EB03 (frames keyed to a retail code)', () => {
    const items = tree(['EB*1*IND*30~', 'EB*F*IND*AM***23*150*****Y*HC:99070~']).items;
    expect(find(items, 'materials.frames')?.allowance).toEqual([
      { flags: ['inn'], comment: 'per calendar year', value: '150' },
    ]);
  });

  it('EB06 24 (year to date) amounts are allowance used, not allowance', () => {
    const frames = find(
      tree(['EB*1*IND*30~', 'EB*F*IND*AM***23*150*****Y~', 'EB*F*IND*AM***24*150*****Y~']).items,
      'materials.frames',
    );
    expect(frames?.allowance).toEqual([
      { flags: ['inn'], comment: 'per calendar year', value: '150' },
    ]);
    expect(frames?.allowance_accepted).toEqual([
      { flags: ['inn'], comment: 'year to date', value: '150' },
    ]);
  });

  it('EB06 29 remaining with a stated maximum: allowance used = maximum − remaining', () => {
    const frames = find(
      tree(['EB*1*IND*30~', 'EB*F*IND*AM***29*40.5*****Y~', 'EB*F*IND*AM***23*150*****Y~']).items,
      'materials.frames',
    );
    expect(frames?.allowance).toEqual([
      { flags: ['inn'], comment: 'per calendar year', value: '150' },
    ]);
    expect(frames?.allowance_accepted).toEqual([{ flags: ['inn'], value: '109.5' }]);
  });

  it('EB06 33 lifetime remaining is treated the same way', () => {
    const lenses = find(
      tree(['EB*1*IND*30~', 'EB*F*IND*AO***32*300*****Y~', 'EB*F*IND*AO***33*100*****Y~']).items,
      'materials.spectacle_lenses',
    );
    expect(lenses?.allowance_accepted).toEqual([{ flags: ['inn'], value: '200' }]);
  });

  it('EB06 29 remaining without a maximum stays a "remaining" allowance, nothing invented', () => {
    const exam = find(tree(['EB*1*IND*30~', 'EB*F*IND*AN***29*45*****N~']).items, 'exam.routine');
    expect(exam?.allowance).toEqual([{ flags: ['oon'], comment: 'remaining', value: '45' }]);
    expect(exam).not.toHaveProperty('allowance_accepted');
  });

  it('EB06 29 remaining visits (VS) with a stated maximum → quantity used', () => {
    const exam = find(
      tree(['EB*1*IND*30~', 'EB*F*IND*AN******VS*2~', 'HSD*VS*2***23~', 'EB*F*IND*AN***29***VS*0~'])
        .items,
      'exam.routine',
    );
    expect(exam?.quantity).toEqual([{ comment: '2 per calendar year', value: 2 }]);
    expect(exam?.quantity_accepted).toEqual([{ value: 2 }]);
  });

  it('EB06 24 visits used this year → quantity used', () => {
    const exam = find(tree(['EB*1*IND*30~', 'EB*F*IND*AN***24***VS*1~']).items, 'exam.routine');
    expect(exam?.quantity_accepted).toEqual([{ comment: 'year to date', value: 1 }]);
  });

  it('EB01 C is a deductible on the item', () => {
    const lenses = find(
      tree(['EB*1*IND*30~', 'EB*C*IND*AO***23*25*****N~']).items,
      'materials.spectacle_lenses',
    );
    expect(lenses?.deductible).toEqual([
      { flags: ['oon'], comment: 'per calendar year', value: '25' },
    ]);
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

  it('DTP 304 is the last service, DTP 348 the next eligible date', () => {
    const exam = find(
      tree([
        'EB*1*IND*30~',
        'EB*F*IND*AN******VS*1~',
        'HSD*VS*1***34*12~',
        'DTP*304*D8*20250612~',
        'DTP*348*D8*20260701~',
      ]).items,
      'exam.routine',
    );
    expect(exam).toMatchObject({
      last_service_date: '2025-06-12',
      next_eligible_date: '2026-07-01',
    });
  });

  it('a frequency with a last service gives the next eligible date (frames every 24 months)', () => {
    const frames = find(
      tree(['EB*1*IND*30~', 'EB*F*IND*AM******VS*1~', 'HSD*VS*1***34*24~', 'DTP*304*D8*20250831~'])
        .items,
      'materials.frames',
    );
    expect(frames).toMatchObject({
      last_service_date: '2025-08-31',
      next_eligible_date: '2027-08-31',
    });
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
    const json = serializePlanJson(p);
    expect(json).toBe(JSON.stringify(serializePlan(p)));
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
