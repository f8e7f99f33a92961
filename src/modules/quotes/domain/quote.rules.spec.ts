import type { MaterialsList } from '@/lib/benefits';
import {
  priceOrder,
  type QuoteAvailability,
  type QuoteInput,
  type QuoteOrder,
} from './quote.rules';

/** The price list of docs/api.md, The counter, as the contract shows it. */
const LIST: MaterialsList = {
  network: 'inn',
  frame: { allowance: '150.00', discount_percent: '20' },
  lenses: {
    single_vision: { copayment: '25.00' },
    progressive_standard: { copayment: '65.00' },
    progressive_premium: {
      tiers: {
        '1': { copayment: '95.00' },
        '2': { copayment: '110.00' },
        '3': { copayment: '135.00' },
        '4': { copayment: '185.00' },
      },
    },
  },
  lens_options: {
    anti_reflective_standard: { copayment: '45.00', code: 'V2750' },
    polycarbonate: { copayment: '15.00', max_age: 18, code: 'V2784' },
    photochromic: { discount_percent: '20' },
  },
  contact_lenses: {
    elective: { allowance: '130.00' },
    fitting_standard: { copayment: '25.00' },
    fitting_premium: {
      copayment: '25.00',
      allowance: '55.00',
      discount_percent: '10',
      discount_on: 'retail',
    },
  },
  in_lieu_of: [
    ['contact_lenses', 'frame'],
    ['contact_lenses', 'lenses'],
  ],
};

const OPEN = { available: true, until: null };
const ALL_OPEN: QuoteAvailability = {
  frames: OPEN,
  spectacle_lenses: OPEN,
  contact_lenses: OPEN,
};

function quote(order: QuoteOrder, more: Partial<QuoteInput> = {}) {
  return priceOrder({
    materials: LIST,
    order,
    patientAge: 40,
    availability: ALL_OPEN,
    ...more,
  });
}

const lineOf = (answer: ReturnType<typeof quote>, item: string) => {
  const found = answer.lines.find((l) => l.item === item);
  if (!found) throw new Error(`no line ${item} in ${JSON.stringify(answer)}`);
  return found;
};

