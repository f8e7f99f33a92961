import { toMinor } from '@/platform/kernel/decimal';
import { estimateReimbursement, withCoinsurance } from './estimate.rules';
import { line, oon, plan } from '../../../../test/support/estimate.fixtures';
import type { BenefitItem } from '@/lib/benefits';
import type { EstimateServiceInput } from './estimate.types';

describe('estimateReimbursement (docs/api.md, Estimates), worked by hand', () => {
  /** An expected group: its copayment, charges after it, sum of capped amounts, reimbursement. */
  const group = (
    benefit_code: string,
    copayment: string,
    max_after_copayment: string,
    sum_of_caps: string,
    reimbursement: string,
  ) => ({ benefit_code, copayment, max_after_copayment, sum_of_caps, reimbursement });

  it('a lone exam under its cap: the copay comes off the charge', () => {
    // charge 40, cap 45 → capped 40; group min(40 − 10, 40) = 30.
    const e = estimateReimbursement(plan(), 'oon', [line(['92014'], '40')]);
    expect(e.lines[0]).toMatchObject({
      benefit_code: 'exam.routine',
      cost: '40.0000',
      charge: '40.0000',
      cap: '45.0000',
      capped: '40.0000',
    });
    expect(e.lines[0].notes).toContain(
      'out-of-network allowance $45.00 on exam, inherited by exam.routine (reimbursed up to this amount)',
    );
    expect(e.groups).toEqual([group('exam.routine', '10.0000', '30.0000', '40.0000', '30.0000')]);
    expect(e).toMatchObject({
      network: 'oon',
      total_cost: '40.0000',
      estimated_reimbursement: '30.0000',
      patient_responsibility: '10.0000',
    });
  });

  it('a lone exam over its cap: the cap wins over charge minus copay', () => {
    // charge 120, cap 45 → capped 45; group min(120 − 10, 45) = 45; patient 75.
    const e = estimateReimbursement(plan(), 'oon', [line(['92004'], '120')]);
    expect(e.lines[0]).toMatchObject({ cap: '45.0000', capped: '45.0000' });
    expect(e.lines[0].notes).toContain('charge $120.00 is over the cap: $45.00 counts');
    expect(e.groups[0]).toMatchObject({
      max_after_copayment: '110.0000',
      reimbursement: '45.0000',
    });
    expect(e.estimated_reimbursement).toBe('45.0000');
    expect(e.patient_responsibility).toBe('75.0000');
  });

  const pkg = (frame: string, lenses: string, extra: EstimateServiceInput[] = []) => [
    line(['V2020'], frame, { benefit_code: 'materials.package.frame' }),
    line(['V2200'], lenses, { benefit_code: 'materials.package.lenses' }),
    ...extra,
  ];

  it('a package whose total after its one copay is below the sum of capped amounts', () => {
    // frame 60 (cap 70) + lenses 40 (cap 55): capped 60 + 40 = 100; charges 100 − 20 = 80 → 80.
    const e = estimateReimbursement(plan(), 'oon', pkg('60', '40'));
    expect(e.groups).toEqual([
      group('materials.package', '20.0000', '80.0000', '100.0000', '80.0000'),
    ]);
    expect(e.lines.map((l) => l.capped)).toEqual(['60.0000', '40.0000']);
    expect(e.lines[1].notes).toContain(
      'out-of-network allowance $55.00 on materials.package.lenses',
    );
    expect(e.lines[0].notes).toContain(
      'part of the materials.package package: one group, one copayment',
    );
    expect(e.lines[0].notes).toContain(
      'out-of-network copayment $20.00 on materials.package, once per group',
    );
    expect(e.lines[1].notes.join(' ')).not.toContain('copayment $20.00');
    expect(e.estimated_reimbursement).toBe('80.0000');
  });

  it('a package whose total after copay is above the sum of capped amounts', () => {
    // frame 150 → 70, lenses 120 → 55: caps 125; charges 270 − 20 = 250 → 125.
    const e = estimateReimbursement(plan(), 'oon', pkg('150', '120'));
    expect(e.groups[0]).toMatchObject({
      max_after_copayment: '250.0000',
      sum_of_caps: '125.0000',
      reimbursement: '125.0000',
    });
    expect(e.patient_responsibility).toBe('145.0000');
  });

  it('a package with a sub-item that has no out-of-network allowance', () => {
    // frame 60 + lenses 40 + coatings 30 (no oon allowance → 0): caps 100; 130 − 20 = 110 → 100.
    const coatings = line(['V2760'], '30', { benefit_code: 'materials.package.lenses.coatings' });
    const e = estimateReimbursement(plan(), 'oon', pkg('60', '40', [coatings]));
    expect(e.lines[2]).toMatchObject({ cap: null, capped: '0.0000' });
    expect(e.lines[2].notes).toContain(
      'no out-of-network benefit: materials.package.lenses.coatings has no out-of-network allowance',
    );
    expect(e.groups).toHaveLength(1);
    expect(e.groups[0]).toMatchObject({
      max_after_copayment: '110.0000',
      sum_of_caps: '100.0000',
      reimbursement: '100.0000',
    });
  });

  it('multiplies cost by quantity before capping', () => {
    // 4 boxes × 30 = 120, cap 105 → 105; 3 boxes × 30.25 = 90.75, within 105.
    const over = estimateReimbursement(plan(), 'oon', [
      line(['V2520'], '30', { quantity: 4, benefit_code: 'materials.contact_lenses.elective' }),
    ]);
    expect(over.lines[0]).toMatchObject({
      charge: '120.0000',
      cap: '105.0000',
      capped: '105.0000',
    });
    expect(over.estimated_reimbursement).toBe('105.0000');
    const under = estimateReimbursement(plan(), 'oon', [
      line(['V2520'], '30.25', { quantity: 3, benefit_code: 'materials.contact_lenses.elective' }),
    ]);
    expect(under.lines[0]).toMatchObject({ charge: '90.7500', capped: '90.7500' });
    expect(under.total_cost).toBe('90.7500');
  });

  it('applies coinsurance to the capped amount', () => {
    // medical exam 200, cap 45 (inherited), coinsurance 40% → 45 × 0.6 = 27; 200 − 10 = 190 → 27.
    const e = estimateReimbursement(plan(), 'oon', [
      line(['92014'], '200', { benefit_code: 'exam.medical' }),
    ]);
    expect(e.lines[0]).toMatchObject({ cap: '45.0000', capped: '27.0000' });
    expect(e.lines[0].notes).toContain(
      'coinsurance 40% on exam.medical: the plan pays 60% of $45.00 = $27.00',
    );
    expect(e.groups[0]).toMatchObject({ copayment: '10.0000', reimbursement: '27.0000' });
  });

  it('rounds coinsurance half up to the ten-thousandth, exactly', () => {
    expect(withCoinsurance(toMinor('10.0001'), toMinor('50'))).toBe(toMinor('5.0001'));
    expect(withCoinsurance(toMinor('0.1'), toMinor('33.3333'))).toBe(toMinor('0.0667'));
    expect(withCoinsurance(toMinor('45'), toMinor('100'))).toBe(0n);
  });

  /** A frame charged 180, out of network, under the plan with these frame lists. */
  const frames180 = (frames: Partial<BenefitItem> = {}) =>
    estimateReimbursement(plan({ frames }), 'oon', [line(['V2020'], '180')]);

  it('reimburses nothing for a used benefit', () => {
    const e = frames180({ quantity_accepted: [{ value: 1 }] });
    expect(e.lines[0]).toMatchObject({
      benefit_code: 'materials.frames',
      cap: '0.0000',
      capped: '0.0000',
    });
    expect(e.lines[0].notes).toContain('benefit used this period (1 of 1 used)');
    expect(e.groups[0].reimbursement).toBe('0.0000');
    expect(e.patient_responsibility).toBe('180.0000');
  });

  it.each([
    {
      title: 'reimburses nothing when the last use is reserved by a pending claim',
      frames: { quantity_reserved: [{ value: 1 }] },
      cap: '0.0000',
      note: 'no use left this period: 0 of 1 used, 1 reserved by pending claims',
    },
    {
      title: 'counts only the allowance left after used and reserved amounts',
      frames: { allowance_accepted: [oon('20')], allowance_reserved: [oon('15.5')] },
      cap: '34.5000',
      note: '$20.00 already used, $15.50 reserved by pending claims: $34.50 left',
    },
  ])('$title', ({ frames, cap, note }) => {
    const e = frames180(frames);
    expect(e.lines[0]).toMatchObject({ cap, capped: cap });
    expect(e.lines[0].notes).toContain(note);
  });

  it('a year-to-date allowance the 271 states as used is not paid again', () => {
    const full = frames180();
    const e = frames180({ allowance_accepted: [oon('50')] });
    expect(toMinor(e.lines[0].capped)).toBe(toMinor(full.lines[0].capped) - toMinor('50'));
    expect(e.lines[0].capped).toBe('20.0000');
  });

  it('reimburses an unmapped code 0 with a note, in no group', () => {
    const e = estimateReimbursement(plan(), 'oon', [line(['99213'], '85'), line(['92014'], '40')]);
    expect(e.lines[0]).toMatchObject({ benefit_code: null, cap: null, capped: '0.0000' });
    expect(e.lines[0].notes).toEqual(['no benefit is mapped for 99213: not reimbursed']);
    expect(e.groups.map((g) => g.benefit_code)).toEqual(['exam.routine']);
    expect(e.total_cost).toBe('125.0000');
    expect(e.estimated_reimbursement).toBe('30.0000');
    expect(e.patient_responsibility).toBe('95.0000');
  });

  it('reimburses a benefit the plan does not have 0', () => {
    const e = estimateReimbursement(plan(), 'oon', [
      line(['V2020'], '100', { benefit_code: 'materials.sunglasses' }),
    ]);
    expect(e.lines[0]).toMatchObject({ benefit_code: 'materials.sunglasses', cap: null });
    expect(e.lines[0].notes).toEqual(['no benefit materials.sunglasses in this plan']);
    expect(e.groups).toEqual([]);
    expect(e.estimated_reimbursement).toBe('0.0000');
  });

  it('estimates in network with the in-network values', () => {
    // frames: charge 200, inn cap 150, inn copay 15 → min(185, 150) = 150.
    // exam: no in-network allowance but an in-network copayment of 10: covered in full after
    // the copayment → 90 − 10 = 80; the patient pays the copayment only.
    const e = estimateReimbursement(plan(), 'inn', [line(['V2020'], '200'), line(['92014'], '90')]);
    expect(e.network).toBe('inn');
    expect(e.lines[0]).toMatchObject({ cap: '150.0000', capped: '150.0000' });
    expect(e.lines[0].notes).toContain('in-network allowance $150.00 on materials.frames');
    expect(e.lines[1]).toMatchObject({ cap: null, capped: '90.0000' });
    expect(e.lines[1].notes).toContain(
      'in-network: covered without an allowance, the patient pays the copayment',
    );
    expect(e.groups).toEqual([
      group('materials.frames', '15.0000', '185.0000', '150.0000', '150.0000'),
      group('exam.routine', '10.0000', '80.0000', '90.0000', '80.0000'),
    ]);
    expect(e.estimated_reimbursement).toBe('230.0000');
    expect(e.patient_responsibility).toBe('60.0000');
  });

  it('owes nothing for an in-network exam with a $0 copayment', () => {
    const zero = plan();
    zero.items[0].copayment = [{ flags: ['inn'], value: '0' }];
    const e = estimateReimbursement(zero, 'inn', [line(['92014'], '145')]);
    expect(e.estimated_reimbursement).toBe('145.0000');
    expect(e.patient_responsibility).toBe('0.0000');
  });

  it('pays nothing for a benefit the plan names as not covered, in either network', () => {
    const p = plan({ frames: { flags: ['not_covered'] } });
    for (const network of ['inn', 'oon'] as const) {
      const e = estimateReimbursement(p, network, [line(['V2020'], '120')]);
      expect(e.lines[0]).toMatchObject({ cap: null, capped: '0.0000' });
      expect(e.lines[0].notes).toContain(
        'not covered: the plan names materials.frames and does not cover it',
      );
      expect(e.estimated_reimbursement).toBe('0.0000');
    }
  });
});
