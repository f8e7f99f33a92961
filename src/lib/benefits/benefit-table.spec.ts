import type { BenefitItem, Plan } from '@/lib/benefits/benefit.types';
import { buildPlan, PLAN_VARIANTS } from '@/modules/insurers/domain/demo/demo-plan';
import { benefitRows, label, planNotes } from './benefit-table';

const plan = (items: BenefitItem[]): Plan => ({
  insurer_state: 'oon',
  items,
  refresh_date: null,
  begin_date: null,
  end_date: null,
  flags: [],
});

describe('benefit table rows', () => {
  const tree = plan([
    {
      benefit_code: 'exam',
      refresh_date: '2026-01-01',
      comment: 'Comprehensive eye examination.',
      copayment: [{ flags: ['inn'], value: '45.0000' }],
      allowance: [{ flags: ['oon'], value: '50.0000', comment: 'reimbursed up to this amount' }],
      quantity: [{ value: 1, comment: 'once every 12 months' }],
      quantity_accepted: [{ value: 0 }],
      items: [
        {
          benefit_code: 'exam.routine',
          refresh_date: '2026-01-01',
          flags: ['exclusive-use'],
        },
        {
          benefit_code: 'exam.retinal_imaging',
          refresh_date: '2026-01-01',
          flags: ['requires-parent-use', 'inn'],
          copayment: [{ flags: ['inn'], value: '39.0000', comment: 'maximum member cost' }],
        },
      ],
    },
  ]);
  const rows = benefitRows(tree);
  const row = (code: string) => rows.find((r) => r.code === code)!;

  it('shows an inherited value once, on the parent; a child shows only what differs', () => {
    expect(row('exam').inn!.shown.copayment!.value).toBe('45.0000');
    expect(row('exam').inn!.quantityLeftShown).toBe(true);
    // The routine exam inherits the $45 and the count: it applies, but shows neither again.
    expect(row('exam.routine').inn!.values.copayment!.value).toBe('45.0000');
    expect(row('exam.routine').inn!.shown).toEqual({});
    expect(row('exam.routine').inn!.quantityLeft).toBe(1);
    expect(row('exam.routine').inn!.quantityLeftShown).toBe(false);
    expect(row('exam.routine').oon!.shown).toEqual({});
    // Its own, different copay is shown; the inherited count is not.
    expect(row('exam.retinal_imaging').inn!.shown).toEqual({
      copayment: { value: '39.0000', comment: 'maximum member cost' },
    });
  });

  it('shows the comments, saying which network a one-sided one is about', () => {
    expect(row('exam').notes).toEqual([
      'Comprehensive eye examination.',
      'once every 12 months',
      'reimbursed up to this amount (out of network)',
    ]);
    expect(row('exam.retinal_imaging').notes).toEqual(['maximum member cost (in network)']);
    // Inherited values' comments stay with the parent.
    expect(row('exam.routine').notes).toEqual([]);
  });

  it('says the flags in words, naming the parent benefit', () => {
    expect(row('exam.routine').flags).toEqual(['only one Eye exam option per policy year']);
    expect(row('exam.retinal_imaging').flags).toEqual(['only with Eye exam', 'in network only']);
    expect(rows.flatMap((r) => r.flags).join(' ')).not.toMatch(/requires-parent-use|exclusive-use/);
  });

  it("says the plan's own comments once, for the plan, not on every top row", () => {
    const withPlanLists: Plan = {
      ...tree,
      discount: [{ flags: ['inn'], value: '0.4', comment: '40% off additional complete pairs' }],
    };
    expect(planNotes(withPlanLists)).toEqual(['40% off additional complete pairs (in network)']);
    const top = benefitRows(withPlanLists).find((r) => r.code === 'exam')!;
    expect(top.inn!.values.discount!.value).toBe('0.4');
    expect(top.inn!.shown.discount).toBeUndefined();
    expect(top.notes.join(' ')).not.toContain('additional complete pairs');
  });

  it('says used, remaining, last used and next eligible where the insurer says (docs/api.md, Real insurers)', () => {
    const rows = benefitRows(
      plan([
        {
          benefit_code: 'materials.frames',
          refresh_date: '2027-01-01',
          allowance: [
            { flags: ['inn'], value: '150.0000' },
            { flags: ['oon'], value: '70.0000' },
          ],
          allowance_accepted: [{ value: '40.5000' }],
          last_service_date: '2025-08-31',
          next_eligible_date: '2027-08-31',
        },
        {
          benefit_code: 'materials.contact_lenses',
          refresh_date: '2027-01-01',
          flags: ['not_covered'],
        },
      ]),
    );
    expect(rows[0].notes).toEqual([
      '$40.50 used, $109.50 remaining (in network)',
      '$40.50 used, $29.50 remaining (out of network)',
      'last used 2025-08-31',
      'next eligible 2027-08-31',
    ]);
    expect(rows[1].flags).toEqual(['not covered']);
  });

  it("says the plan's comment, a carve-out and other payers for the whole plan", () => {
    expect(
      planNotes({
        ...plan([]),
        comment: '53 (inquired benefit inconsistent with provider type) (service type AM)',
        carve_out: { name: 'EYEMED VISION CARE', payer_id: 'EYEMD', phone: '8665550100' },
        other_payers: [{ name: 'MEDICARE', payer_id: 'CMS', member_id: null }],
      }),
    ).toEqual([
      '53 (inquired benefit inconsistent with provider type) (service type AM)',
      'vision benefits administered by EYEMED VISION CARE (payer id EYEMD, phone 8665550100)',
      'other payer: MEDICARE (payer id CMS)',
    ]);
  });

  it("keeps the sandbox plan's figures where the plan states them", () => {
    const sandbox = benefitRows(
      buildPlan(
        PLAN_VARIANTS[0],
        { begin: '2026-01-01', end: '2026-12-31', refresh: '2026-01-01' },
        { detail: 'full', markUsed: false, examUsed: false, noOon: false, noInn: false },
      ),
    );
    const byCode = new Map(sandbox.map((r) => [r.code, r]));
    expect(byCode.get('exam')!.inn!.shown.copayment!.value).toBe(PLAN_VARIANTS[0].examCopay);
    expect(byCode.get('exam.routine')!.inn!.shown.copayment).toBeUndefined();
    expect(byCode.get('exam.routine.dilation')!.inn!.shown.copayment!.value).toBe('0');
    expect(byCode.get('exam')!.notes).toContain('once every 12 months');
    // No row repeats the exam copay below the exam.
    const repeats = sandbox.filter(
      (r) =>
        r.code.startsWith('exam.') && r.inn?.shown.copayment?.value === PLAN_VARIANTS[0].examCopay,
    );
    expect(repeats).toEqual([]);
  });
});

describe('label', () => {
  it('names a benefit in words, its own table or its code made readable, never an inherited property', () => {
    expect(label('materials.spectacle_lenses.single_vision')).toBe('Single vision');
    expect(label('materials.tints')).toBe('Tints');
    for (const name of Object.getOwnPropertyNames(Object.prototype)) {
      const words = label(`materials.${name}`);
      expect(typeof words).toBe('string');
      expect(words.toLowerCase()).toBe(name.replace(/_/g, ' ').toLowerCase());
    }
  });
});