describe('priceOrder: the one rule (docs/api.md, The counter)', () => {
  it('prices a $220 frame with a $150 allowance and 20 % off the overage at $56.00', () => {
    const answer = quote({ frame: { retail: '220.00' } });
    expect(answer.lines).toEqual([
      {
        item: 'frame',
        code: null,
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

describe('priceOrder: what follows what, and availability', () => {
  it('covers no lens option when the order has no lenses, saying why', () => {
    const answer = quote({
      lens_options: [{ option: 'anti_reflective_standard', retail: '90.00' }],
    });
    expect(answer.lines).toEqual([
      {
        item: 'anti_reflective_standard',
        code: 'V2750',
        retail: '90.0000',
        plan_covers: '0.0000',
        patient_pays: '90.0000',
        reason:
          'lens options follow the lenses, and the order has no lenses: the plan covers nothing; the patient pays the retail $90.00',
      },
    ]);
  });

  it('covers no fitting when the order has no contact lenses', () => {
    const line = lineOf(quote({ fitting: { kind: 'standard', retail: '80.00' } }), 'fitting');
    expect(line).toMatchObject({ patient_pays: '80.0000', plan_covers: '0.0000' });
    expect(line.reason).toContain('the fitting follows the contact lenses');
  });

  it('covers nothing for a benefit not available, saying until when; options follow the lenses', () => {
    const answer = quote(
      {
        frame: { retail: '220.00' },
        lenses: { type: 'single_vision', retail: '120.00' },
        lens_options: [{ option: 'anti_reflective_standard', retail: '90.00' }],
      },
      {
        availability: {
          ...ALL_OPEN,
          spectacle_lenses: { available: false, until: '2027-03-15' },
        },
      },
    );
    expect(lineOf(answer, 'frame').patient_pays).toBe('56.0000');
    expect(lineOf(answer, 'lenses')).toMatchObject({
      patient_pays: '120.0000',
      plan_covers: '0.0000',
      reason:
        'spectacle lenses not available until 2027-03-15: the plan covers nothing; the patient pays the retail $120.00',
    });
    expect(lineOf(answer, 'anti_reflective_standard')).toMatchObject({
      code: 'V2750',
      patient_pays: '90.0000',
      reason:
        'spectacle lenses not available until 2027-03-15: the plan covers nothing; the patient pays the retail $90.00',
    });
    expect(answer.patient_pays).toBe('266.0000');
  });

  it('knows what a benefit not available costs even where the list is silent', () => {
    const answer = quote(
      {
        contact_lenses: { kind: 'medically_necessary', retail: '300.00' },
        fitting: { kind: 'standard', retail: '50.00' },
      },
      { availability: { ...ALL_OPEN, contact_lenses: { available: false, until: null } } },
    );
    expect(answer.not_estimable).toEqual([]);
    expect(lineOf(answer, 'contact_lenses').reason).toBe(
      'contact lenses not available now (the date it is available again is not known): the plan covers nothing; the patient pays the retail $300.00',
    );
    expect(answer.patient_pays).toBe('350.0000');
  });
});

describe('priceOrder: in lieu of', () => {
  const both: QuoteOrder = {
    frame: { retail: '220.00' },
    lenses: { type: 'single_vision', retail: '120.00' },
    lens_options: [{ option: 'anti_reflective_standard', retail: '90.00' }],
    contact_lenses: { kind: 'elective', retail: '200.00' },
    fitting: { kind: 'standard', retail: '80.00' },
  };
  // Glasses covered: frame 56 + lenses 25 + AR 45 = 126, contacts and fitting at retail 280: 406.
  // Contacts covered: contacts 70 + fitting 25 = 95, glasses at retail 430: 525.

  it('covers the side leaving the patient the lower total, and says why on the other lines', () => {
    const answer = quote(both);
    expect(lineOf(answer, 'frame').patient_pays).toBe('56.0000');
    expect(lineOf(answer, 'lenses').patient_pays).toBe('25.0000');
    expect(lineOf(answer, 'anti_reflective_standard').patient_pays).toBe('45.0000');
    const why =
      'which leaves the patient less to pay for the contact lenses, the frame and the lenses ($406.00 against $525.00 covering the contact lenses)';
    expect(lineOf(answer, 'contact_lenses')).toMatchObject({
      patient_pays: '200.0000',
      plan_covers: '0.0000',
      reason: `in lieu of: the plan covers the frame and the lenses instead of the contact lenses, ${why}; the patient pays the retail $200.00`,
    });
    expect(lineOf(answer, 'fitting')).toMatchObject({
      patient_pays: '80.0000',
      plan_covers: '0.0000',
    });
    expect(answer.patient_pays).toBe('406.0000');
    expect(answer.notes).toEqual([
      `In lieu of: the plan covers the frame and the lenses, not the contact lenses, ${why}.`,
    ]);
  });

  it('covers the side in_lieu_keep names, even when it costs the patient more', () => {
    const answer = quote({ ...both, in_lieu_keep: 'contact_lenses' });
    expect(lineOf(answer, 'contact_lenses').patient_pays).toBe('70.0000');
    expect(lineOf(answer, 'fitting').patient_pays).toBe('25.0000');
    expect(lineOf(answer, 'frame')).toMatchObject({
      patient_pays: '220.0000',
      reason:
        'in lieu of: the plan covers the contact lenses instead of the frame, as in_lieu_keep asks; the patient pays the retail $220.00',
    });
    expect(lineOf(answer, 'anti_reflective_standard')).toMatchObject({
      patient_pays: '90.0000',
      plan_covers: '0.0000',
    });
    expect(answer.patient_pays).toBe('525.0000');
  });

  it('keeping the frame keeps the lenses too, the contact lenses losing both pairs', () => {
    const answer = quote({ ...both, in_lieu_keep: 'frame' });
    expect(answer.patient_pays).toBe('406.0000');
    expect(answer.notes[0]).toBe(
      'In lieu of: the plan covers the frame and the lenses, not the contact lenses, as in_lieu_keep asks.',
    );
  });

  it('compares the patient totals of the order, not each side alone', () => {
    const answer = quote({
      frame: { retail: '100.00' },
      contact_lenses: { kind: 'elective', retail: '140.00' },
    });
    // Frame covered: 0 + contacts 140 = 140. Contacts covered: 10 + frame 100 = 110, though the
    // frame alone would cost the patient less ($0 against $10) than the contacts alone.
    expect(lineOf(answer, 'contact_lenses').patient_pays).toBe('10.0000');
    expect(lineOf(answer, 'frame').patient_pays).toBe('100.0000');
    expect(answer.patient_pays).toBe('110.0000');
  });

  it('does not guess which side to cover when a line the choice depends on is not priced', () => {
    const answer = quote({
      lenses: { type: 'progressive_premium', retail: '300.00' },
      contact_lenses: { kind: 'elective', retail: '200.00' },
    });
    expect(answer.lines).toEqual([]);
    expect(answer.not_estimable.map((l) => l.item)).toEqual(['lenses', 'contact_lenses']);
    expect(answer.not_estimable[1].reason).toBe(
      'the plan covers the contact lenses or the lenses, not both, and which leaves the patient less cannot be told because the price list does not price lenses: name in_lieu_keep',
    );
  });

  it('still chooses when the unpriced line cannot change the answer', () => {
    // Contacts covered: 0 + lenses 300 (at retail) = 300 at most. Lenses covered: at least the
    // contacts' retail 500 + 0.
    const answer = quote(
      {
        lenses: { type: 'progressive_premium', retail: '300.00' },
        contact_lenses: { kind: 'elective', retail: '500.00' },
      },
      { materials: { ...LIST, contact_lenses: { elective: { copayment: '0.00' } } } },
    );
    expect(lineOf(answer, 'contact_lenses').patient_pays).toBe('0.0000');
    expect(lineOf(answer, 'lenses').reason).toContain(
      '($300.00 against at least $500.00 covering the lenses)',
    );
  });

  it('chooses by the totals when in_lieu_keep names a side outside the pairs the order holds', () => {
    const materials: MaterialsList = { ...LIST, in_lieu_of: [['contact_lenses', 'lenses']] };
    const answer = quote(
      {
        frame: { retail: '220.00' },
        lenses: { type: 'single_vision', retail: '120.00' },
        contact_lenses: { kind: 'elective', retail: '200.00' },
        in_lieu_keep: 'frame',
      },
      { materials },
    );
    // The frame is in no pair here: covered whatever is chosen. Lenses 25 + contacts 200 = 225
    // against contacts 70 + lenses 120 = 190: the contact lenses are covered.
    expect(lineOf(answer, 'frame').patient_pays).toBe('56.0000');
    expect(lineOf(answer, 'contact_lenses').patient_pays).toBe('70.0000');
    expect(lineOf(answer, 'lenses').patient_pays).toBe('120.0000');
    expect(answer.notes).toEqual([
      'in_lieu_keep (the frame) is not used: the order does not hold both sides of an in_lieu_of pair with it.',
      'In lieu of: the plan covers the contact lenses, not the lenses, which leaves the patient less to pay for the contact lenses and the lenses ($190.00 against $225.00 covering the lenses).',
    ]);
  });

  it('notes an in_lieu_keep with nothing to choose between', () => {
    const answer = quote({ frame: { retail: '100.00' }, in_lieu_keep: 'contact_lenses' });
    expect(lineOf(answer, 'frame').patient_pays).toBe('0.0000');
    expect(answer.notes).toEqual([
      'in_lieu_keep (the contact lenses) is not used: the order does not hold both sides of an in_lieu_of pair with it.',
    ]);
  });
});
