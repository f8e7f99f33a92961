import type { MaterialsList } from '@/lib/benefits';
import { lineOf, quote } from '../../../../test/support/quote.fixtures';
import type { QuoteOrder } from './quote.types';

describe('priceOrder: the one rule (docs/api.md, The counter)', () => {
  it('prices a $220 frame with a $150 allowance and 20 % off the overage at $56.00', () => {
    const answer = quote({ frame: { retail: '220.00' } });
    expect(answer.lines).toEqual([
      {
        item: 'frame',
        code: 'V2020',
        retail: '220.0000',
        plan_covers: '164.0000',
        patient_pays: '56.0000',
        reason: 'allowance $150.00, then 20 % off the $70.00 over it',
      },
    ]);
    expect(answer).toMatchObject({
      retail: '220.0000',
      plan_covers: '164.0000',
      patient_pays: '56.0000',
      not_estimable: [],
      notes: [],
    });
  });

  it('prices progressive premium lenses of tier 2 at the tier copayment $110.00', () => {
    const line = lineOf(
      quote({ lenses: { type: 'progressive_premium', tier: 2, retail: '300.00' } }),
      'lenses',
    );
    expect(line).toMatchObject({
      patient_pays: '110.0000',
      plan_covers: '190.0000',
      reason: 'copayment $110.00, then covered in full',
    });
  });

  it('refuses to guess a tiered lens without a tier or with a tier the list does not state', () => {
    const none = quote({ lenses: { type: 'progressive_premium', retail: '300.00' } });
    expect(none.lines).toEqual([]);
    expect(none.not_estimable).toEqual([
      {
        item: 'lenses',
        retail: '300.0000',
        reason:
          'progressive_premium lenses are priced by tier (1, 2, 3, 4), and the order names no tier',
      },
    ]);
    expect(none.patient_pays).toBe('0.0000');
    const five = quote({ lenses: { type: 'progressive_premium', tier: '5', retail: '300.00' } });
    expect(five.not_estimable[0].reason).toBe(
      'the price list states no tier 5 for progressive_premium lenses (tiers 1, 2, 3, 4)',
    );
  });

  it('covers polycarbonate in full for a 12-year-old and charges the copayment at 40', () => {
    const order: QuoteOrder = {
      lenses: { type: 'single_vision', retail: '120.00' },
      lens_options: [{ option: 'polycarbonate', retail: '60.00' }],
    };
    expect(lineOf(quote(order, { patientAge: 12 }), 'polycarbonate')).toEqual({
      item: 'polycarbonate',
      code: 'V2784',
      retail: '60.0000',
      plan_covers: '60.0000',
      patient_pays: '0.0000',
      reason: 'covered in full up to age 18 (the patient is 12)',
    });
    expect(lineOf(quote(order, { patientAge: 18 }), 'polycarbonate').patient_pays).toBe('0.0000');
    expect(lineOf(quote(order, { patientAge: 40 }), 'polycarbonate').patient_pays).toBe('15.0000');
  });

  it('does not guess a max_age rule when the patient age is unknown', () => {
    const answer = quote(
      {
        lenses: { type: 'single_vision', retail: '120.00' },
        lens_options: [{ option: 'polycarbonate', retail: '60.00' }],
      },
      { patientAge: null },
    );
    expect(answer.not_estimable).toEqual([
      {
        item: 'polycarbonate',
        retail: '60.0000',
        reason: "polycarbonate is covered in full up to age 18, and the patient's age is not known",
      },
    ]);
    expect(answer.retail).toBe('120.0000');
  });

  it('charges the standard anti-reflective copayment $45.00 with its code', () => {
    const answer = quote({
      lenses: { type: 'single_vision', retail: '120.00' },
      lens_options: [{ option: 'anti_reflective_standard', retail: '90.00' }],
    });
    expect(lineOf(answer, 'anti_reflective_standard')).toMatchObject({
      code: 'V2750',
      patient_pays: '45.0000',
      plan_covers: '45.0000',
    });
    expect(answer).toMatchObject({
      retail: '210.0000',
      patient_pays: '70.0000',
      plan_covers: '140.0000',
    });
  });

  it('prices a premium fitting: 10 % off the retail, then the $55 allowance, plus the $25 copayment', () => {
    const answer = quote({
      contact_lenses: { kind: 'elective', retail: '100.00' },
      fitting: { kind: 'premium', retail: '100.00' },
    });
    // 25 + max(0, 100 × 0.9 − 55) = 60.
    expect(lineOf(answer, 'fitting')).toMatchObject({
      patient_pays: '60.0000',
      plan_covers: '40.0000',
      reason:
        '10 % off the retail $100.00 leaves $90.00, less the allowance $55.00: $35.00, plus the copayment $25.00',
    });
    // 25 + max(0, 60 × 0.9 − 55) = 25.
    const small = quote({
      contact_lenses: { kind: 'elective', retail: '100.00' },
      fitting: { kind: 'premium', retail: '60.00' },
    });
    expect(lineOf(small, 'fitting').patient_pays).toBe('25.0000');
    // min(r, 25 + …): a $20 fitting costs the patient $20.
    const tiny = quote({
      contact_lenses: { kind: 'elective', retail: '100.00' },
      fitting: { kind: 'premium', retail: '20.00' },
    });
    expect(lineOf(tiny, 'fitting')).toMatchObject({
      patient_pays: '20.0000',
      plan_covers: '0.0000',
    });
  });

  it('charges the retail when the copayment is more than it', () => {
    const line = lineOf(
      quote({
        lenses: { type: 'single_vision', retail: '120.00' },
        lens_options: [{ option: 'anti_reflective_standard', retail: '30.00' }],
      }),
      'anti_reflective_standard',
    );
    expect(line).toMatchObject({
      patient_pays: '30.0000',
      plan_covers: '0.0000',
      reason: 'copayment $45.00 is more than the retail $30.00: the patient pays the retail',
    });
  });

  it('applies a stated price, at most the retail', () => {
    const materials: MaterialsList = {
      network: 'inn',
      frame: { price: '60.00', copayment: '10.00' },
    };
    expect(lineOf(quote({ frame: { retail: '99.00' } }, { materials }), 'frame')).toMatchObject({
      patient_pays: '60.0000',
      reason: "the list's price $60.00",
    });
    expect(lineOf(quote({ frame: { retail: '40.00' } }, { materials }), 'frame').patient_pays).toBe(
      '40.0000',
    );
  });

  it('keeps a line the list states nothing for (only a code, or nothing) out of the totals', () => {
    const materials: MaterialsList = {
      network: 'inn',
      frame: { code: 'V2020' },
      lens_options: {},
    };
    const answer = quote(
      {
        frame: { retail: '99.00' },
        lenses: { type: 'lined_bifocal', retail: '80.00' },
      },
      { materials },
    );
    expect(answer.lines).toEqual([]);
    expect(answer.not_estimable).toEqual([
      {
        item: 'frame',
        retail: '99.0000',
        reason: 'the price list states no copayment, allowance, discount or price for the frame',
      },
      {
        item: 'lenses',
        retail: '80.0000',
        reason: 'the price list states nothing for lined_bifocal lenses',
      },
    ]);
    expect(answer).toMatchObject({
      retail: '0.0000',
      plan_covers: '0.0000',
      patient_pays: '0.0000',
    });
  });

  it('charges the retail for a max_age-only rule and an older patient', () => {
    const materials: MaterialsList = {
      network: 'inn',
      lenses: { single_vision: { copayment: '10.00' } },
      lens_options: { uv: { max_age: 18 } },
    };
    const order: QuoteOrder = {
      lenses: { type: 'single_vision', retail: '50.00' },
      lens_options: [{ option: 'uv', retail: '25.00' }],
    };
    expect(lineOf(quote(order, { materials, patientAge: 30 }), 'uv')).toMatchObject({
      patient_pays: '25.0000',
      plan_covers: '0.0000',
      reason: 'covered in full up to age 18 only (the patient is 30): the patient pays the retail',
    });
    expect(lineOf(quote(order, { materials, patientAge: 9 }), 'uv').patient_pays).toBe('0.0000');
  });

  it('takes 20 % off the retail of an option priced by a discount alone', () => {
    const line = lineOf(
      quote({
        lenses: { type: 'single_vision', retail: '120.00' },
        lens_options: [{ option: 'photochromic', retail: '80.00' }],
      }),
      'photochromic',
    );
    expect(line).toMatchObject({
      patient_pays: '64.0000',
      reason: '20 % off the retail $80.00',
    });
  });

  it('rounds half up to the cent per line', () => {
    // 0.125 off an overage of $33.33 (allowance $0): 33.33 × 0.875 = 29.16375 → $29.16;
    // 10.01 × 0.75 = 7.5075 → $7.51.
    const materials: MaterialsList = {
      network: 'inn',
      frame: { discount_percent: '12.5' },
      contact_lenses: { elective: { discount_percent: '25' } },
    };
    const answer = quote(
      { frame: { retail: '33.33' }, contact_lenses: { kind: 'elective', retail: '10.01' } },
      { materials },
    );
    expect(lineOf(answer, 'frame').patient_pays).toBe('29.1600');
    expect(lineOf(answer, 'contact_lenses').patient_pays).toBe('7.5100');
    // 0.005 exactly: 0.03 × 0.5 = 0.015 → $0.02.
    const half = quote(
      { frame: { retail: '0.03' } },
      { materials: { network: 'inn', frame: { discount_percent: '50' } } },
    );
    expect(lineOf(half, 'frame').patient_pays).toBe('0.0200');
  });

  it('makes an entry it cannot read not estimable rather than guessing', () => {
    const materials = {
      network: 'inn',
      frame: { copayment: 'ten dollars' },
      lens_options: { tint: { discount_percent: '120' } },
      lenses: { single_vision: { copayment: '-5' } },
    } as unknown as MaterialsList;
    const answer = quote(
      {
        frame: { retail: '50' },
        lenses: { type: 'single_vision', retail: '50' },
        lens_options: [{ option: 'tint', retail: '20' }],
      },
      { materials },
    );
    expect(answer.lines).toEqual([]);
    expect(answer.not_estimable.map((l) => l.reason)).toEqual([
      "the price list's copayment for the frame is not an amount (ten dollars)",
      "the price list's copayment for single_vision lenses is not an amount (-5)",
      "the price list's discount_percent for tint is not a percent (120)",
    ]);
  });

  it('refuses a retail that is not an amount', () => {
    expect(() => quote({ frame: { retail: '-1.00' } })).toThrow(RangeError);
    expect(() => quote({ frame: { retail: '1.00001' } })).toThrow(RangeError);
  });

  it('never reads a list key off the object prototype', () => {
    const answer = quote({
      lenses: { type: 'constructor' as never, retail: '50.00' },
    });
    expect(answer.not_estimable[0].reason).toBe(
      'the price list states nothing for constructor lenses',
    );
  });
});
