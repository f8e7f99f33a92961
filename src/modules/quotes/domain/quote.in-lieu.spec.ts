import type { MaterialsList } from '@/lib/benefits';
import { LIST, lineOf, quote } from '../../../../test/support/quote.fixtures';
import type { QuoteOrder } from './quote.types';

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
