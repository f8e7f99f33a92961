import { findItem as find, janeTree as tree } from '../../../../../test/x12/mapped271';
import { planJsonBothWays } from '../../../../../test/support/serialize-plan';
import type { BenefitItem } from '@/lib/benefits/benefit.types';

/**
 * docs/api.md, Next eligible dates (what a 271 says): the HSD frequency, DTP 304 (last visit),
 * DTP 346 (plan begin, for plan years) and DTP 348 (a date the payer states) of Jane's 271, asked
 * about on 2026-03-15 (MAP271_OPTIONS).
 */

/** The routine exam of Jane's tree with these 2100C/2110C segments after a coverage line. */
const exam = (lines: string[], head: string[] = []) =>
  find(tree([...head, 'EB*1*IND*30~', ...lines]).items, 'exam.routine');

const EXAM_EVERY_12 = 'Routine exam: once every 12 months, counted from the last service.';

describe('271 → frequency, last service and next eligible (docs/api.md, Next eligible dates)', () => {
  it("HSD*VS*1***22 (service year) with DTP*304: rolling 12 months from the payer's last visit", () => {
    const item = exam(['EB*F*IND*AN******VS*1~', 'HSD*VS*1***22~', 'DTP*304*D8*20250612~']);
    expect(item).toMatchObject({
      frequency: { count: 1, period: { kind: 'rolling', months: 12 }, shared_with: [] },
      last_service: { date: '2025-06-12', source: 'payer' },
      last_service_date: '2025-06-12',
      next_eligible: {
        date: '2026-06-12',
        basis: 'computed',
        explanation: [
          EXAM_EVERY_12,
          'The last service that counts was on 2025-06-12; a new one is allowed from ' +
            '2026-06-12, 12 months after it.',
        ],
      },
      next_eligible_date: '2026-06-12',
    });
  });

  it('HSD*VS*2***23 (twice per calendar year): one visit on record leaves the second available', () => {
    const item = exam(['EB*F*IND*AN******VS*2~', 'HSD*VS*2***23~', 'DTP*304*D8*20260210~']);
    expect(item?.frequency).toEqual({
      count: 2,
      period: { kind: 'calendar_year', months: 12 },
      shared_with: [],
    });
    expect(item?.next_eligible).toEqual({
      date: '2026-03-15',
      basis: 'computed',
      explanation: [
        'Routine exam: twice per calendar year; the count starts again each 1 January.',
        '1 service that counts is on record, fewer than the 2 allowed, so another is allowed ' +
          'from the last one, on 2026-02-10.',
        'It has been available since 2026-02-10, so it is available on 2026-03-15.',
      ],
    });
    expect(item?.last_service).toEqual({ date: '2026-02-10', source: 'payer' });
  });

  it('a payer DTP*348 that disagrees with the computed date wins, and both are named', () => {
    const item = exam([
      'EB*F*IND*AN******VS*1~',
      'HSD*VS*1***34*12~',
      'DTP*304*D8*20250612~',
      'DTP*348*D8*20260701~',
    ]);
    expect(item?.next_eligible).toEqual({
      date: '2026-07-01',
      basis: 'payer_stated',
      explanation: [
        'The payer states it is available from 2026-07-01.',
        "The frequency and the services on record give 2026-06-12 instead; the payer's date, " +
          '2026-07-01, is used.',
        EXAM_EVERY_12,
        'The last service that counts was on 2025-06-12; a new one is allowed from ' +
          '2026-06-12, 12 months after it.',
      ],
    });
    expect(item?.next_eligible_date).toBe('2026-07-01');
    expect(item?.last_service_date).toBe('2025-06-12');
  });

  it('a DTP*348 older than the last visit is set aside, and the explanation says so', () => {
    const item = exam([
      'EB*F*IND*AN******VS*1~',
      'HSD*VS*1***34*12~',
      'DTP*304*D8*20250612~',
      'DTP*348*D8*20250101~',
    ]);
    expect(item?.next_eligible?.basis).toBe('computed');
    expect(item?.next_eligible?.date).toBe('2026-06-12');
    expect(item?.next_eligible?.explanation[0]).toBe(
      'The payer states 2025-01-01, but a service that counts is on record on 2025-06-12, ' +
        "after it: the payer's date is older than that service and is not used.",
    );
  });

  it("a DTP*348 without a frequency is the payer's date, with no rule to check it by", () => {
    const item = exam(['EB*1*IND*AN~', 'DTP*348*D8*20260701~']);
    expect(item).not.toHaveProperty('frequency');
    expect(item?.next_eligible).toEqual({
      date: '2026-07-01',
      basis: 'payer_stated',
      explanation: [
        'The payer states it is available from 2026-07-01.',
        'The plan states no frequency for this benefit, so the date cannot be computed.',
      ],
    });
  });

  it('a DTP*304 without a frequency is the last service, and no next eligible date is made up', () => {
    const item = exam(['EB*1*IND*AN~', 'DTP*304*D8*20250612~']);
    expect(item?.last_service).toEqual({ date: '2025-06-12', source: 'payer' });
    expect(item).not.toHaveProperty('next_eligible');
    expect(item).not.toHaveProperty('next_eligible_date');
  });

  it('HSD*VS*1***25 (contract) is the plan year from the DTP*346 plan begin', () => {
    const item = exam(
      ['EB*F*IND*AN******VS*1~', 'HSD*VS*1***25~', 'DTP*304*D8*20250901~'],
      ['DTP*346*D8*20250701~'],
    );
    expect(item?.frequency?.period).toEqual({ kind: 'plan_year', months: 12 });
    expect(item?.next_eligible?.date).toBe('2026-07-01');
    expect(item?.next_eligible?.explanation[0]).toBe(
      "Routine exam: once per plan year; plan years begin on the anniversary of the plan's " +
        'begin date, 2025-07-01.',
    );
  });

  it("a date past the plan's end (DTP*347) says it is not under this plan", () => {
    const frames = find(
      tree([
        'DTP*346*D8*20260101~',
        'DTP*347*D8*20261231~',
        'EB*1*IND*30~',
        'EB*F*IND*AM******VS*1~',
        'HSD*VS*1***34*24~',
        'DTP*304*D8*20250831~',
      ]).items,
      'materials.frames',
    );
    expect(frames?.next_eligible?.date).toBe('2027-08-31');
    expect(frames?.next_eligible?.explanation.at(-1)).toBe(
      '2027-08-31 is after the plan ends on 2026-12-31: not under this plan.',
    );
  });

  it.each<[string, string[], NonNullable<BenefitItem['frequency']>['period'] | undefined]>([
    ['34 months, HSD06 6', ['HSD*VS*1***34*6~'], { kind: 'rolling', months: 6 }],
    ['21 years, HSD06 2', ['HSD*VS*1***21*2~'], { kind: 'rolling', months: 24 }],
    ['22 service year', ['HSD*VS*1***22~'], { kind: 'rolling', months: 12 }],
    ['23 calendar years, HSD06 2', ['HSD*FL*1***23*2~'], { kind: 'calendar_year', months: 24 }],
    ['25 contract without a plan begin date', ['HSD*VS*1***25~'], undefined],
    ['35 weeks', ['HSD*VS*1***35*4~'], undefined],
    ['7 days', ['HSD*VS*1***7*30~'], undefined],
    ['24 year to date', ['HSD*VS*1***24~'], undefined],
    ['26 episode', ['HSD*VS*1***26~'], undefined],
    ['27 visit', ['HSD*VS*1***27~'], undefined],
    ['29 remaining', ['HSD*VS*1***29~'], undefined],
    ['32 lifetime', ['HSD*VS*1***32~'], undefined],
    ['a quantity of days (HSD01 DY), not of services', ['HSD*DY*30***34*12~'], undefined],
    ['more periods than twenty years', ['HSD*VS*1***21*21~'], undefined],
  ])('HSD05 %s', (_title, hsd, period) => {
    const item = exam(['EB*F*IND*AN******VS*1~', ...hsd]);
    if (period === undefined) {
      expect(item).not.toHaveProperty('frequency');
      expect(item).not.toHaveProperty('next_eligible');
    } else expect(item?.frequency).toEqual({ count: 1, period, shared_with: [] });
  });

  it("counts HSD02, else the line's EB10, else one per period", () => {
    const count = (lines: string[]) => exam(lines)?.frequency?.count;
    expect(count(['EB*F*IND*AN******VS*1~', 'HSD*VS*3***34*12~'])).toBe(3);
    expect(count(['EB*F*IND*AN******VS*2~', 'HSD*****34*12~'])).toBe(2);
    expect(count(['EB*F*IND*AN***23*45~', 'HSD*****34*12~'])).toBe(1);
  });

  it('prints the new fields through both serializers alike, and never what the payer stated apart', () => {
    const plan = tree([
      'EB*1*IND*30~',
      'EB*F*IND*AN******VS*1~',
      'HSD*VS*1***22~',
      'DTP*304*D8*20250612~',
      'DTP*348*D8*20260701~',
    ]);
    const json = planJsonBothWays(plan);
    expect(json).not.toContain('"stated":');
    const printed = JSON.parse(json).items[0].items[0];
    expect(Object.keys(printed).slice(-5)).toEqual([
      'last_service_date',
      'next_eligible_date',
      'frequency',
      'last_service',
      'next_eligible',
    ]);
    expect(printed.frequency).toEqual({
      count: 1,
      period: { kind: 'rolling', months: 12 },
      shared_with: [],
    });
  });
});
