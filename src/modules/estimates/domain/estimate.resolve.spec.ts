import { benefitCodeForProcedure } from '@/lib/benefits/service-codes';
import { buildPlan, PLAN_VARIANTS } from '@/modules/insurers/domain/demo/demo-plan';
import { estimateReimbursement } from './estimate.rules';
import { line, plan, R } from '../../../../test/support/estimate.fixtures';

describe('which benefit a line is estimated on, and shared allowances', () => {
  it('lets two lines of one benefit share its allowance once', () => {
    // Two frames, 50 + 40, one allowance of 70: 50, then the 20 left.
    const e = estimateReimbursement(plan(), 'oon', [line(['V2020'], '50'), line(['V2025'], '40')]);
    expect(e.lines.map((l) => [l.cap, l.capped])).toEqual([
      ['70.0000', '50.0000'],
      ['20.0000', '20.0000'],
    ]);
    expect(e.lines[1].notes).toContain('allowance shared with line 0: $20.00 left for this line');
    expect(e.groups).toHaveLength(1);
    expect(e.groups[0]).toMatchObject({ sum_of_caps: '70.0000', reimbursement: '70.0000' });
  });

  it('estimates a code whose specific benefit the plan lacks on the nearest listed one', () => {
    // V2100 maps to …single_vision, absent here: …spectacle_lenses has no allowance → 0 and says so.
    const e = estimateReimbursement(plan(), 'oon', [line(['V2100'], '90')]);
    expect(e.lines[0].benefit_code).toBe('materials.spectacle_lenses');
    expect(e.lines[0].notes).toEqual([
      'V2100 maps to materials.spectacle_lenses.single_vision',
      'materials.spectacle_lenses.single_vision is not in this plan: estimated on materials.spectacle_lenses',
      'no out-of-network benefit: materials.spectacle_lenses has no out-of-network allowance',
      'benefits under it with an allowance: materials.spectacle_lenses.bifocal (estimate on one with benefit_code)',
    ]);
  });

  it('maps codes with modifiers and lens options with the shared table', () => {
    expect(benefitCodeForProcedure('V2750')).toBe(
      'materials.spectacle_lenses.options.anti_reflective',
    );
    expect(benefitCodeForProcedure('V2781')).toBe('materials.spectacle_lenses.progressive');
    expect(benefitCodeForProcedure('V2760')).toBe('materials.spectacle_lenses.options');
    const e = estimateReimbursement(plan(), 'oon', [line(['V2020-RT'], '60')]);
    expect(e.lines[0]).toMatchObject({ benefit_code: 'materials.frames', capped: '60.0000' });
  });
});

describe('estimateReimbursement on the sandbox plan', () => {
  const dates = { begin: '2026-01-01', end: '2026-12-31', refresh: R };
  const shape = {
    detail: 'summary' as const,
    markUsed: false,
    examUsed: false,
    noOon: false,
    noInn: false,
  };
  const plus = PLAN_VARIANTS.find((v) => v.name === 'VisionCare Plus')!;

  it('estimates a typical out-of-network receipt line by line', () => {
    const e = estimateReimbursement(buildPlan(plus, dates, shape), 'oon', [
      line(['92014'], '120'),
      line(['V2020'], '180'),
      line(['V2100'], '110', { quantity: 2 }),
      line(['V2750'], '60'),
      line(['V2744'], '80'),
    ]);
    // exam 45 (VSP schedule), frames 70, single vision 30 (one pair's allowance for both lenses),
    // anti-reflective not covered out of network (allowance 0), photochromic has no item of its
    // own allowance: it inherits the lenses' and shares what they left (nothing).
    expect(e.lines.map((l) => [l.benefit_code, l.cap, l.capped])).toEqual([
      ['exam.routine', '45.0000', '45.0000'],
      ['materials.frames', '70.0000', '70.0000'],
      ['materials.spectacle_lenses.single_vision', '30.0000', '30.0000'],
      ['materials.spectacle_lenses.single_vision.options.anti_reflective', '0.0000', '0.0000'],
      ['materials.spectacle_lenses.single_vision.options.photochromic', '0.0000', '0.0000'],
    ]);
    expect(e.lines[3].notes).toContain(
      'estimated on materials.spectacle_lenses.single_vision.options.anti_reflective, with the lenses of line 2',
    );
    expect(e.lines[3].notes).toContain(
      'out-of-network allowance $0.00 on materials.spectacle_lenses.single_vision.options.anti_reflective (not covered out of network)',
    );
    // 120 + 180 + 2 × 110 + 60 + 80 = 660; 45 + 70 + 30 = 145.
    expect(e.total_cost).toBe('660.0000');
    expect(e.estimated_reimbursement).toBe('145.0000');
    expect(e.patient_responsibility).toBe('515.0000');
  });

  it('has no out-of-network package, and reimburses nothing once the exam is used', () => {
    const used = buildPlan(plus, dates, { ...shape, examUsed: true });
    const e = estimateReimbursement(used, 'oon', [
      line(['92014'], '120'),
      line(['V2020'], '100', { benefit_code: 'materials.package.frame' }),
    ]);
    expect(e.lines[0].notes).toContain('benefit used this period (1 of 1 used)');
    expect(e.lines[1].notes).toContain(
      'no out-of-network benefit: materials.package is in-network only',
    );
    expect(e.groups.map((g) => [g.benefit_code, g.copayment, g.reimbursement])).toEqual([
      ['exam.routine', '0.0000', '0.0000'],
      ['materials.package', '0.0000', '0.0000'],
    ]);
  });
});
